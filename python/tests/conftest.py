# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The Python suite's settings, from the environment:

VPUX_TEST_DATA    the directory python/tests/mkref.py laid out (required)
VPUX_TEST_DEVICE  the device the sessions run on (default "inproc"; the VM
                  suite gives /dev/accel/accel0)
VPUX_SRCTOP       the source tree, when there is one (the version check,
                  the documentation's example)
VPUX_TEST_IMAGES  how many of the data's images the runs take (default
                  all 16; the VM, where a run takes 0.1 s, 4)
"""
import os

import numpy as np
import pytest


def pytest_report_header(config):
    return "vpux: device %s, data %s" % (
        os.environ.get("VPUX_TEST_DEVICE", "inproc"),
        os.environ.get("VPUX_TEST_DATA"))


@pytest.fixture(scope="session")
def device():
    return os.environ.get("VPUX_TEST_DEVICE", "inproc")


@pytest.fixture(scope="session")
def data():
    d = os.environ.get("VPUX_TEST_DATA")
    if not d or not os.path.isdir(d):
        pytest.fail("VPUX_TEST_DATA names no directory: run the suite "
                    "through make python-check (python/tests/mkref.py)")
    return d


@pytest.fixture(scope="session")
def ref(data):
    r = dict(np.load(os.path.join(data, "fashion_ref.npz")))
    n = int(os.environ.get("VPUX_TEST_IMAGES", len(r["images"])))
    return {k: v[:n] for k, v in r.items()}


@pytest.fixture(scope="session")
def loadable(data):
    with open(os.path.join(data, "fashion.vpux"), "rb") as f:
        return f.read()


@pytest.fixture(scope="session")
def session(loadable, device):
    import vpux
    return vpux.InferenceSession(loadable, device=device)

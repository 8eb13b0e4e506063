#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Lay out OUT, the Python suite as the VM runs it (tools/vm/tests.list:
python-vpux). The guest is busybox: it has no Python, so OUT carries the
interpreter and exactly the modules the suite loads, found by running the
suite here as the guest does and listing sys.modules at its end:

  OUT/usr/bin/python3          this interpreter
  OUT/usr/lib/...              every module file the run loaded (the
                               standard library, numpy, pytest, vpux),
                               at its path here, with its cached bytecode
  OUT/lib/                     the shared libraries of all of them (ldd)
  OUT/tests/, OUT/data/        the suite and its data (mkref.py's DATA)
  OUT/run.sh                   runs the suite on the device given

    vmroot.py OUT DATA          (PYTHONPATH and LD_LIBRARY_PATH as for
                                 make python-check)
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

RUN_SH = """#!/bin/sh
# the Python suite on DEVICE (default /dev/accel/accel0)
R=$(cd "$(dirname "$0")" && pwd)
export PYTHONHOME=$R/usr PYTHONPATH=$R/site:$R/usr/lib/python3/dist-packages
export LD_LIBRARY_PATH=$R/lib:${LD_LIBRARY_PATH:-}
export VPUX_TEST_DATA=$R/data VPUX_TEST_DEVICE=${1:-/dev/accel/accel0}
# the in-process device's memory: the default 1 GiB does not fit the guest
export VPUX_INPROC_MEM_MB=128
# 4 of the 16 images: a run through the model in TCG takes about 0.1 s
export VPUX_TEST_IMAGES=4
cd "$R/tests" && exec "$R/usr/bin/python3" -B -m pytest -p no:cacheprovider \
	-q --durations=5
"""


def copy(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(src, dst)


# a pytest plugin: at the end of the run, the files of every module loaded
PLUGIN = """import os, sys
def pytest_unconfigure(config):
    with open(os.environ["VMROOT_LIST"], "w") as f:
        for m in list(sys.modules.values()):
            p, c = getattr(m, "__file__", None), getattr(m, "__cached__", None)
            f.write("%s %s %s\\n" % (m.__name__, p, c))
"""


def loaded_modules(tmp):
    """Run the suite as the VM does (python3 -m pytest) and list what it
    loaded: (name, file, cached) for every module."""
    with open(os.path.join(tmp, "vmroot_plugin.py"), "w") as f:
        f.write(PLUGIN)
    env = dict(os.environ, VMROOT_LIST=os.path.join(tmp, "modules"),
               PYTHONPATH=tmp + os.pathsep + os.environ.get("PYTHONPATH", ""))
    rc = subprocess.run([sys.executable, "-B", "-m", "pytest", "-q", "-p",
                         "no:cacheprovider", "-p", "vmroot_plugin"],
                        cwd=HERE, env=env).returncode
    if rc != 0:
        sys.exit("vmroot: the suite failed here (%d)" % rc)
    with open(os.path.join(tmp, "modules")) as f:
        return [line.split() for line in f]


def main():
    out, data = sys.argv[1:3]
    os.environ["VPUX_TEST_DATA"] = data
    with tempfile.TemporaryDirectory() as tmp:
        mods = loaded_modules(tmp)
    if os.path.exists(out):
        shutil.rmtree(out)
    files, sos, site = set(), set(), None
    for name, f, c in mods:
        if not os.path.isfile(f):
            continue        # built in, or a namespace
        f = os.path.abspath(f)
        if f.startswith(HERE + os.sep) or name in ("sitecustomize",
                                                   "vmroot_plugin"):
            continue        # the suite (OUT/tests); Debian's local hook
        files.add(f)
        if os.path.isfile(c):
            files.add(os.path.abspath(c))
        if f.endswith(".so"):
            sos.add(f)
        if name == "vpux":
            site = os.path.dirname(os.path.dirname(f))
    n = 0
    for f in sorted(files):
        if f.startswith(site + os.sep):     # the vpux package built here
            copy(f, os.path.join(out, "site", os.path.relpath(f, site)))
        elif f.startswith("/usr/"):
            copy(f, out + f)
        else:
            sys.exit("vmroot: %s is outside /usr and the build" % f)
        n += 1
    # Python finds its prefix through this landmark
    lib = os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2])
    copy(os.path.join(lib, "os.py"), out + os.path.join(lib, "os.py"))
    os.makedirs(out + os.path.join(lib, "lib-dynload"), exist_ok=True)
    exe = os.path.realpath(sys.executable)
    copy(exe, os.path.join(out, "usr/bin/python3"))
    libs = set()
    for f in [exe] + sorted(sos):
        ldd = subprocess.run(["ldd", f], capture_output=True, text=True,
                             check=True).stdout
        for line in ldd.splitlines():
            p = line.split()
            if len(p) >= 3 and p[1] == "=>" and p[2].startswith("/"):
                libs.add((p[0], p[2]))
    os.makedirs(os.path.join(out, "lib"))
    for name, path in sorted(libs):
        if not name.startswith("ld-linux"):    # the guest's /lib64 has it
            shutil.copy(path, os.path.join(out, "lib", name))
    shutil.copytree(data, os.path.join(out, "data"))
    os.makedirs(os.path.join(out, "tests"))
    for t in ("conftest.py", "test_vpux.py"):
        shutil.copy(os.path.join(HERE, t), os.path.join(out, "tests", t))
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write(RUN_SH)
    os.chmod(os.path.join(out, "run.sh"), 0o755)
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(out) for f in fs)
    print("vmroot: %s: %d module files, %d libraries, %.1f MiB" % (
        out, n, len(libs), size / 2**20))


if __name__ == "__main__":
    main()

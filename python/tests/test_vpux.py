# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""The vpux Python module: every call and its errors, the Fashion-MNIST
float model against onnxruntime, run_async() against run()."""
import concurrent.futures
import os
import pathlib
import re
import threading

import numpy as np
import pytest

import vpux
from vpux import _vpux


def fashion_input(ref, i):
    return {"input": ref["images"][i]}


# ---- module ----

def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", vpux.__version__)
    top = os.environ.get("VPUX_SRCTOP")
    if top:
        with open(os.path.join(top, "Makefile")) as f:
            made = re.search(r"^VERSION := (\S+)$", f.read(), re.M).group(1)
        assert vpux.__version__ == made


def test_error_classes():
    assert issubclass(vpux.InvalidArgument, vpux.Error)
    assert issubclass(vpux.Error, Exception)
    assert set(vpux._ERROR_CLASSES) == set(range(-15, 0))
    for code, cls in vpux._ERROR_CLASSES.items():
        assert getattr(vpux, cls.__name__) is cls and cls.code == code
        assert cls.__name__ in vpux.__all__
    e = vpux._make_error(-12, "")
    assert type(e) is vpux.Timeout and e.code == -12
    assert str(e) == "timed out" and e.message == "timed out"
    e = vpux._make_error(-99, "what")
    assert type(e) is vpux.Error and e.code == -99 and str(e) == "what"
    assert vpux.InvalidArgument("x").code == -1


# ---- devices ----

def test_device_names():
    names = vpux.device_names()
    assert names[-1] == "inproc"
    assert all(n.startswith("/dev/accel/accel") for n in names[:-1])


def test_devices(device):
    devs = vpux.devices()
    names = [d.name for d in devs]
    assert names[-1] == "inproc"
    assert device in names
    for d in devs:
        assert d.backend == ("inproc" if d.name == "inproc" else "ioctl")
        assert d.engines == {"dma": 2, "dpu": 2, "shave": 2}
        assert d.target == 1 and d.caps & 7 == 7
        assert d.max_ops > 0 and d.max_barriers > 0
    kernel = sorted(n for n in names if n != "inproc")
    present = sorted(p for p in
                     (os.path.join("/dev/accel", n) for n in
                      (os.listdir("/dev/accel")
                       if os.path.isdir("/dev/accel") else []))
                     if re.fullmatch(r"/dev/accel/accel\d+", p))
    # every node is vpux_accel's wherever the suite runs (the VM, or a
    # host without accelerators)
    assert kernel == present


def test_device_errors(loadable):
    with pytest.raises(vpux.NoDevice) as e:
        vpux.InferenceSession(loadable, device="/dev/accel/accel99")
    assert e.value.code == -3
    assert e.value.message.startswith("/dev/accel/accel99: ")
    with pytest.raises(TypeError, match="device must be a name"):
        vpux.InferenceSession(loadable, device=0)


def test_session_on_device_info(loadable):
    d = vpux.devices()[-1]
    s = vpux.InferenceSession(loadable, device=d)
    assert s.get_device() == "inproc"


# ---- compile ----

def test_compile(data, loadable):
    onnx = os.path.join(data, "fashion_float.onnx")
    b = vpux.compile(onnx)
    assert isinstance(b, bytes) and b[:4] == b"\x7fELF"
    assert b == loadable                     # what mkref.py compiled
    with open(onnx, "rb") as f:
        assert vpux.compile(f.read()) == b   # from bytes
    assert vpux.compile(pathlib.Path(onnx)) == b
    assert vpux.compile(onnx, no_cmx=True)[:4] == b"\x7fELF"


def test_compile_errors(data):
    with pytest.raises(vpux.IOFailure) as e:
        vpux.compile("/nonexistent/model.onnx")
    assert e.value.code == -4
    assert str(e.value) == ("/nonexistent/model.onnx: cannot open: "
                            "No such file or directory")
    with pytest.raises(vpux.FormatError) as e:
        vpux.compile(b"not a model")
    assert e.value.code == -5 and "not a valid ModelProto" in str(e.value)
    # a Resize the NPU does not take: every such node named
    with pytest.raises(vpux.Unsupported) as e:
        vpux.compile(os.path.join(data, "mixed_qdq.onnx"))
    assert e.value.code == -9
    assert "Resize 'upsample_Resize': operator not supported" in str(e.value)
    with pytest.raises(TypeError, match="compile.. takes a path or bytes"):
        vpux.compile(42)


# ---- sessions ----

def test_inputs_outputs(session):
    (i,) = session.get_inputs()
    (o,) = session.get_outputs()
    assert (i.name, i.shape, i.type) == ("input", [1, 1, 28, 28],
                                         "tensor(float)")
    assert (o.name, o.shape, o.type) == ("output", [1, 10], "tensor(float)")
    assert i.dtype == np.float32
    assert repr(i) == ("NodeArg(name='input', type='tensor(float)', "
                       "shape=[1, 1, 28, 28])")
    m = session.get_modelmeta()
    assert m["name"] == "fashion" and m["num_inputs"] == 1


def test_session_sources(data, loadable, device, ref, session):
    want = session.run(None, fashion_input(ref, 0))[0]
    path = os.path.join(data, "fashion.vpux")
    onnx = os.path.join(data, "fashion_float.onnx")
    with open(onnx, "rb") as f:
        onnx_bytes = f.read()
    for src in (path, pathlib.Path(path), bytearray(loadable), onnx,
                onnx_bytes):
        s = vpux.InferenceSession(src, device=device)
        np.testing.assert_array_equal(s.run(None, fashion_input(ref, 0))[0],
                                      want)


def test_session_errors(device, loadable):
    with pytest.raises(vpux.IOFailure) as e:
        vpux.InferenceSession("/nonexistent/net.vpux", device=device)
    assert e.value.code == -4
    assert str(e.value) == "/nonexistent/net.vpux: cannot open"
    with pytest.raises(vpux.FormatError) as e:
        vpux.InferenceSession(loadable[:100], device=device)
    assert e.value.code == -5
    with pytest.raises(vpux.FormatError, match="not a valid ModelProto"):
        vpux.InferenceSession(b"neither ELF nor ONNX", device=device)
    with pytest.raises(TypeError, match="takes a path or bytes"):
        vpux.InferenceSession(3, device=device)


def test_run_matches_onnxruntime(session, ref):
    n = len(ref["images"])
    got = np.concatenate([session.run(["output"], fashion_input(ref, i))[0]
                          for i in range(n)])
    assert got.shape == (n, 10) and got.dtype == np.float32
    # onnxruntime's class for every image (ort_pred_float.u8)
    np.testing.assert_array_equal(got.argmax(1), ref["ort_pred"])
    if "logits" in ref:
        # the FP16 rule of vpux-onnx test --rel-l2 1e-2, per image
        want = ref["logits"]
        rel = np.linalg.norm(got - want, axis=1) / np.linalg.norm(want, axis=1)
        assert rel.max() < 1e-2, rel


def test_run_layouts(session, ref):
    x = ref["images"][3]
    want = session.run(None, {"input": x})[0]
    fortran = np.asfortranarray(x)
    assert not fortran.flags.c_contiguous
    np.testing.assert_array_equal(session.run(None, {"input": fortran})[0],
                                  want)
    strided = np.zeros((1, 1, 28, 56), np.float32)[..., ::2]
    strided[...] = x
    np.testing.assert_array_equal(session.run(None, {"input": strided})[0],
                                  want)


def test_run_errors(session, ref):
    x = ref["images"][0]
    cases = [
        ({}, None, vpux.InvalidArgument, "input 'input' not given"),
        ({"input": x, "other": x}, None, vpux.InvalidArgument,
         "no input named 'other' (inputs: input)"),
        ({"input": x.astype(np.float64)}, None, vpux.InvalidArgument,
         "input 'input': float64 given, the network takes float32 "
         "(tensor(float))"),
        ({"input": x[0]}, None, vpux.InvalidArgument,
         "input 'input': shape [1, 28, 28] given, the network takes "
         "[1, 1, 28, 28]"),
        ({"input": x}, ["logits"], vpux.InvalidArgument,
         "no output named 'logits' (outputs: output)"),
    ]
    for feed, names, exc, msg in cases:
        with pytest.raises(exc) as e:
            session.run(names, feed)
        assert str(e.value) == msg and e.value.code == -1
        with pytest.raises(exc) as e:
            session.run_async(names, feed)
        assert str(e.value) == msg
    with pytest.raises(TypeError, match="output_names must be a list"):
        session.run("output", {"input": x})
    with pytest.raises(TypeError, match="input_feed must be a dict"):
        session.run(None, [x])
    with pytest.raises(vpux.InvalidArgument, match="run_options"):
        session.run(None, {"input": x}, run_options={})


def test_run_unbound_symbol(data, device):
    # a network with a symbol ('tokens'), which the module does not bind:
    # libvpux's VPUX_E_UNBOUND, from run() and through run_async()'s future
    s = vpux.InferenceSession(os.path.join(data, "dyn_mlp.vpux"), device=device)
    a = s.get_inputs()[0]
    assert (a.name, a.type, a.shape) == ("x", "tensor(int8)", [64, 32])
    feed = {"x": np.zeros(a.shape, a.dtype)}
    msg = ("symbol 'tokens' is not bound (vpux_request_set_symbol, "
           "vpux_request_set_input_shape)")
    with pytest.raises(vpux.Unbound) as e:
        s.run(None, feed)
    assert e.value.code == -10 and str(e.value) == msg
    err = s.run_async(None, feed).exception(timeout=60)
    assert type(err) is vpux.Unbound and str(err) == msg


def test_run_async_same_as_run(session, ref):
    n = len(ref["images"])
    want = [session.run(None, fashion_input(ref, i))[0] for i in range(n)]
    futs = [session.run_async(None, fashion_input(ref, i)) for i in range(n)]
    assert all(isinstance(f, concurrent.futures.Future) for f in futs)
    done, _ = concurrent.futures.wait(futs, timeout=120)
    assert len(done) == n
    for f, w in zip(futs, want):
        (y,) = f.result()
        np.testing.assert_array_equal(y, w)   # the same bytes


def test_run_async_inputs_taken_at_call(session, ref):
    x = ref["images"][-1].copy()
    want = session.run(None, {"input": x})[0]
    fut = session.run_async(None, {"input": x})
    x[...] = 0      # after the call: the request has its own copy
    np.testing.assert_array_equal(fut.result(timeout=60)[0], want)


def test_run_threads(session, ref):
    n = min(4, len(ref["images"]))
    want = [session.run(None, fashion_input(ref, i))[0] for i in range(n)]
    got = [None] * n

    def work(i):
        got[i] = [session.run(None, fashion_input(ref, i))[0]
                  for _ in range(2)]

    ts = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for i in range(n):
        for y in got[i]:
            np.testing.assert_array_equal(y, want[i])


# ---- the C core's calls ----

def test_core_request_errors(session, ref):
    r = _vpux.Request(session._net)
    with pytest.raises(vpux.InvalidArgument) as e:
        r.write_input(0, b"123")
    assert str(e.value) == ("input 0 'input': 3 bytes, it takes 3136: "
                            "1x1x28x28 float")
    with pytest.raises(vpux.InvalidArgument) as e:
        r.write_input(1, b"123")
    assert str(e.value) == "write input: input 1 does not exist (1 inputs)"
    with pytest.raises(vpux.InvalidArgument) as e:
        r.read_output(0, bytearray(4))
    assert str(e.value) == ("output 0 'output': 4 bytes, it takes 40: "
                            "1x10 float")
    with pytest.raises(BufferError):
        r.read_output(0, bytes(40))          # not writable
    with pytest.raises(vpux.StateError) as e:
        r.wait()
    assert str(e.value) == "wait: request not submitted"
    with pytest.raises(vpux.InvalidArgument) as e:
        session._net.io_info(False, 3)
    assert str(e.value) == "io info: input 3 does not exist (1 inputs)"
    # any buffer, not only numpy: bytes in, a bytearray out
    r.write_input(0, ref["images"][0].tobytes())
    r.submit()
    st = r.wait()
    assert st["ops_done"] > 0 and st["device_cycles"] > 0
    out = bytearray(40)
    r.read_output(0, out)
    np.testing.assert_array_equal(
        np.frombuffer(out, np.float32).reshape(1, 10),
        session.run(None, fashion_input(ref, 0))[0])


def test_doc_example(monkeypatch, capsys):
    # Documentation/python.rst's example, as it stands there, prints what
    # the page says (in the source tree, in process)
    top = os.environ.get("VPUX_SRCTOP")
    if not top:
        pytest.skip("no source tree (VPUX_SRCTOP)")
    with open(os.path.join(top, "Documentation/python.rst")) as f:
        page = f.read()
    code = re.search(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", page)
    printed = re.search(r"prints [^\n]*\n[^\n]*::\n\n((?:   .*\n)+)", page)
    code = re.sub(r"^   ", "", code.group(1), flags=re.M)
    printed = re.sub(r"^   ", "", printed.group(1), flags=re.M)
    monkeypatch.chdir(top)
    monkeypatch.setattr(vpux, "_open_device",
                        lambda d, o=vpux._open_device: o("inproc"))
    exec(compile(code, "python.rst", "exec"), {})
    assert capsys.readouterr().out == printed

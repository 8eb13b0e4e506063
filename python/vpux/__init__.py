# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""vpux: run compiled networks on the vpux NPU from Python.

An onnxruntime-like surface over libvpux (Documentation/python.rst)::

    import numpy as np, vpux
    sess = vpux.InferenceSession("fashion.onnx")      # or a .vpux loadable
    x = sess.get_inputs()[0]
    logits, = sess.run(None, {x.name: np.zeros(x.shape, np.float32)})

numpy arrays go in and come out through the buffer protocol: an input is
converted (float32 to FP16 or quantized, as the loadable records) by
libvpux straight into the request's device buffer, an output straight
from it into the array that run() returns.
"""

import concurrent.futures
import os
import threading
import time

import numpy as np

from . import _vpux

__version__ = "@VERSION@"
__all__ = [
    "Error", "InferenceSession", "NodeArg", "DeviceInfo", "compile",
    "devices", "device_names", "__version__",
]

# ---- errors ----------------------------------------------------------------


class Error(Exception):
    """A libvpux error: ``code`` is its VPUX_E_* code (negative),
    ``message`` what libvpux said (vpux_last_error()). Each code has its
    subclass (``vpux.InvalidArgument`` for VPUX_E_INVAL, ...)."""

    code = None

    def __init__(self, message="", code=None):
        if code is not None:
            self.code = code
        self.message = message or (
            _vpux.strerror(self.code) if self.code is not None else "")
        super().__init__(self.message)


_ERROR_CLASSES = {}


def _error_class(name, code):
    cls = type(name, (Error,), {
        "code": code,
        "__doc__": "VPUX_E_*: %s (code %d)" % (_vpux.strerror(code), code),
        "__module__": __name__,
    })
    _ERROR_CLASSES[code] = cls
    __all__.append(name)
    return cls


InvalidArgument = _error_class("InvalidArgument", -1)       # VPUX_E_INVAL
OutOfMemory = _error_class("OutOfMemory", -2)               # VPUX_E_NOMEM
NoDevice = _error_class("NoDevice", -3)                     # VPUX_E_NODEV
IOFailure = _error_class("IOFailure", -4)                   # VPUX_E_IO
FormatError = _error_class("FormatError", -5)               # VPUX_E_FORMAT
VersionError = _error_class("VersionError", -6)             # VPUX_E_VERSION
RequiredSectionError = _error_class("RequiredSectionError", -7)  # _REQUIRED
ChecksumError = _error_class("ChecksumError", -8)           # VPUX_E_CHECKSUM
Unsupported = _error_class("Unsupported", -9)       # VPUX_E_UNSUPPORTED
Unbound = _error_class("Unbound", -10)                      # VPUX_E_UNBOUND
StateError = _error_class("StateError", -11)                # VPUX_E_STATE
Timeout = _error_class("Timeout", -12)                      # VPUX_E_TIMEOUT
DeviceError = _error_class("DeviceError", -13)              # VPUX_E_DEVICE
Busy = _error_class("Busy", -14)                            # VPUX_E_BUSY
PermissionDenied = _error_class("PermissionDenied", -15)    # VPUX_E_PERM


def _make_error(code, message):
    return _ERROR_CLASSES.get(code, Error)(message, code)


_vpux._set_error_factory(_make_error)

# ---- devices ---------------------------------------------------------------


class DeviceInfo:
    """One NPU as vpux_device_query() reports it.

    ``name`` is what ``InferenceSession(..., device=name)`` opens:
    "inproc" (the engine core and NPU model in this process) or a
    /dev/accel/accelN node of the vpux_accel kernel driver."""

    __slots__ = ("name", "backend", "target", "caps", "engines", "max_ops",
                 "max_barriers")

    def __init__(self, name, q):
        self.name = name
        self.backend = q["backend"]
        self.target = q["target"]
        self.caps = q["caps"]
        self.engines = dict(zip(("dma", "dpu", "shave"), q["engines"]))
        self.max_ops = q["max_ops"]
        self.max_barriers = q["max_barriers"]

    def __repr__(self):
        return "DeviceInfo(name=%r, backend=%r, engines=%r)" % (
            self.name, self.backend, self.engines)


def device_names():
    """The names vpux_device_open() may take for an NPU, from libvpux
    (vpux_device_count()/vpux_device_name()): the vpux_accel nodes of
    /dev/accel this process can open, in the order of N, then "inproc"."""
    return _vpux.device_names()


def devices():
    """Every NPU that opens: a list of DeviceInfo, kernel devices first.
    A node of another driver (or one the caller may not open) and an
    in-process device that cannot be made are left out."""
    found = []
    for name in device_names():
        try:
            found.append(DeviceInfo(name, _vpux.Device(name).query()))
        except Error:
            continue
    return found


def _open_device(device):
    if device is None:
        try:
            return _vpux.Device("auto")
        except NoDevice:
            return _vpux.Device("inproc")
    if isinstance(device, DeviceInfo):
        device = device.name
    if not isinstance(device, str):
        raise TypeError("device must be a name (str), a DeviceInfo or None,"
                        " not %s" % type(device).__name__)
    return _vpux.Device(device)

# ---- compiling -------------------------------------------------------------

_ELF_MAGIC = b"\x7fELF"


def compile(onnx, *, no_cmx=False):
    """Compile an ONNX model (a path or its bytes) for the NPU, whole:
    return the loadable's bytes. A model the NPU cannot run whole raises
    vpux.Unsupported naming every node it does not take."""
    from . import _compiler
    if isinstance(onnx, os.PathLike):
        onnx = os.fspath(onnx)
    if isinstance(onnx, bytes):
        pass
    elif isinstance(onnx, str):
        pass
    else:
        try:
            onnx = memoryview(onnx)
        except TypeError:
            raise TypeError("compile() takes a path or bytes, not %s"
                            % type(onnx).__name__) from None
    r = _compiler.compile(onnx, no_cmx=bool(no_cmx))
    if isinstance(r, tuple):
        raise _make_error(*r)
    return r

# ---- sessions --------------------------------------------------------------


# enum vpux_data_type -> (numpy dtype, ONNX type string)
_TYPES = {
    _vpux.DT_U8: (np.uint8, "tensor(uint8)"),
    _vpux.DT_I8: (np.int8, "tensor(int8)"),
    _vpux.DT_I32: (np.int32, "tensor(int32)"),
    _vpux.DT_F16: (np.float16, "tensor(float16)"),
    _vpux.DT_F32: (np.float32, "tensor(float)"),
    _vpux.DT_I64: (np.int64, "tensor(int64)"),
}


class NodeArg:
    """An input or output as the application sees it (onnxruntime's
    NodeArg): ``name``, ``shape`` (a list of ints, outermost first) and
    ``type`` ("tensor(float)", ...), the host side that run() takes and
    gives; ``dtype`` is its numpy dtype."""

    __slots__ = ("name", "shape", "type", "dtype", "index")

    def __init__(self, index, info):
        self.index = index
        self.name = info["name"]
        self.shape = list(info["dims"])
        self.dtype, self.type = _TYPES[info["host_type"]]
        self.dtype = np.dtype(self.dtype)

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (
            self.name, self.type, self.shape)


class InferenceSession:
    """A network loaded on a device, ready to run.

    ``path_or_bytes``: a loadable (a path, or bytes starting with the
    ELF magic) or an ONNX model (a path ending in ".onnx", or its bytes),
    which is compiled first (compile()). ``device``: a name from
    devices() ("inproc", "/dev/accel/accel0", "auto"), a DeviceInfo, or
    None for the first kernel device, else in process.

    run() and run_async() may be called from several threads at once:
    each call takes a request of its own (kept for reuse)."""

    def __init__(self, path_or_bytes, device=None):
        src = path_or_bytes
        if isinstance(src, os.PathLike):
            src = os.fspath(src)
        if isinstance(src, str):
            if src.lower().endswith(".onnx"):
                src = compile(src)
        elif isinstance(src, (bytes, bytearray, memoryview)):
            if bytes(memoryview(src)[:4]) != _ELF_MAGIC:
                src = compile(src)
        else:
            raise TypeError("InferenceSession() takes a path or bytes, not %s"
                            % type(src).__name__)
        self._device = _open_device(device)
        self._net = _vpux.Network(self._device, src)
        q = self._net.query()
        self._inputs = [NodeArg(i, self._net.io_info(False, i))
                        for i in range(q["num_inputs"])]
        self._outputs = [NodeArg(i, self._net.io_info(True, i))
                         for i in range(q["num_outputs"])]
        self._by_in = {a.name: a for a in self._inputs}
        self._by_out = {a.name: a for a in self._outputs}
        self._idle = []
        self._lock = threading.Lock()
        self._meta = q

    # -- what the network is --
    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_device(self):
        """The device's name, as opened."""
        return self._device.name

    def get_modelmeta(self):
        """vpux_network_query(): name, version, ops, memory."""
        return dict(self._meta)

    # -- running --
    def _outputs_of(self, output_names):
        if output_names is None:
            return list(self._outputs)
        if isinstance(output_names, str):
            raise TypeError("output_names must be a list of names or None")
        outs = []
        for n in output_names:
            a = self._by_out.get(n)
            if a is None:
                raise InvalidArgument(
                    "no output named %r (outputs: %s)" % (
                        n, ", ".join(o.name for o in self._outputs)))
            outs.append(a)
        return outs

    def _arrays_of(self, input_feed):
        if not isinstance(input_feed, dict):
            raise TypeError("input_feed must be a dict {name: array}")
        for n in input_feed:
            if n not in self._by_in:
                raise InvalidArgument(
                    "no input named %r (inputs: %s)" % (
                        n, ", ".join(i.name for i in self._inputs)))
        arrays = []
        for a in self._inputs:
            if a.name not in input_feed:
                raise InvalidArgument(
                    "input %r not given" % a.name)
            x = np.asarray(input_feed[a.name])
            if x.dtype != a.dtype:
                raise InvalidArgument(
                    "input %r: %s given, the network takes %s (%s)" % (
                        a.name, x.dtype, a.dtype, a.type))
            if list(x.shape) != a.shape:
                raise InvalidArgument(
                    "input %r: shape %s given, the network takes %s" % (
                        a.name, list(x.shape), a.shape))
            # no copy when the array is already C-contiguous
            arrays.append(np.ascontiguousarray(x))
        return arrays

    def _get_request(self):
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return _vpux.Request(self._net)

    def _put_request(self, req):
        with self._lock:
            self._idle.append(req)

    def _start(self, req, arrays):
        for a, x in zip(self._inputs, arrays):
            req.write_input(a.index, x)

    @staticmethod
    def _submit(req):
        # A network using the on-chip memory (CMX) gets VPUX_E_BUSY while
        # another such request runs on the device: wait for it to finish.
        delay = 50e-6
        while True:
            try:
                req.submit()
                return
            except Busy:
                time.sleep(delay)
                delay = min(delay * 2, 2e-3)

    def _finish(self, req, outs):
        req.wait()
        res = []
        for a in outs:
            y = np.empty(a.shape, a.dtype)
            req.read_output(a.index, y)
            res.append(y)
        return res

    def run(self, output_names, input_feed, run_options=None):
        """Run once: ``output_names`` (None: every output) in order, as
        numpy arrays. ``input_feed``: {name: array} for every input, of
        the input's dtype and shape. ``run_options`` is accepted for
        onnxruntime's signature and must be None."""
        if run_options is not None:
            raise InvalidArgument("run_options is not supported")
        outs = self._outputs_of(output_names)
        arrays = self._arrays_of(input_feed)
        req = self._get_request()
        try:
            self._start(req, arrays)
            self._submit(req)
            return self._finish(req, outs)
        finally:
            self._put_request(req)

    def run_async(self, output_names, input_feed):
        """run() without waiting: returns a concurrent.futures.Future
        whose result() is run()'s list. The inputs are copied into the
        request's buffers before run_async() returns; errors in the
        arguments raise at once, the device's in result()."""
        outs = self._outputs_of(output_names)
        arrays = self._arrays_of(input_feed)
        req = self._get_request()
        try:
            self._start(req, arrays)
        except BaseException:
            self._put_request(req)
            raise
        fut = concurrent.futures.Future()
        fut.set_running_or_notify_cancel()

        def complete():
            try:
                self._submit(req)
                fut.set_result(self._finish(req, outs))
            except BaseException as e:  # delivered through the future
                fut.set_exception(e)
            finally:
                self._put_request(req)

        threading.Thread(target=complete, name="vpux-run_async",
                         daemon=True).start()
        return fut

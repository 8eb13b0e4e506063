// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux._vpux: the Python module's C core over libvpux (libvpux.so.1).
 *
 * Three types mirror libvpux's objects: Device (vpux_device_open),
 * Network (vpux_network_load) and Request (a request with a device
 * buffer bound to every input and output). Host data goes in and out
 * through the buffer protocol: Request.write_input() hands the caller's
 * buffer (a C-contiguous numpy array) to vpux_request_write_input(),
 * which converts it straight into the request's mapped input buffer, and
 * Request.read_output() has vpux_request_read_output() convert the
 * output buffer straight into the caller's array. No other copy is made.
 * The module does not use numpy's C API: vpux/__init__.py makes the
 * arrays.
 *
 * Every libvpux error becomes the exception that the factory registered
 * by vpux/__init__.py (_set_error_factory) makes from the code and
 * vpux_last_error()'s message. The GIL is released around every call
 * that converts data or waits for the device.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <string.h>
#include <vpux.h>

static PyObject *error_factory;	/* callable(code, message) -> exception */

/* raise the exception of libvpux code @code with the message @msg */
static PyObject *raise_code(int code, const char *msg)
{
	PyObject *exc;

	if (!msg || !*msg)
		msg = vpux_strerror(code);
	if (!error_factory) {
		PyErr_Format(PyExc_RuntimeError, "vpux error %d: %s", code, msg);
		return NULL;
	}
	exc = PyObject_CallFunction(error_factory, "is", code, msg);
	if (!exc)
		return NULL;
	PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
	Py_DECREF(exc);
	return NULL;
}

/* raise for a failed libvpux call in this thread (its last error) */
static PyObject *raise_vpux(int code)
{
	return raise_code(code, vpux_last_error());
}

/* ---- Device ---- */

typedef struct {
	PyObject_HEAD
	struct vpux_device *dev;
	PyObject *name;
} DeviceObject;

static int Device_init(DeviceObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "name", NULL };
	const char *name = "inproc";
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|s", kwlist, &name))
		return -1;
	if (self->dev) {
		PyErr_SetString(PyExc_RuntimeError, "Device already opened");
		return -1;
	}
	Py_BEGIN_ALLOW_THREADS
	ret = vpux_device_open(name, &self->dev);
	Py_END_ALLOW_THREADS
	if (ret) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", vpux_last_error());
		self->dev = NULL;
		raise_code(ret, msg);
		return -1;
	}
	self->name = PyUnicode_FromString(name);
	return self->name ? 0 : -1;
}

static void Device_dealloc(DeviceObject *self)
{
	if (self->dev)
		vpux_device_close(self->dev);
	Py_XDECREF(self->name);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Device_query(DeviceObject *self, PyObject *unused)
{
	struct vpux_device_info info;
	int ret;

	(void)unused;
	ret = vpux_device_query(self->dev, &info);
	if (ret)
		return raise_vpux(ret);
	return Py_BuildValue("{s:s,s:I,s:K,s:(III),s:I,s:I}",
			     "backend", info.backend, "target", info.target,
			     "caps", (unsigned long long)info.caps, "engines",
			     info.engines[0], info.engines[1], info.engines[2],
			     "max_ops", info.max_ops, "max_barriers",
			     info.max_barriers);
}

static PyMethodDef Device_methods[] = {
	{ "query", (PyCFunction)Device_query, METH_NOARGS,
	  "query() -> dict: vpux_device_query()'s backend, target, caps, "
	  "engines (DMA, DPU, SHAVE), max_ops, max_barriers" },
	{ NULL }
};

static PyMemberDef Device_members[] = {
	{ "name", T_OBJECT, offsetof(DeviceObject, name), READONLY,
	  "the name it was opened with" },
	{ NULL }
};

static PyTypeObject DeviceType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "vpux._vpux.Device",
	.tp_doc = "Device(name='inproc'): vpux_device_open(name)",
	.tp_basicsize = sizeof(DeviceObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Device_init,
	.tp_dealloc = (destructor)Device_dealloc,
	.tp_methods = Device_methods,
	.tp_members = Device_members,
};

/* ---- Network ---- */

typedef struct {
	PyObject_HEAD
	DeviceObject *device;
	struct vpux_network *net;
} NetworkObject;

/*
 * Network(device, data): @data a bytes-like loadable, or a str path
 * (vpux_network_load_file)
 */
static int Network_init(NetworkObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "device", "data", NULL };
	PyObject *devobj, *data;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O", kwlist, &DeviceType,
					 &devobj, &data))
		return -1;
	if (self->net) {
		PyErr_SetString(PyExc_RuntimeError, "Network already loaded");
		return -1;
	}
	if (PyUnicode_Check(data)) {
		PyObject *bytes;

		if (!PyUnicode_FSConverter(data, &bytes))
			return -1;
		Py_BEGIN_ALLOW_THREADS
		ret = vpux_network_load_file(((DeviceObject *)devobj)->dev,
					     PyBytes_AS_STRING(bytes), &self->net);
		Py_END_ALLOW_THREADS
		Py_DECREF(bytes);
	} else {
		Py_buffer view;

		if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE))
			return -1;
		Py_BEGIN_ALLOW_THREADS
		ret = vpux_network_load(((DeviceObject *)devobj)->dev, view.buf,
					(size_t)view.len, &self->net);
		Py_END_ALLOW_THREADS
		PyBuffer_Release(&view);
	}
	if (ret) {
		self->net = NULL;
		raise_vpux(ret);
		return -1;
	}
	Py_INCREF(devobj);
	self->device = (DeviceObject *)devobj;
	return 0;
}

static void Network_dealloc(NetworkObject *self)
{
	if (self->net)
		vpux_network_unload(self->net);
	Py_XDECREF(self->device);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int network_ok(NetworkObject *self)
{
	if (self->net)
		return 1;
	PyErr_SetString(PyExc_RuntimeError, "Network not loaded");
	return 0;
}

/* io_info(is_output, i) -> dict of vpux_network_io_info() */
static PyObject *Network_io_info(NetworkObject *self, PyObject *args)
{
	struct vpux_io_info v = { .size = sizeof(v) };
	PyObject *dims;
	int is_output, ret;
	unsigned int i, k;

	if (!network_ok(self) || !PyArg_ParseTuple(args, "pI", &is_output, &i))
		return NULL;
	ret = vpux_network_io_info(self->net, is_output, i, &v);
	if (ret)
		return raise_vpux(ret);
	dims = PyTuple_New(v.rank);
	if (!dims)
		return NULL;
	for (k = 0; k < v.rank; k++)
		PyTuple_SET_ITEM(dims, k, PyLong_FromUnsignedLongLong(v.dims[k]));
	return Py_BuildValue("{s:s,s:I,s:I,s:I,s:N,s:K}", "name", v.name,
			     "flags", v.flags, "host_type", v.host_type,
			     "data_type", v.data_type, "dims", dims,
			     "host_size", (unsigned long long)v.host_size);
}

static PyObject *Network_query(NetworkObject *self, PyObject *unused)
{
	struct vpux_network_info n;
	int ret;

	(void)unused;
	if (!network_ok(self))
		return NULL;
	ret = vpux_network_query(self->net, &n);
	if (ret)
		return raise_vpux(ret);
	return Py_BuildValue("{s:s,s:(II),s:I,s:I,s:(III),s:I,s:I,s:K,s:K}",
			     "name", n.name, "version", n.version_major,
			     n.version_minor, "num_inputs", n.num_inputs,
			     "num_outputs", n.num_outputs, "num_ops",
			     n.num_ops[0], n.num_ops[1], n.num_ops[2],
			     "num_barriers", n.num_barriers, "num_symbols",
			     n.num_symbols, "weights_bytes",
			     (unsigned long long)n.weights_bytes,
			     "request_bytes",
			     (unsigned long long)n.request_bytes);
}

static PyMethodDef Network_methods[] = {
	{ "io_info", (PyCFunction)Network_io_info, METH_VARARGS,
	  "io_info(is_output, i) -> dict: vpux_network_io_info()" },
	{ "query", (PyCFunction)Network_query, METH_NOARGS,
	  "query() -> dict: vpux_network_query()" },
	{ NULL }
};

static PyMemberDef Network_members[] = {
	{ "device", T_OBJECT, offsetof(NetworkObject, device), READONLY,
	  "the Device" },
	{ NULL }
};

static PyTypeObject NetworkType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "vpux._vpux.Network",
	.tp_doc = "Network(device, data): vpux_network_load() of a bytes-like "
		  "loadable, or vpux_network_load_file() of a str path",
	.tp_basicsize = sizeof(NetworkObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Network_init,
	.tp_dealloc = (destructor)Network_dealloc,
	.tp_methods = Network_methods,
	.tp_members = Network_members,
};

/* ---- Request ---- */

typedef struct {
	PyObject_HEAD
	NetworkObject *network;
	struct vpux_request *req;
	struct vpux_buffer **bufs;	/* inputs, then outputs */
	unsigned int nbufs;
	int inuse;	/* a call without the GIL is under way */
} RequestObject;

static void request_free(RequestObject *self)
{
	unsigned int i;

	if (self->req)
		vpux_request_destroy(self->req);
	self->req = NULL;
	for (i = 0; i < self->nbufs; i++)
		if (self->bufs[i])
			vpux_buffer_free(self->bufs[i]);
	PyMem_Free(self->bufs);
	self->bufs = NULL;
	self->nbufs = 0;
}

/* Request(network): a request, a zeroed device buffer bound to each IO */
static int Request_init(RequestObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "network", NULL };
	struct vpux_network *net;
	struct vpux_device *dev;
	PyObject *netobj;
	unsigned int nin, nout, i;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwlist, &NetworkType,
					 &netobj))
		return -1;
	if (self->req) {
		PyErr_SetString(PyExc_RuntimeError, "Request already created");
		return -1;
	}
	if (!network_ok((NetworkObject *)netobj))
		return -1;
	net = ((NetworkObject *)netobj)->net;
	dev = ((NetworkObject *)netobj)->device->dev;
	nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	self->bufs = PyMem_Calloc(nin + nout ? nin + nout : 1,
				  sizeof(*self->bufs));
	if (!self->bufs) {
		PyErr_NoMemory();
		return -1;
	}
	self->nbufs = nin + nout;
	ret = vpux_request_create(net, &self->req);
	if (ret)
		self->req = NULL;
	for (i = 0; !ret && i < nin + nout; i++) {
		struct vpux_tensor_desc d;
		int is_out = i >= nin;
		unsigned int k = is_out ? i - nin : i;

		ret = is_out ? vpux_network_output(net, k, &d) :
			       vpux_network_input(net, k, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &self->bufs[i]);
		if (ret)
			break;
		ret = is_out ? vpux_request_bind_output(self->req, k,
							self->bufs[i], 0) :
			       vpux_request_bind_input(self->req, k,
						       self->bufs[i], 0);
	}
	if (ret) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", vpux_last_error());
		request_free(self);
		raise_code(ret, msg);
		return -1;
	}
	Py_INCREF(netobj);
	self->network = (NetworkObject *)netobj;
	return 0;
}

static void Request_dealloc(RequestObject *self)
{
	request_free(self);
	Py_XDECREF(self->network);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

/* the request exists and no other thread is inside a call on it */
static int request_enter(RequestObject *self)
{
	if (!self->req) {
		PyErr_SetString(PyExc_RuntimeError, "Request not created");
		return 0;
	}
	if (self->inuse) {
		raise_code(VPUX_E_STATE,
			   "the request is in use by another thread");
		return 0;
	}
	self->inuse = 1;
	return 1;
}

/*
 * request_io() - write_input(i, data) or read_output(i, out): libvpux's
 * conversion between @data, a C-contiguous buffer of exactly the
 * tensor's host_size bytes (writable for an output), and the request's
 * device buffer, without the GIL
 */
static PyObject *request_io(RequestObject *self, PyObject *args, int output)
{
	unsigned int i;
	PyObject *data;
	Py_buffer view;
	int ret;

	if (!PyArg_ParseTuple(args, "IO", &i, &data))
		return NULL;
	if (PyObject_GetBuffer(data, &view, PyBUF_C_CONTIGUOUS |
			       (output ? PyBUF_WRITABLE : 0)))
		return NULL;
	if (!request_enter(self)) {
		PyBuffer_Release(&view);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	if (output)
		ret = vpux_request_read_output(self->req, i, view.buf,
					       (size_t)view.len);
	else
		ret = vpux_request_write_input(self->req, i, view.buf,
					       (size_t)view.len);
	Py_END_ALLOW_THREADS
	self->inuse = 0;
	PyBuffer_Release(&view);
	if (ret)
		return raise_vpux(ret);
	Py_RETURN_NONE;
}

static PyObject *Request_write_input(RequestObject *self, PyObject *args)
{
	return request_io(self, args, 0);
}

static PyObject *Request_read_output(RequestObject *self, PyObject *args)
{
	return request_io(self, args, 1);
}

static PyObject *Request_submit(RequestObject *self, PyObject *unused)
{
	int ret;

	(void)unused;
	if (!request_enter(self))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = vpux_request_submit(self->req);
	Py_END_ALLOW_THREADS
	self->inuse = 0;
	if (ret)
		return raise_vpux(ret);
	Py_RETURN_NONE;
}

/*
 * wait(timeout_ms=-1): vpux_request_wait(), then the status: a request
 * the device failed raises DeviceError with the failing op
 */
static PyObject *Request_wait(RequestObject *self, PyObject *args)
{
	struct vpux_request_status st;
	int timeout_ms = -1, ret;

	if (!PyArg_ParseTuple(args, "|i", &timeout_ms))
		return NULL;
	if (!request_enter(self))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = vpux_request_wait(self->req, timeout_ms);
	Py_END_ALLOW_THREADS
	self->inuse = 0;
	if (ret)
		return raise_vpux(ret);
	ret = vpux_request_status(self->req, &st);
	if (ret)
		return raise_vpux(ret);
	if (st.state == VPUX_REQ_FAILED) {
		char msg[256];

		snprintf(msg, sizeof(msg),
			 "the device failed the request: error %d at op %u of engine kind %u",
			 st.error, st.fail_index, st.fail_kind);
		return raise_code(VPUX_E_DEVICE, msg);
	}
	return Py_BuildValue("{s:K,s:K,s:L,s:I}", "device_cycles",
			     (unsigned long long)st.device_cycles, "op_cycles",
			     (unsigned long long)st.op_cycles, "time_us",
			     (long long)st.time_us, "ops_done", st.ops_done);
}

static PyMethodDef Request_methods[] = {
	{ "write_input", (PyCFunction)Request_write_input, METH_VARARGS,
	  "write_input(i, data): vpux_request_write_input() from a "
	  "C-contiguous buffer" },
	{ "read_output", (PyCFunction)Request_read_output, METH_VARARGS,
	  "read_output(i, out): vpux_request_read_output() into a writable "
	  "C-contiguous buffer" },
	{ "submit", (PyCFunction)Request_submit, METH_NOARGS,
	  "submit(): vpux_request_submit()" },
	{ "wait", (PyCFunction)Request_wait, METH_VARARGS,
	  "wait(timeout_ms=-1) -> dict: vpux_request_wait(), then the status "
	  "(device_cycles, op_cycles, time_us, ops_done)" },
	{ NULL }
};

static PyTypeObject RequestType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "vpux._vpux.Request",
	.tp_doc = "Request(network): a request with a device buffer bound to "
		  "every input and output",
	.tp_basicsize = sizeof(RequestObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Request_init,
	.tp_dealloc = (destructor)Request_dealloc,
	.tp_methods = Request_methods,
};

/* ---- module functions ---- */

static PyObject *mod_set_error_factory(PyObject *mod, PyObject *f)
{
	(void)mod;
	if (!PyCallable_Check(f)) {
		PyErr_SetString(PyExc_TypeError, "the factory must be callable");
		return NULL;
	}
	Py_INCREF(f);
	Py_XSETREF(error_factory, f);
	Py_RETURN_NONE;
}

static PyObject *mod_strerror(PyObject *mod, PyObject *args)
{
	int code;

	(void)mod;
	if (!PyArg_ParseTuple(args, "i", &code))
		return NULL;
	return PyUnicode_FromString(vpux_strerror(code));
}

static PyObject *mod_device_names(PyObject *mod, PyObject *unused)
{
	unsigned int n, i;
	PyObject *list;
	char name[256];
	int ret;

	(void)mod;
	(void)unused;
	ret = vpux_device_count(&n);
	if (ret)
		return raise_vpux(ret);
	list = PyList_New(0);
	if (!list)
		return NULL;
	for (i = 0; i < n; i++) {
		PyObject *s;

		ret = vpux_device_name(i, name, sizeof(name));
		if (ret) {
			Py_DECREF(list);
			return raise_vpux(ret);
		}
		s = PyUnicode_DecodeFSDefault(name);
		if (!s || PyList_Append(list, s)) {
			Py_XDECREF(s);
			Py_DECREF(list);
			return NULL;
		}
		Py_DECREF(s);
	}
	return list;
}

static PyMethodDef module_methods[] = {
	{ "device_names", mod_device_names, METH_NOARGS,
	  "device_names() -> [str]: vpux_device_count()/vpux_device_name(): "
	  "the vpux /dev/accel nodes this process can open, then 'inproc'" },
	{ "_set_error_factory", mod_set_error_factory, METH_O,
	  "_set_error_factory(f): f(code, message) makes the exceptions" },
	{ "strerror", mod_strerror, METH_VARARGS,
	  "strerror(code) -> str: vpux_strerror()" },
	{ NULL }
};

static struct PyModuleDef vpux_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "vpux._vpux",
	.m_doc = "the C core of the vpux module, over libvpux",
	.m_size = -1,
	.m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__vpux(void)
{
	static const struct { const char *name; long value; } consts[] = {
		{ "API_VERSION_MAJOR", VPUX_API_VERSION_MAJOR },
		{ "API_VERSION_MINOR", VPUX_API_VERSION_MINOR },
		{ "DT_U8", VPUX_DT_U8 }, { "DT_I8", VPUX_DT_I8 },
		{ "DT_I32", VPUX_DT_I32 }, { "DT_F16", VPUX_DT_F16 },
		{ "DT_F32", VPUX_DT_F32 }, { "DT_I64", VPUX_DT_I64 },
		{ "IO_CONVERT", VPUX_IO_CONVERT }, { "IO_ONNX", VPUX_IO_ONNX },
		{ "IO_NO_VIEW", VPUX_IO_NO_VIEW },
	};
	PyObject *m;
	size_t i;

	if (PyType_Ready(&DeviceType) || PyType_Ready(&NetworkType) ||
	    PyType_Ready(&RequestType))
		return NULL;
	m = PyModule_Create(&vpux_module);
	if (!m)
		return NULL;
	Py_INCREF(&DeviceType);
	Py_INCREF(&NetworkType);
	Py_INCREF(&RequestType);
	if (PyModule_AddStringConstant(m, "VERSION", VPUX_VERSION) ||
	    PyModule_AddObject(m, "Device", (PyObject *)&DeviceType) ||
	    PyModule_AddObject(m, "Network", (PyObject *)&NetworkType) ||
	    PyModule_AddObject(m, "Request", (PyObject *)&RequestType))
		goto fail;
	for (i = 0; i < sizeof(consts) / sizeof(consts[0]); i++)
		if (PyModule_AddIntConstant(m, consts[i].name, consts[i].value))
			goto fail;
	return m;
fail:
	Py_DECREF(m);
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux._compiler: vpux.compile()'s C part, the ONNX compiler
 * (compiler/, vpux_compiler.h) as vpux-onnx compile drives it: import the
 * model, compile it whole for the NPU, give the loadable's bytes.
 *
 * The compiler is not an installed library: it is linked in, with the
 * libvpux objects it uses, and only PyInit__compiler is exported, so its
 * copy of libvpux's state (the thread's last error) is its own. On
 * failure compile() returns (code, message) instead of raising: vpux's
 * __init__.py turns that into its exception, the same classes the core
 * module raises.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <vpux.h>
#include <vpux_compiler.h>

/*
 * compile(source, no_cmx=False) -> bytes, or (code, message) on failure;
 * @source a str path of an ONNX model or its bytes
 */
static PyObject *mod_compile(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "source", "no_cmx", NULL };
	struct vpuxc_options o = { 0 };
	struct vpuxc_result r = { 0 };
	struct vpuxc_model *m = NULL;
	PyObject *src, *res;
	int no_cmx = 0, ret;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p", kwlist, &src, &no_cmx))
		return NULL;
	o.no_cmx = no_cmx;
	o.no_cpu_fallback = 1;
	if (PyUnicode_Check(src)) {
		PyObject *path;

		if (!PyUnicode_FSConverter(src, &path))
			return NULL;
		Py_BEGIN_ALLOW_THREADS
		ret = vpuxc_import_file(PyBytes_AS_STRING(path), &m);
		if (!ret)
			ret = vpuxc_compile(m, &o, &r);
		Py_END_ALLOW_THREADS
		Py_DECREF(path);
	} else {
		Py_buffer view;

		if (PyObject_GetBuffer(src, &view, PyBUF_SIMPLE))
			return NULL;
		Py_BEGIN_ALLOW_THREADS
		ret = vpuxc_import_mem(view.buf, (size_t)view.len, &m);
		if (!ret)
			ret = vpuxc_compile(m, &o, &r);
		Py_END_ALLOW_THREADS
		PyBuffer_Release(&view);
	}
	if (ret) {
		res = Py_BuildValue("(is)", ret, vpux_last_error());
	} else {
		res = PyBytes_FromStringAndSize(r.loadable, (Py_ssize_t)r.size);
	}
	vpuxc_result_fini(&r);
	if (m)
		vpuxc_model_free(m);
	return res;
}

static PyMethodDef module_methods[] = {
	{ "compile", (PyCFunction)(void (*)(void))mod_compile,
	  METH_VARARGS | METH_KEYWORDS,
	  "compile(source, no_cmx=False) -> bytes or (code, message)" },
	{ NULL }
};

static struct PyModuleDef compiler_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "vpux._compiler",
	.m_doc = "the ONNX compiler behind vpux.compile()",
	.m_size = -1,
	.m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__compiler(void)
{
	return PyModule_Create(&compiler_module);
}

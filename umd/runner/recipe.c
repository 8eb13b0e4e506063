// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Run recipes: JSON (json-c) into struct recipe, checking what the JSON
 * Schema (Documentation/run-recipes.schema.json) says and every rule it
 * cannot express that needs no loadable and no library: unique names,
 * references to resources, one value per argidx, a sub-buffer inside a
 * sized parent, offsets aligned, internal buffers sized, no constants for
 * an NPU kernel. Messages start with the JSON path of what is wrong.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "err.h"
#include "recipe.h"

#define PATH_LEN 96

static const char *const buf_types[] = {
	[RECIPE_BUF_INPUT] = "input",
	[RECIPE_BUF_OUTPUT] = "output",
	[RECIPE_BUF_INTERNAL] = "internal",
	[RECIPE_BUF_WEIGHT] = "weight",
	[RECIPE_BUF_SPILL] = "spill",
	[RECIPE_BUF_UNKNOWN] = "unknown",
};

const char *recipe_buf_type_name(unsigned int type)
{
	return type < sizeof(buf_types) / sizeof(buf_types[0]) ?
	       buf_types[type] : "?";
}

static int __attribute__((format(printf, 2, 3)))
ferr(const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vpux_err(VPUX_E_FORMAT, "%s: %s", path, msg);
}

static const char *jtype(const struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

/* every key of object @o is one of the NULL-terminated @keys */
static int only_keys(struct json_object *o, const char *path,
		     const char *const *keys)
{
	json_object_object_foreach(o, key, val) {
		const char *const *k;

		(void)val;
		for (k = keys; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (!*k)
			return ferr(path, "unknown member \"%.40s\"", key);
	}
	return 0;
}

static int get_obj(struct json_object *parent, const char *key,
		   const char *path, int required, struct json_object **out)
{
	*out = NULL;
	if (!json_object_object_get_ex(parent, key, out) || !*out) {
		if (required)
			return ferr(path, "missing member \"%s\"", key);
		*out = NULL;
		return 0;
	}
	return 0;
}

/* a non-empty string member into a malloc'd copy */
static int get_str(struct json_object *parent, const char *key,
		   const char *ppath, int required, char **out)
{
	struct json_object *o;
	char path[PATH_LEN];
	const char *s;
	int ret = get_obj(parent, key, ppath, required, &o);

	*out = NULL;
	if (ret || !o)
		return ret;
	snprintf(path, sizeof(path), "%s.%s", ppath, key);
	if (!json_object_is_type(o, json_type_string))
		return ferr(path, "must be a string, not %s", jtype(o));
	s = json_object_get_string(o);
	if (!*s)
		return ferr(path, "must not be empty");
	if (strlen(s) != (size_t)json_object_get_string_len(o))
		return ferr(path, "contains a NUL character");
	*out = strdup(s);
	return *out ? 0 : vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
}

/* an integer member in @min..@max; *@present says if it was there */
static int get_int(struct json_object *parent, const char *key,
		   const char *ppath, int required, int64_t min, int64_t max,
		   int64_t *out, int *present)
{
	struct json_object *o;
	char path[PATH_LEN];
	int64_t v;
	int ret = get_obj(parent, key, ppath, required, &o);

	if (present)
		*present = 0;
	if (ret || !o)
		return ret;
	snprintf(path, sizeof(path), "%s.%s", ppath, key);
	if (!json_object_is_type(o, json_type_int))
		return ferr(path, "must be an integer, not %s", jtype(o));
	errno = 0;
	v = json_object_get_int64(o);
	if (errno || v < min || v > max ||
	    (v == INT64_MAX && json_object_get_uint64(o) > (uint64_t)INT64_MAX))
		return ferr(path, "%s outside %lld..%lld",
			    json_object_to_json_string(o), (long long)min,
			    (long long)max);
	*out = v;
	if (present)
		*present = 1;
	return 0;
}

static int get_array(struct json_object *parent, const char *key,
		     const char *ppath, int required,
		     struct json_object **out, size_t *n)
{
	char path[PATH_LEN];
	int ret = get_obj(parent, key, ppath, required, out);

	*n = 0;
	if (ret || !*out)
		return ret;
	snprintf(path, sizeof(path), "%s.%s", ppath, key);
	if (!json_object_is_type(*out, json_type_array))
		return ferr(path, "must be an array, not %s", jtype(*out));
	*n = json_object_array_length(*out);
	if (*n > 65536)
		return ferr(path, "%zu entries, at most 65536", *n);
	return 0;
}

static int is_object(struct json_object *o, const char *path)
{
	if (!json_object_is_type(o, json_type_object))
		return ferr(path, "must be an object, not %s", jtype(o));
	return 0;
}

/* "MAJOR.MINOR", each 1..4 decimal digits */
static int parse_version(const char *s, unsigned int *maj, unsigned int *min)
{
	unsigned int v[2] = { 0, 0 }, k = 0, digits = 0;

	for (; *s; s++) {
		if (*s == '.' && !k && digits) {
			k = 1;
			digits = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || ++digits > 4)
			return -1;
		v[k] = v[k] * 10 + (unsigned int)(*s - '0');
	}
	if (!k || !digits)
		return -1;
	*maj = v[0];
	*min = v[1];
	return 0;
}

/* the header may carry other metadata: unknown members are ignored */
static int parse_header(struct recipe *r, struct json_object *root)
{
	struct json_object *h;
	char *ver = NULL;
	unsigned int maj, min;
	int ret;

	ret = get_obj(root, "header", "recipe", 1, &h);
	if (!ret)
		ret = is_object(h, "header");
	if (!ret)
		ret = get_str(h, "target", "header", 1, &r->target);
	if (!ret)
		ret = get_str(h, "version", "header", 1, &ver);
	if (ret)
		goto out;
	if (strcmp(r->target, "vpux1")) {
		ret = ferr("header.target", "\"%.40s\" is not a target this library knows (vpux1)",
			   r->target);
		goto out;
	}
	if (parse_version(ver, &maj, &min)) {
		ret = ferr("header.version", "\"%.40s\" is not MAJOR.MINOR", ver);
		goto out;
	}
	if (maj != RECIPE_VERSION_MAJOR) {
		ret = vpux_err(VPUX_E_VERSION,
			       "header.version: recipe format %u.%u, this library reads %d.x",
			       maj, min, RECIPE_VERSION_MAJOR);
		goto out;
	}
	r->version_major = maj;
	r->version_minor = min;
out:
	free(ver);
	return ret;
}

static int find_buffer(const struct recipe *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->num_buffers; i++)
		if (!strcmp(r->buffers[i].name, name))
			return (int)i;
	return -1;
}

/*
 * A buffer's "data": { "file", "offset", "dtype", "shape" }. The file is
 * a path relative to the recipe's directory that stays inside it (not
 * absolute, no ".." component); dtype and shape must make the buffer's
 * size. The runner checks the file itself when it loads it.
 */
static int parse_data(struct recipe_buffer *b, struct json_object *o,
		      const char *bpath)
{
	static const char *const keys[] = { "file", "offset", "dtype", "shape",
					    NULL };
	static const struct { const char *name; unsigned int size; } dts[] = {
		{ "float32", 4 }, { "float16", 2 }, { "int8", 1 },
		{ "uint8", 1 }, { "int32", 4 }, { "int64", 8 },
	};
	struct json_object *d, *shape;
	char path[PATH_LEN + 8], spath[PATH_LEN + 16], *dtype = NULL;
	const char *f, *c;
	uint64_t bytes;
	int64_t off = 0;
	size_t n, i;
	unsigned int k;
	int ret;

	ret = get_obj(o, "data", bpath, 0, &d);
	if (ret || !d)
		return ret;
	snprintf(path, sizeof(path), "%s.data", bpath);
	ret = is_object(d, path);
	if (!ret)
		ret = only_keys(d, path, keys);
	if (!ret)
		ret = get_str(d, "file", path, 1, &b->file);
	if (!ret)
		ret = get_int(d, "offset", path, 0, 0, (int64_t)1 << 40, &off, NULL);
	if (!ret)
		ret = get_str(d, "dtype", path, 1, &dtype);
	if (!ret)
		ret = get_array(d, "shape", path, 1, &shape, &n);
	if (ret)
		goto out;
	snprintf(spath, sizeof(spath), "%s.file", path);
	f = b->file;
	if (f[0] == '/') {
		ret = ferr(spath, "\"%.60s\" is an absolute path; the file must lie in the recipe's directory",
			   f);
		goto out;
	}
	for (c = f; c; c = strchr(c, '/')) {
		c += *c == '/';
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || !c[2])) {
			ret = ferr(spath, "\"%.60s\" leaves the recipe's directory ('..')",
				   f);
			goto out;
		}
	}
	b->file_offset = (uint64_t)off;
	for (k = 0; k < sizeof(dts) / sizeof(dts[0]); k++)
		if (!strcmp(dts[k].name, dtype))
			break;
	snprintf(spath, sizeof(spath), "%s.dtype", path);
	if (k == sizeof(dts) / sizeof(dts[0])) {
		ret = ferr(spath, "\"%.40s\" is not float32, float16, int8, uint8, int32 or int64",
			   dtype);
		goto out;
	}
	bytes = dts[k].size;
	snprintf(spath, sizeof(spath), "%s.shape", path);
	if (n > 8) {
		ret = ferr(spath, "%zu dims, at most 8", n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(shape, i);
		int64_t v;

		if (!json_object_is_type(e, json_type_int) ||
		    (v = json_object_get_int64(e)) < 0 || v > ((int64_t)1 << 40)) {
			ret = ferr(spath, "dim %zu is not an integer in 0..2^40", i);
			goto out;
		}
		bytes = v && bytes > ((uint64_t)1 << 40) / (uint64_t)v ?
			((uint64_t)1 << 40) + 1 : bytes * (uint64_t)v;
	}
	if (bytes != b->size) {
		ret = ferr(path, "%s of this shape is %llu bytes, the buffer \"%.40s\" has %llu",
			   dtype, (unsigned long long)bytes, b->name,
			   (unsigned long long)b->size);
		goto out;
	}
out:
	free(dtype);
	return ret;
}

static int parse_buffers(struct recipe *r, struct json_object *res)
{
	static const char *const keys[] = { "name", "type", "size", "data",
					    NULL };
	struct json_object *a;
	char path[PATH_LEN], *type = NULL;
	size_t n, i;
	int ret;

	ret = get_array(res, "buffers", "resources", 0, &a, &n);
	if (ret || !n)
		return ret;
	r->buffers = calloc(n, sizeof(*r->buffers));
	if (!r->buffers)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct recipe_buffer *b = &r->buffers[i];
		int64_t size = 0;
		int has_size;
		unsigned int t;

		snprintf(path, sizeof(path), "resources.buffers[%u]", (unsigned int)i);
		ret = is_object(o, path);
		if (!ret)
			ret = only_keys(o, path, keys);
		if (!ret)
			ret = get_str(o, "name", path, 1, &b->name);
		if (ret)
			return ret;
		r->num_buffers = (unsigned int)i + 1;
		if (find_buffer(r, b->name) != (int)i)
			return ferr(path, "name \"%.40s\" is used by resources.buffers[%d] already",
				    b->name, find_buffer(r, b->name));
		ret = get_str(o, "type", path, 1, &type);
		if (ret)
			return ret;
		for (t = 0; t < sizeof(buf_types) / sizeof(buf_types[0]); t++)
			if (!strcmp(type, buf_types[t]))
				break;
		if (t == sizeof(buf_types) / sizeof(buf_types[0])) {
			ret = ferr(path, "type \"%.40s\" is not input, output, internal, weight, spill or unknown",
				   type);
			free(type);
			return ret;
		}
		free(type);
		type = NULL;
		b->type = t;
		ret = get_int(o, "size", path, 0, 1, (int64_t)1 << 40, &size,
			      &has_size);
		if (ret)
			return ret;
		b->size = (uint64_t)size;
		if (t == RECIPE_BUF_INTERNAL && !has_size)
			return ferr(path, "internal buffer \"%.40s\" has no size (the runner creates it)",
				    b->name);
		if (json_object_object_get_ex(o, "data", NULL) && !has_size)
			return ferr(path, "buffer \"%.40s\" has data but no size",
				    b->name);
		ret = parse_data(b, o, path);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_kernels(struct recipe *r, struct json_object *res)
{
	static const char *const keys[] = { "name", "loadable", NULL };
	struct json_object *a;
	char path[PATH_LEN];
	size_t n, i, j;
	int ret;

	ret = get_array(res, "kernels", "resources", 0, &a, &n);
	if (ret || !n)
		return ret;
	r->kernels = calloc(n, sizeof(*r->kernels));
	if (!r->kernels)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct recipe_kernel *k = &r->kernels[i];

		snprintf(path, sizeof(path), "resources.kernels[%u]", (unsigned int)i);
		ret = is_object(o, path);
		if (!ret)
			ret = only_keys(o, path, keys);
		if (!ret)
			ret = get_str(o, "name", path, 1, &k->name);
		r->num_kernels = (unsigned int)i + 1;
		if (!ret)
			ret = get_str(o, "loadable", path, 1, &k->loadable);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(r->kernels[j].name, k->name))
				return ferr(path, "name \"%.40s\" is used by resources.kernels[%zu] already",
					    k->name, j);
	}
	return 0;
}

static int parse_cpus(struct recipe *r, struct json_object *res)
{
	static const char *const keys[] = { "name", "library_path", NULL };
	struct json_object *a;
	char path[PATH_LEN];
	size_t n, i, j;
	int ret;

	ret = get_array(res, "cpus", "resources", 0, &a, &n);
	if (ret || !n)
		return ret;
	r->cpus = calloc(n, sizeof(*r->cpus));
	if (!r->cpus)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct recipe_cpu *c = &r->cpus[i];

		snprintf(path, sizeof(path), "resources.cpus[%u]", (unsigned int)i);
		ret = is_object(o, path);
		if (!ret)
			ret = only_keys(o, path, keys);
		if (!ret)
			ret = get_str(o, "name", path, 1, &c->name);
		r->num_cpus = (unsigned int)i + 1;
		if (!ret)
			ret = get_str(o, "library_path", path, 1,
				      &c->library_path);
		if (ret)
			return ret;
		for (j = 0; j < i; j++)
			if (!strcmp(r->cpus[j].name, c->name))
				return ferr(path, "name \"%.40s\" is used by resources.cpus[%zu] already",
					    c->name, j);
	}
	return 0;
}

/* argidx @idx of run @run is not taken yet (@used: a bit per argidx) */
static int claim_argidx(uint64_t *used, int64_t idx, const char *path)
{
	if (*used & (1ull << idx))
		return ferr(path, "argidx %lld is given twice in this run",
			    (long long)idx);
	*used |= 1ull << idx;
	return 0;
}

static int parse_args(struct recipe *r, struct recipe_run *run,
		      struct json_object *o, const char *rpath, uint64_t *used)
{
	static const char *const keys[] = { "name", "argidx", "offset", "size",
					    NULL };
	struct json_object *a;
	char path[64], apath[80], *name = NULL;
	size_t n, i;
	int ret;

	ret = get_array(o, "arguments", rpath, 0, &a, &n);
	if (ret || !n)
		return ret;
	run->args = calloc(n, sizeof(*run->args));
	if (!run->args)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct recipe_arg *g = &run->args[i];
		const struct recipe_buffer *b;
		int64_t idx = 0, off = 0, size = 0;
		int has_off, has_size, bi;

		snprintf(path, sizeof(path), "%s.arguments[%u]", rpath, (unsigned int)i);
		ret = is_object(e, path);
		if (!ret)
			ret = only_keys(e, path, keys);
		if (!ret)
			ret = get_str(e, "name", path, 1, &name);
		if (ret)
			return ret;
		bi = find_buffer(r, name);
		if (bi < 0) {
			ret = ferr(path, "name \"%.40s\" is not in resources.buffers",
				   name);
			free(name);
			return ret;
		}
		free(name);
		name = NULL;
		b = &r->buffers[bi];
		ret = get_int(e, "argidx", path, 1, 0, RECIPE_MAX_ARGS - 1,
			      &idx, NULL);
		if (!ret) {
			snprintf(apath, sizeof(apath), "%s.argidx", path);
			ret = claim_argidx(used, idx, apath);
		}
		if (!ret)
			ret = get_int(e, "offset", path, 0, 0, (int64_t)1 << 40,
				      &off, &has_off);
		if (!ret)
			ret = get_int(e, "size", path, 0, 1, (int64_t)1 << 40,
				      &size, &has_size);
		if (ret)
			return ret;
		run->num_args = (unsigned int)i + 1;
		g->buf = (unsigned int)bi;
		g->argidx = (uint32_t)idx;
		g->offset = (uint64_t)off;
		g->size = (uint64_t)size;
		snprintf(apath, sizeof(apath), "%s.offset", path);
		if (off % RECIPE_OFFSET_ALIGN)
			return ferr(apath, "%lld is not a multiple of %d",
				    (long long)off, RECIPE_OFFSET_ALIGN);
		if (!b->size)
			continue;	/* checked once the buffer is bound */
		if (g->offset >= b->size)
			return ferr(apath, "%lld is not inside the %llu-byte buffer \"%.40s\"",
				    (long long)off, (unsigned long long)b->size,
				    b->name);
		snprintf(apath, sizeof(apath), "%s.size", path);
		if (has_size && g->size > b->size - g->offset)
			return ferr(apath, "%llu bytes at offset %llu end past the %llu-byte buffer \"%.40s\"",
				    (unsigned long long)g->size,
				    (unsigned long long)g->offset,
				    (unsigned long long)b->size, b->name);
	}
	return 0;
}

static int parse_consts(struct recipe_run *run, struct json_object *o,
			const char *rpath, uint64_t *used)
{
	static const char *const keys[] = { "value", "type", "argidx", NULL };
	struct json_object *a;
	char path[64], apath[80], *type = NULL;
	size_t n, i;
	int ret;

	ret = get_array(o, "constants", rpath, 0, &a, &n);
	if (ret || !n)
		return ret;
	if (!run->cpu)
		return ferr(rpath, "an NPU kernel takes buffers only, no constants");
	run->consts = calloc(n, sizeof(*run->consts));
	if (!run->consts)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *v;
		struct recipe_const *c = &run->consts[i];
		int64_t idx = 0;

		snprintf(path, sizeof(path), "%s.constants[%u]", rpath, (unsigned int)i);
		ret = is_object(e, path);
		if (!ret)
			ret = only_keys(e, path, keys);
		if (!ret)
			ret = get_int(e, "argidx", path, 1, 0,
				      RECIPE_MAX_ARGS - 1, &idx, NULL);
		if (!ret) {
			snprintf(apath, sizeof(apath), "%s.argidx", path);
			ret = claim_argidx(used, idx, apath);
		}
		if (!ret)
			ret = get_str(e, "type", path, 0, &type);
		if (!ret)
			ret = get_obj(e, "value", path, 1, &v);
		if (ret) {
			free(type);
			return ret;
		}
		run->num_consts = (unsigned int)i + 1;
		c->argidx = (uint32_t)idx;
		snprintf(apath, sizeof(apath), "%s.type", path);
		if (type && strcmp(type, "int") && strcmp(type, "string")) {
			ret = ferr(apath, "\"%.40s\" is not int or string", type);
			free(type);
			return ret;
		}
		c->is_int = type && !strcmp(type, "int");
		free(type);
		type = NULL;
		snprintf(apath, sizeof(apath), "%s.value", path);
		if (c->is_int && json_object_is_type(v, json_type_int)) {
			errno = 0;
			c->i = json_object_get_int64(v);
			if (errno || (c->i == INT64_MAX &&
				      json_object_get_uint64(v) > (uint64_t)INT64_MAX))
				return ferr(apath, "outside the 64-bit range");
			continue;
		}
		if (!json_object_is_type(v, json_type_string))
			return ferr(apath, "must be a string%s, not %s",
				    c->is_int ? " or an integer" : "", jtype(v));
		if (c->is_int) {
			const char *s = json_object_get_string(v);
			char *end;

			errno = 0;
			c->i = strtoll(s, &end, 0);
			if (end == s || *end || errno)
				return ferr(apath, "\"%.40s\" is not an integer", s);
			continue;
		}
		if (strlen(json_object_get_string(v)) !=
		    (size_t)json_object_get_string_len(v))
			return ferr(apath, "contains a NUL character");
		c->str = strdup(json_object_get_string(v));
		if (!c->str)
			return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	}
	return 0;
}

static int parse_runs(struct recipe *r, struct json_object *root)
{
	static const char *const keys[] = { "name", "where", "arguments",
					    "constants", NULL };
	static const char *const ekeys[] = { "runs", NULL };
	struct json_object *ex, *a;
	char path[32], npath[48], *name = NULL, *where = NULL;
	size_t n, i;
	unsigned int k;
	int ret;

	ret = get_obj(root, "execution", "recipe", 1, &ex);
	if (!ret)
		ret = is_object(ex, "execution");
	if (!ret)
		ret = only_keys(ex, "execution", ekeys);
	if (!ret)
		ret = get_array(ex, "runs", "execution", 1, &a, &n);
	if (ret)
		return ret;
	if (!n)
		return ferr("execution.runs", "no runs");
	r->runs = calloc(n, sizeof(*r->runs));
	if (!r->runs)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct recipe_run *run = &r->runs[i];
		uint64_t used = 0;

		snprintf(path, sizeof(path), "execution.runs[%u]", (unsigned int)i);
		ret = is_object(o, path);
		if (!ret)
			ret = only_keys(o, path, keys);
		if (!ret)
			ret = get_str(o, "name", path, 1, &name);
		if (!ret)
			ret = get_str(o, "where", path, 0, &where);
		if (ret)
			goto out;
		r->num_runs = (unsigned int)i + 1;
		snprintf(npath, sizeof(npath), "%s.where", path);
		if (where && strcmp(where, "npu") && strcmp(where, "cpu")) {
			ret = ferr(npath, "\"%.40s\" is not npu or cpu", where);
			goto out;
		}
		run->cpu = where && !strcmp(where, "cpu");
		snprintf(npath, sizeof(npath), "%s.name", path);
		if (run->cpu) {
			for (k = 0; k < r->num_cpus; k++)
				if (!strcmp(r->cpus[k].name, name))
					break;
			if (k == r->num_cpus) {
				ret = ferr(npath, "no CPU function \"%.40s\" in resources.cpus",
					   name);
				goto out;
			}
		} else {
			for (k = 0; k < r->num_kernels; k++)
				if (!strcmp(r->kernels[k].name, name))
					break;
			if (k == r->num_kernels) {
				ret = ferr(npath, "no kernel \"%.40s\" in resources.kernels",
					   name);
				goto out;
			}
		}
		run->res = k;
		free(name);
		free(where);
		name = where = NULL;
		ret = parse_args(r, run, o, path, &used);
		if (!ret)
			ret = parse_consts(run, o, path, &used);
		if (ret)
			return ret;
	}
	return 0;
out:
	free(name);
	free(where);
	return ret;
}

static int parse_root(struct recipe *r, struct json_object *root)
{
	static const char *const keys[] = { "header", "resources", "execution",
					    NULL };
	static const char *const rkeys[] = { "buffers", "kernels", "cpus",
					     NULL };
	struct json_object *res;
	int ret;

	ret = is_object(root, "recipe");
	if (!ret)
		ret = only_keys(root, "recipe", keys);
	if (!ret)
		ret = parse_header(r, root);
	if (!ret)
		ret = get_obj(root, "resources", "recipe", 1, &res);
	if (!ret)
		ret = is_object(res, "resources");
	if (!ret)
		ret = only_keys(res, "resources", rkeys);
	if (!ret)
		ret = parse_buffers(r, res);
	if (!ret)
		ret = parse_kernels(r, res);
	if (!ret)
		ret = parse_cpus(r, res);
	if (!ret)
		ret = parse_runs(r, root);
	return ret;
}

int recipe_parse(const char *text, size_t len, struct recipe **out)
{
	struct json_tokener *tok;
	struct json_object *root;
	struct recipe *r;
	size_t end;
	int ret;

	if (!text || !out)
		return vpux_err(VPUX_E_INVAL, "recipe: NULL argument");
	if (len > INT_MAX)
		return vpux_err(VPUX_E_FORMAT, "recipe: %zu bytes, too large", len);
	tok = json_tokener_new();
	if (!tok)
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		ret = vpux_err(VPUX_E_FORMAT, "recipe: not JSON: %s at byte %zu",
			       e == json_tokener_continue ?
			       "unexpected end of text" :
			       json_tokener_error_desc(e),
			       json_tokener_get_parse_end(tok));
		json_tokener_free(tok);
		return ret;
	}
	for (end = json_tokener_get_parse_end(tok); end < len; end++)
		if (!strchr(" \t\r\n", text[end])) {
			json_object_put(root);
			json_tokener_free(tok);
			return vpux_err(VPUX_E_FORMAT,
					"recipe: text after the JSON value at byte %zu",
					end);
		}
	json_tokener_free(tok);
	r = calloc(1, sizeof(*r));
	if (!r) {
		json_object_put(root);
		return vpux_err(VPUX_E_NOMEM, "recipe: out of memory");
	}
	ret = parse_root(r, root);
	json_object_put(root);
	if (ret) {
		recipe_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void recipe_free(struct recipe *r)
{
	unsigned int i, j;

	if (!r)
		return;
	for (i = 0; i < r->num_buffers; i++) {
		free(r->buffers[i].name);
		free(r->buffers[i].file);
	}
	for (i = 0; i < r->num_kernels; i++) {
		free(r->kernels[i].name);
		free(r->kernels[i].loadable);
	}
	for (i = 0; i < r->num_cpus; i++) {
		free(r->cpus[i].name);
		free(r->cpus[i].library_path);
	}
	for (i = 0; i < r->num_runs; i++) {
		for (j = 0; j < r->runs[i].num_consts; j++)
			free(r->runs[i].consts[j].str);
		free(r->runs[i].args);
		free(r->runs[i].consts);
	}
	free(r->buffers);
	free(r->kernels);
	free(r->cpus);
	free(r->runs);
	free(r->target);
	free(r);
}

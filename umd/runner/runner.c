// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The run-recipe runner (Documentation/run-recipes.rst): loads a recipe
 * (umd/runner/recipe.c), its kernels (one network per kernel, one
 * request per NPU run) and its CPU functions (dlopen, library_init, lookup:
 * include/vpux_cpu.h), checks every rule that needs them, and executes
 * the runs in order on a thread of its own.
 *
 * A sequence of consecutive NPU runs is a chain: each run's job is
 * submitted with the previous one as its dependency (backend op
 * submit_after: the kernel's in/out syncobjs on the ioctl backend), all
 * of them before the host waits for any, so the device goes from one to
 * the next without a host round trip. A CPU run starts when the chain
 * before it is done, and the next chain is submitted when it returns.
 * Sub-buffers reach the kernel as (BO, offset, size) address-list
 * entries of the run's request, never as copies.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "hostconv.h"
#include "priv.h"
#include "recipe.h"
#include "vpux_cpu.h"

#ifndef VPUX_CPU_LIBDIR
#define VPUX_CPU_LIBDIR "/usr/local/lib/vpux"
#endif
#define RUNNER_ENV "VPUX_CPU_LIBRARY_PATH"
#define RUNNER_MSG 1024
#define RECIPE_MAX_BYTES (16u << 20)

struct rn_buf {
	struct vpux_buffer *own;	/* created by the runner (sized) */
	struct vpux_buffer *bound;	/* bound by the application */
	size_t bound_off;
	uint64_t need;			/* least bytes its runs need */
};

struct rn_cpu {
	void *dl;
	char *path;			/* the library as found */
	void (*fini)(void);
	vpux_cpu_fn fn;
	uint32_t num_args;
};

/* where a run's argument lies at execute: @buf from @off, @size bytes */
struct rn_view {
	struct vpux_buffer *buf;
	uint64_t off, size;
};

struct rn_run {
	struct vpux_request *req;	/* NPU */
	struct vpux_be_job job;
	int has_job;
	struct vpux_cpu_arg *cargs;	/* CPU: by argidx */
	uint32_t nargs;
};

struct vpux_runner {
	struct vpux_device *dev;
	struct recipe *rc;
	/* vpux_runner_create_from_memory(): its files, while loading */
	const struct vpux_runner_file *mem;
	unsigned int n_mem;
	struct vpux_network **nets;
	struct rn_cpu *cpus;
	struct rn_buf *bufs;
	struct rn_run *runs;
	unsigned int flags;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	int started;		/* the thread runs or was not joined */
	int done;
	int result;
	char msg[RUNNER_MSG];
};

/* ---- loading ---- */

/*
 * @rel in the CPU library search path: every directory of
 * $VPUX_CPU_LIBRARY_PATH (colon-separated), then VPUX_CPU_LIBDIR; an
 * absolute path is taken as it is. A malloc'd path, or NULL with the
 * message set.
 */
static char *find_library(const char *rel, const char *jpath)
{
	const char *env = getenv(RUNNER_ENV), *p, *colon;
	char *cand;
	size_t n;

	if (rel[0] == '/')
		return strdup(rel);
	for (p = env; p && *p; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		if (!n)
			continue;
		if (asprintf(&cand, "%.*s/%s", (int)n, p, rel) < 0)
			return NULL;
		if (!access(cand, F_OK))
			return cand;
		free(cand);
	}
	if (asprintf(&cand, "%s/%s", VPUX_CPU_LIBDIR, rel) < 0)
		return NULL;
	if (!access(cand, F_OK))
		return cand;
	free(cand);
	vpux_err(VPUX_E_IO,
		 "%s: \"%s\" is neither in " RUNNER_ENV " (%s) nor in " VPUX_CPU_LIBDIR,
		 jpath, rel, env ? env : "not set");
	return NULL;
}

static int load_cpu(struct rn_cpu *c, const struct recipe_cpu *rc,
		    unsigned int i)
{
	struct vpux_cpu_library_init_args ia;
	struct vpux_cpu_lookup_args la;
	vpux_cpu_library_init_fn init;
	char jpath[64];
	int r;

	snprintf(jpath, sizeof(jpath), "resources.cpus[%u].library_path", i);
	c->path = find_library(rc->library_path, jpath);
	if (!c->path)
		return VPUX_E_IO;
	c->dl = dlopen(c->path, RTLD_NOW | RTLD_LOCAL);
	if (!c->dl)
		return vpux_err(VPUX_E_FORMAT, "%s: dlopen: %s", jpath,
				dlerror());
	*(void **)&init = dlsym(c->dl, VPUX_CPU_LIBRARY_INIT);
	if (!init)
		return vpux_err(VPUX_E_FORMAT,
				"%s: %s exports no " VPUX_CPU_LIBRARY_INIT "()",
				jpath, c->path);
	memset(&ia, 0, sizeof(ia));
	ia.size = sizeof(ia);
	ia.abi_version = VPUX_CPU_ABI_VERSION;
	r = init(&ia);
	if (r)
		return vpux_err(VPUX_E_FORMAT,
				"%s: %s: " VPUX_CPU_LIBRARY_INIT "() failed: %s",
				jpath, c->path, strerror(r < 0 ? -r : r));
	c->fini = ia.fini;
	if (!ia.lookup)
		return vpux_err(VPUX_E_FORMAT,
				"%s: %s: " VPUX_CPU_LIBRARY_INIT "() gave no lookup function",
				jpath, c->path);
	memset(&la, 0, sizeof(la));
	la.size = sizeof(la);
	r = ia.lookup(rc->name, &la);
	if (r || !la.fn)
		return vpux_err(VPUX_E_FORMAT,
				"resources.cpus[%u].name: %s has no function \"%s\" (lookup: %s)",
				i, c->path, rc->name,
				r ? strerror(r < 0 ? -r : r) : "no function");
	if (la.num_args > RECIPE_MAX_ARGS)
		return vpux_err(VPUX_E_FORMAT,
				"resources.cpus[%u].name: \"%s\" takes %u arguments, at most %d",
				i, rc->name, la.num_args, RECIPE_MAX_ARGS);
	c->fn = la.fn;
	c->num_args = la.num_args;
	return 0;
}

/* @dir/@rel, or @rel when it is absolute */
static char *join(const char *dir, const char *rel)
{
	char *p;

	if (rel[0] == '/' || !*dir)
		return strdup(rel);
	return asprintf(&p, "%s/%s", dir, rel) < 0 ? NULL : p;
}

/* The run's argidx all lie below @n and the run gives exactly @n */
static int check_count(const struct recipe_run *run, unsigned int i,
		       uint32_t n, const char *what, const char *name)
{
	unsigned int j;

	for (j = 0; j < run->num_args; j++)
		if (run->args[j].argidx >= n)
			return vpux_err(VPUX_E_FORMAT,
					"execution.runs[%u].arguments[%u].argidx: %u, but %s \"%s\" takes %u arguments",
					i, j, run->args[j].argidx, what, name, n);
	for (j = 0; j < run->num_consts; j++)
		if (run->consts[j].argidx >= n)
			return vpux_err(VPUX_E_FORMAT,
					"execution.runs[%u].constants[%u].argidx: %u, but %s \"%s\" takes %u arguments",
					i, j, run->consts[j].argidx, what, name, n);
	if (run->num_args + run->num_consts != n)
		return vpux_err(VPUX_E_FORMAT,
				"execution.runs[%u]: %s \"%s\" takes %u arguments, the run gives %u",
				i, what, name, n,
				run->num_args + run->num_consts);
	return 0;
}

/* the tensor of argument @idx of @net: input idx, then outputs */
static int tensor_of(struct vpux_network *net, uint32_t idx,
		     struct vpux_tensor_desc *d)
{
	unsigned int nin = vpux_network_num_inputs(net);

	return idx < nin ? vpux_network_input(net, idx, d) :
	       vpux_network_output(net, idx - nin, d);
}

static void need(struct rn_buf *b, uint64_t end)
{
	if (end > b->need)
		b->need = end;
}

static int check_npu_run(struct vpux_runner *r, unsigned int i)
{
	const struct recipe_run *run = &r->rc->runs[i];
	struct vpux_network *net = r->nets[run->res];
	const char *name = r->rc->kernels[run->res].name;
	unsigned int j, nin = vpux_network_num_inputs(net);
	int ret;

	ret = check_count(run, i, nin + vpux_network_num_outputs(net),
			  "kernel", name);
	if (ret)
		return ret;
	for (j = 0; j < run->num_args; j++) {
		const struct recipe_arg *a = &run->args[j];
		const struct recipe_buffer *b = &r->rc->buffers[a->buf];
		struct vpux_tensor_desc d;

		tensor_of(net, a->argidx, &d);
		if (a->size && a->size != d.size)
			return vpux_err(VPUX_E_FORMAT,
					"execution.runs[%u].arguments[%u].size: %llu bytes, kernel \"%s\" %s \"%s\" has %llu",
					i, j, (unsigned long long)a->size, name,
					a->argidx < nin ? "input" : "output",
					d.name, (unsigned long long)d.size);
		if (!a->size && b->size && b->size - a->offset < d.size)
			return vpux_err(VPUX_E_FORMAT,
					"execution.runs[%u].arguments[%u]: the %llu bytes of \"%s\" from offset %llu are fewer than kernel \"%s\" %s \"%s\" needs (%llu)",
					i, j,
					(unsigned long long)(b->size - a->offset),
					b->name, (unsigned long long)a->offset,
					name, a->argidx < nin ? "input" : "output",
					d.name, (unsigned long long)d.size);
		need(&r->bufs[a->buf], a->offset + d.size);
	}
	return vpux_request_create(net, &r->runs[i].req);
}

static int check_cpu_run(struct vpux_runner *r, unsigned int i)
{
	const struct recipe_run *run = &r->rc->runs[i];
	struct rn_cpu *c = &r->cpus[run->res];
	struct rn_run *rr = &r->runs[i];
	unsigned int j;
	int ret;

	ret = check_count(run, i, c->num_args, "CPU function",
			  r->rc->cpus[run->res].name);
	if (ret)
		return ret;
	rr->nargs = c->num_args;
	rr->cargs = calloc(c->num_args ? c->num_args : 1, sizeof(*rr->cargs));
	if (!rr->cargs)
		return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
	for (j = 0; j < run->num_consts; j++) {
		const struct recipe_const *k = &run->consts[j];
		struct vpux_cpu_arg *a = &rr->cargs[k->argidx];

		a->type = k->is_int ? VPUX_CPU_ARG_INT : VPUX_CPU_ARG_STRING;
		if (k->is_int)
			a->i = k->i;
		else
			a->str = k->str;
	}
	for (j = 0; j < run->num_args; j++) {
		const struct recipe_arg *a = &run->args[j];

		rr->cargs[a->argidx].type = VPUX_CPU_ARG_BUFFER;
		rr->cargs[a->argidx].buf.name = r->rc->buffers[a->buf].name;
		if (a->size)
			need(&r->bufs[a->buf], a->offset + a->size);
	}
	return 0;
}

/*
 * The bytes of buffer @i from its data file (@dir/file): the file exists
 * and holds the buffer's size from the offset (recipe.c checked the path
 * stays in the recipe's directory).
 */
/* the file @name of the table (vpux_runner_create_from_memory()), or NULL */
static const struct vpux_runner_file *mem_file(const struct vpux_runner *r,
					       const char *name)
{
	unsigned int i;

	for (i = 0; i < r->n_mem; i++)
		if (!strcmp(r->mem[i].name, name))
			return &r->mem[i];
	return NULL;
}

/* the same as load_data() from the file table */
static int load_data_mem(struct vpux_runner *r, unsigned int i)
{
	const struct recipe_buffer *b = &r->rc->buffers[i];
	const struct vpux_runner_file *m = mem_file(r, b->file);

	if (!m)
		return vpux_err(VPUX_E_IO, "resources.buffers[%u].data.file: '%s' is not among the %u files given",
				i, b->file, r->n_mem);
	if ((uint64_t)m->size < b->file_offset ||
	    (uint64_t)m->size - b->file_offset < b->size)
		return vpux_err(VPUX_E_FORMAT,
				"resources.buffers[%u].data: %s has %llu bytes, buffer \"%s\" needs %llu from offset %llu",
				i, b->file, (unsigned long long)m->size, b->name,
				(unsigned long long)b->size,
				(unsigned long long)b->file_offset);
	memcpy(vpux_buffer_map(r->bufs[i].own),
	       (const uint8_t *)m->data + b->file_offset, b->size);
	return 0;
}

/* kernel @i's loadable: the file @dir/loadable, or from the table */
static int load_kernel(struct vpux_runner *r, unsigned int i, const char *dir)
{
	const char *rel = r->rc->kernels[i].loadable;
	const struct vpux_runner_file *m;
	char why[RUNNER_MSG];
	char *file;
	int ret;

	if (r->mem) {
		m = mem_file(r, rel);
		if (!m)
			return vpux_err(VPUX_E_IO, "resources.kernels[%u].loadable: '%s' is not among the %u files given",
					i, rel, r->n_mem);
		ret = vpux_network_load(r->dev, m->data, m->size, &r->nets[i]);
		file = NULL;
	} else {
		file = join(dir, rel);
		if (!file)
			return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
		ret = vpux_network_load_file(r->dev, file, &r->nets[i]);
	}
	if (ret) {
		snprintf(why, sizeof(why), "%s", vpux_last_error());
		vpux_err(ret, "resources.kernels[%u].loadable: %s: %s", i,
			 file ? file : rel, why);
	}
	free(file);
	return ret;
}

static int load_data(struct vpux_runner *r, unsigned int i, const char *dir)
{
	const struct recipe_buffer *b = &r->rc->buffers[i];
	char *file;
	struct stat st;
	FILE *f;
	int ret = 0;

	if (r->mem)
		return load_data_mem(r, i);
	file = join(dir, b->file);

	if (!file)
		return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
	f = fopen(file, "rb");
	if (!f) {
		ret = vpux_err(VPUX_E_IO, "resources.buffers[%u].data.file: %s: %s",
			       i, file, strerror(errno));
		goto out;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = vpux_err(VPUX_E_IO, "resources.buffers[%u].data.file: %s: not a regular file",
			       i, file);
		goto out;
	}
	if ((uint64_t)st.st_size < b->file_offset ||
	    (uint64_t)st.st_size - b->file_offset < b->size) {
		ret = vpux_err(VPUX_E_FORMAT,
			       "resources.buffers[%u].data: %s has %llu bytes, buffer \"%s\" needs %llu from offset %llu",
			       i, file, (unsigned long long)st.st_size, b->name,
			       (unsigned long long)b->size,
			       (unsigned long long)b->file_offset);
		goto out;
	}
	if (fseeko(f, (off_t)b->file_offset, SEEK_SET) ||
	    fread(vpux_buffer_map(r->bufs[i].own), 1, b->size, f) != b->size)
		ret = vpux_err(VPUX_E_IO, "resources.buffers[%u].data.file: %s: cannot read",
			       i, file);
out:
	if (f)
		fclose(f);
	free(file);
	return ret;
}

static int load(struct vpux_runner *r, const char *path)
{
	struct recipe *rc = r->rc;
	struct vpux_device_info info;
	char *dir, *slash;
	unsigned int i;
	int ret;

	ret = vpux_device_query(r->dev, &info);
	if (ret)
		return ret;
	if (info.target != VPUX_TARGET_VPUX1)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"header.target: the recipe is for %s, the device is target %u",
				rc->target, info.target);
	r->nets = calloc(rc->num_kernels + 1, sizeof(*r->nets));
	r->cpus = calloc(rc->num_cpus + 1, sizeof(*r->cpus));
	r->bufs = calloc(rc->num_buffers + 1, sizeof(*r->bufs));
	r->runs = calloc(rc->num_runs + 1, sizeof(*r->runs));
	dir = strdup(path);
	if (!r->nets || !r->cpus || !r->bufs || !r->runs || !dir) {
		free(dir);
		return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
	}
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		dir[0] = '\0';
	for (i = 0; i < rc->num_kernels; i++) {
		ret = load_kernel(r, i, dir);
		if (ret) {
			free(dir);
			return ret;
		}
		if (r->nets[i]->img.n_symbols) {
			free(dir);
			return vpux_err(VPUX_E_UNSUPPORTED,
					"resources.kernels[%u].loadable: %s has symbols (dynamic shapes), which a recipe cannot bind yet",
					i, rc->kernels[i].loadable);
		}
		if (r->nets[i]->uses_cmx) {
			free(dir);
			return vpux_err(VPUX_E_UNSUPPORTED,
					"resources.kernels[%u].loadable: %s keeps tensors in CMX, which a recipe's runs cannot share yet",
					i, rc->kernels[i].loadable);
		}
	}
	for (i = 0; i < rc->num_cpus; i++) {
		ret = load_cpu(&r->cpus[i], &rc->cpus[i], i);
		if (ret)
			goto out;
	}
	for (i = 0; i < rc->num_runs; i++) {
		ret = rc->runs[i].cpu ? check_cpu_run(r, i) :
		      check_npu_run(r, i);
		if (ret)
			goto out;
	}
	for (i = 0; i < rc->num_buffers; i++) {
		if (!rc->buffers[i].size)
			continue;
		ret = vpux_buffer_alloc(r->dev, rc->buffers[i].size,
					&r->bufs[i].own);
		if (!ret && rc->buffers[i].file)
			ret = load_data(r, i, dir);
		if (ret)
			goto out;
	}
out:
	free(dir);
	return ret;
}

/*
 * The runner of recipe @text (@len bytes): its files from @recipe_path's
 * directory, or from @mem (@n_mem of them) when @mem is not NULL; @label
 * prefixes the messages.
 */
static int create(struct vpux_device *dev, const char *text, size_t len,
		  const char *recipe_path, const struct vpux_runner_file *mem,
		  unsigned int n_mem, const char *label,
		  struct vpux_runner **out)
{
	struct vpux_runner *r;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
	r->dev = dev;
	r->mem = mem;
	r->n_mem = n_mem;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	ret = recipe_parse(text, len, &r->rc);
	if (!ret)
		ret = load(r, recipe_path);
	r->mem = NULL;	/* the application's: not kept */
	r->n_mem = 0;
	if (ret) {
		char why[RUNNER_MSG];

		snprintf(why, sizeof(why), "%s", vpux_last_error());
		vpux_runner_destroy(r);
		return vpux_err(ret, "%s: %s", label, why);
	}
	*out = r;
	return 0;
}

int vpux_runner_create(struct vpux_device *dev, const char *recipe_path,
		       struct vpux_runner **out)
{
	char *text;
	void *buf;
	size_t len = 0;
	int ret;

	if (!dev || !recipe_path || !out)
		return vpux_err(VPUX_E_INVAL, "runner: NULL argument");
	/* NUL-terminated: json-c parses it in place */
	ret = hc_read_file(recipe_path, RECIPE_MAX_BYTES, &buf, &len);
	if (ret)
		return ret;
	text = buf;
	ret = create(dev, text, len, recipe_path, NULL, 0, recipe_path, out);
	free(text);
	return ret;
}

int vpux_runner_create_from_memory(struct vpux_device *dev,
				   const void *recipe, size_t recipe_size,
				   const struct vpux_runner_file *files,
				   unsigned int n_files,
				   struct vpux_runner **out)
{
	static const struct vpux_runner_file none;
	unsigned int i, j;
	char *text;
	int ret;

	if (!dev || !recipe || !out || (n_files && !files))
		return vpux_err(VPUX_E_INVAL, "runner: NULL argument");
	if (recipe_size > RECIPE_MAX_BYTES)
		return vpux_err(VPUX_E_INVAL, "runner: a recipe of %zu bytes, at most %u",
				recipe_size, RECIPE_MAX_BYTES);
	for (i = 0; i < n_files; i++) {
		if (!files[i].name || (!files[i].data && files[i].size))
			return vpux_err(VPUX_E_INVAL, "runner: files[%u]: NULL %s",
					i, files[i].name ? "data" : "name");
		for (j = 0; j < i; j++)
			if (!strcmp(files[j].name, files[i].name))
				return vpux_err(VPUX_E_INVAL,
						"runner: files[%u]: '%s' given twice (files[%u])",
						i, files[i].name, j);
	}
	/* the parser takes NUL-terminated text */
	text = malloc(recipe_size + 1);
	if (!text)
		return vpux_err(VPUX_E_NOMEM, "runner: out of memory");
	memcpy(text, recipe, recipe_size);
	text[recipe_size] = 0;
	ret = create(dev, text, recipe_size, "", n_files ? files : &none,
		     n_files, "recipe (memory)", out);
	free(text);
	return ret;
}

void vpux_runner_destroy(struct vpux_runner *r)
{
	unsigned int i;

	if (!r)
		return;
	if (r->started)
		vpux_runner_wait(r, -1);
	if (r->rc) {
		for (i = 0; r->runs && i < r->rc->num_runs; i++) {
			vpux_request_destroy(r->runs[i].req);
			free(r->runs[i].cargs);
		}
		for (i = 0; r->bufs && i < r->rc->num_buffers; i++)
			vpux_buffer_free(r->bufs[i].own);
		for (i = 0; r->nets && i < r->rc->num_kernels; i++)
			vpux_network_unload(r->nets[i]);
		for (i = 0; r->cpus && i < r->rc->num_cpus; i++) {
			if (r->cpus[i].fini)
				r->cpus[i].fini();
			if (r->cpus[i].dl)
				dlclose(r->cpus[i].dl);
			free(r->cpus[i].path);
		}
	}
	free(r->runs);
	free(r->bufs);
	free(r->nets);
	free(r->cpus);
	recipe_free(r->rc);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* ---- binding ---- */

static int is_running(struct vpux_runner *r)
{
	int s;

	pthread_mutex_lock(&r->lock);
	s = r->started;
	pthread_mutex_unlock(&r->lock);
	return s;
}

static int bind(struct vpux_runner *r, const char *name,
		struct vpux_buffer *buf, size_t offset, int output)
{
	const char *what = output ? "bind output" : "bind input";
	const struct recipe_buffer *b;
	unsigned int i;
	uint64_t avail;

	if (!r || !name)
		return vpux_err(VPUX_E_INVAL, "%s: NULL argument", what);
	for (i = 0; i < r->rc->num_buffers; i++)
		if (!strcmp(r->rc->buffers[i].name, name))
			break;
	if (i == r->rc->num_buffers)
		return vpux_err(VPUX_E_INVAL, "%s: the recipe has no buffer \"%s\"",
				what, name);
	b = &r->rc->buffers[i];
	if (b->type == RECIPE_BUF_INTERNAL ||
	    (output && b->type != RECIPE_BUF_OUTPUT &&
	     b->type != RECIPE_BUF_UNKNOWN) ||
	    (!output && b->type == RECIPE_BUF_OUTPUT))
		return vpux_err(VPUX_E_INVAL, "%s: buffer \"%s\" is of type %s",
				what, name, recipe_buf_type_name(b->type));
	if (!buf || buf->dev != r->dev)
		return vpux_err(VPUX_E_INVAL,
				"%s: \"%s\": no buffer, or one of another device",
				what, name);
	if (is_running(r))
		return vpux_err(VPUX_E_BUSY,
				"%s: \"%s\": the runner is executing; vpux_runner_wait() first",
				what, name);
	avail = offset <= buf->size ? buf->size - offset : 0;
	if (offset > buf->size || avail < (b->size ? b->size : r->bufs[i].need) ||
	    !avail)
		return vpux_err(VPUX_E_INVAL,
				"%s: \"%s\": %llu bytes from offset %zu of a %zu-byte buffer, the recipe needs %llu",
				what, name, (unsigned long long)avail, offset,
				buf->size, (unsigned long long)
				(b->size ? b->size : r->bufs[i].need));
	r->bufs[i].bound = buf;
	r->bufs[i].bound_off = offset;
	return 0;
}

int vpux_runner_bind_input(struct vpux_runner *r, const char *name,
			   struct vpux_buffer *buf, size_t offset)
{
	return bind(r, name, buf, offset, 0);
}

int vpux_runner_bind_output(struct vpux_runner *r, const char *name,
			    struct vpux_buffer *buf, size_t offset)
{
	return bind(r, name, buf, offset, 1);
}

int vpux_runner_buffer_size(const struct vpux_runner *r, const char *name,
			    size_t *size)
{
	unsigned int i;

	if (!r || !name || !size)
		return vpux_err(VPUX_E_INVAL, "buffer size: NULL argument");
	for (i = 0; i < r->rc->num_buffers; i++)
		if (!strcmp(r->rc->buffers[i].name, name)) {
			*size = r->rc->buffers[i].size ?
				r->rc->buffers[i].size : r->bufs[i].need;
			return 0;
		}
	return vpux_err(VPUX_E_INVAL, "buffer size: the recipe has no buffer \"%s\"",
			name);
}

int vpux_runner_set_flags(struct vpux_runner *r, unsigned int flags)
{
	if (!r || flags & ~VPUX_RUNNER_CHECK)
		return vpux_err(VPUX_E_INVAL, "runner flags: 0x%x unknown", flags);
	if (is_running(r))
		return vpux_err(VPUX_E_BUSY, "runner flags: the runner is executing");
	r->flags = flags;
	return 0;
}

/* ---- execution ---- */

/* where argument @j of run @i lies now */
static int view(struct vpux_runner *r, unsigned int i, unsigned int j,
		struct rn_view *v)
{
	const struct recipe_arg *a = &r->rc->runs[i].args[j];
	const struct recipe_buffer *b = &r->rc->buffers[a->buf];
	const struct rn_buf *rb = &r->bufs[a->buf];
	uint64_t size;

	if (rb->bound) {
		v->buf = rb->bound;
		v->off = rb->bound_off;
		size = b->size ? b->size : rb->bound->size - rb->bound_off;
	} else if (rb->own) {
		v->buf = rb->own;
		v->off = 0;
		size = b->size;
	} else {
		return vpux_err(VPUX_E_UNBOUND,
				"execute: %s buffer \"%s\" is not bound (execution.runs[%u].arguments[%u])",
				recipe_buf_type_name(b->type), b->name, i, j);
	}
	if (a->offset >= size || (a->size && a->size > size - a->offset))
		return vpux_err(VPUX_E_INVAL,
				"execute: execution.runs[%u].arguments[%u]: %llu bytes at offset %llu end past the %llu bytes bound to \"%s\"",
				i, j, (unsigned long long)(a->size ? a->size : 1),
				(unsigned long long)a->offset,
				(unsigned long long)size, b->name);
	v->off += a->offset;
	v->size = a->size ? a->size : size - a->offset;
	return 0;
}

/* every argument of every run, bound into the requests and CPU args */
static int prepare(struct vpux_runner *r)
{
	unsigned int i, j;
	int ret;

	for (i = 0; i < r->rc->num_runs; i++) {
		const struct recipe_run *run = &r->rc->runs[i];

		for (j = 0; j < run->num_args; j++) {
			const struct recipe_arg *a = &run->args[j];
			struct vpux_network *net;
			struct vpux_tensor_desc d;
			struct rn_view v = { NULL, 0, 0 };
			unsigned int nin;

			ret = view(r, i, j, &v);
			if (ret)
				return ret;
			if (run->cpu) {
				struct vpux_cpu_buffer *cb =
					&r->runs[i].cargs[a->argidx].buf;

				cb->data = (char *)vpux_buffer_map(v.buf) + v.off;
				cb->size = v.size;
				continue;
			}
			net = r->nets[run->res];
			nin = vpux_network_num_inputs(net);
			tensor_of(net, a->argidx, &d);
			if (v.size < d.size)
				return vpux_err(VPUX_E_INVAL,
						"execute: execution.runs[%u].arguments[%u]: %llu bytes of \"%s\", kernel \"%s\" needs %llu",
						i, j, (unsigned long long)v.size,
						r->rc->buffers[a->buf].name,
						r->rc->kernels[run->res].name,
						(unsigned long long)d.size);
			ret = a->argidx < nin ?
			      vpux_request_bind_input(r->runs[i].req, a->argidx,
						      v.buf, v.off) :
			      vpux_request_bind_output(r->runs[i].req,
						       a->argidx - nin, v.buf,
						       v.off);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* record the execution's first failure: "execution.runs[i] (...): msg" */
static int __attribute__((format(printf, 4, 5)))
run_fail(struct vpux_runner *r, unsigned int i, int code, const char *fmt,
	 ...)
{
	const struct recipe_run *run = &r->rc->runs[i];
	char m[RUNNER_MSG - 200];
	va_list ap;

	if (r->result)
		return r->result;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	snprintf(r->msg, sizeof(r->msg), "execution.runs[%u] (%s \"%.100s\"): %s",
		 i, run->cpu ? "CPU function" : "kernel",
		 run->cpu ? r->rc->cpus[run->res].name :
		 r->rc->kernels[run->res].name, m);
	r->result = code;
	return code;
}

static int run_cpu(struct vpux_runner *r, unsigned int i)
{
	struct rn_run *rr = &r->runs[i];
	struct vpux_cpu_call call;
	char err[512] = "";
	int ret;

	memset(&call, 0, sizeof(call));
	call.size = sizeof(call);
	call.num_args = rr->nargs;
	call.args = rr->cargs;
	call.err = err;
	call.err_size = sizeof(err);
	ret = r->cpus[r->rc->runs[i].res].fn(&call);
	if (ret) {
		err[sizeof(err) - 1] = '\0';
		return run_fail(r, i, VPUX_E_DEVICE, "%s",
				err[0] ? err : strerror(ret < 0 ? -ret : ret));
	}
	return 0;
}

/* 0, or the job's failure recorded for run @i */
static int job_result(struct vpux_runner *r, unsigned int i)
{
	struct vpux_device *dev = r->dev;
	struct vpux_request_status st;
	int ret;

	ret = dev->ops->wait(dev->priv, &r->runs[i].job, -1);
	if (!ret)
		ret = dev->ops->status(dev->priv, &r->runs[i].job, &st);
	if (ret)
		return run_fail(r, i, ret, "%s", vpux_last_error());
	if (st.state == VPUX_REQ_FAILED)
		return run_fail(r, i, VPUX_E_DEVICE,
				"device error %d at op %u of engine kind %u",
				st.error, st.fail_index, st.fail_kind);
	return 0;
}

/* runs @first..@end-1, all NPU runs: one chain */
static void run_chain(struct vpux_runner *r, unsigned int first,
		      unsigned int end)
{
	struct vpux_device *dev = r->dev;
	const struct vpux_be_job *prev = NULL;
	unsigned int i, n = first;
	int ret;

	for (i = first; i < end; i++, n++) {
		struct vpux_request *q = r->runs[i].req;

		ret = dev->ops->submit_after(dev->priv, q->list,
					     q->net->n_slots, q->prio,
					     SLOT_SCRATCH, prev,
					     &r->runs[i].job);
		if (ret) {
			char why[RUNNER_MSG];

			snprintf(why, sizeof(why), "%s", vpux_last_error());
			/* a failure of a run before explains this one */
			for (i = first; i < n && !r->result; i++)
				job_result(r, i);
			run_fail(r, n, ret, "submit: %s", why);
			break;
		}
		r->runs[i].has_job = 1;
		prev = &r->runs[i].job;
	}
	/* after a failure, the rest only end (ioctl: ECANCELED) */
	for (i = first; i < n; i++)
		if (!r->result)
			job_result(r, i);
		else
			dev->ops->wait(dev->priv, &r->runs[i].job, -1);
	for (i = first; i < n; i++) {
		dev->ops->release(dev->priv, &r->runs[i].job);
		r->runs[i].has_job = 0;
	}
}

/* VPUX_RUNNER_CHECK: run @i alone and compare it with the reference */
static void run_checked(struct vpux_runner *r, unsigned int i)
{
	const struct recipe_run *run = &r->rc->runs[i];
	struct vpux_network *net = r->nets[run->res];
	struct vpux_request *q = r->runs[i].req;
	unsigned int nin = vpux_network_num_inputs(net), j, k;
	unsigned int nout = vpux_network_num_outputs(net);
	const void **in = calloc(nin + 1, sizeof(*in));
	void **ref = calloc(nout + 1, sizeof(*ref));
	struct vpux_tensor_desc d;
	int ret;

	if (!in || !ref) {
		run_fail(r, i, VPUX_E_NOMEM, "out of memory");
		goto out;
	}
	for (j = 0; j < nin; j++) {
		struct vpux_be_entry *e = &q->list[SLOT_IO + j];

		in[j] = (const char *)e->bo->cpu + e->offset;
	}
	for (j = 0; j < nout; j++) {
		vpux_network_output(net, j, &d);
		ref[j] = malloc(d.size ? d.size : 1);
		if (!ref[j]) {
			run_fail(r, i, VPUX_E_NOMEM, "out of memory");
			goto out;
		}
	}
	ret = vpux_network_run_reference(net, in, ref);
	if (ret) {
		run_fail(r, i, ret, "CPU reference: %s", vpux_last_error());
		goto out;
	}
	run_chain(r, i, i + 1);
	if (r->result)
		goto out;
	for (j = 0; j < nout; j++) {
		struct vpux_be_entry *e = &q->list[SLOT_IO + nin + j];
		const uint8_t *got = (const uint8_t *)e->bo->cpu + e->offset;

		vpux_network_output(net, j, &d);
		for (k = 0; k < d.size; k++)
			if (got[k] != ((uint8_t *)ref[j])[k])
				break;
		if (k < d.size) {
			run_fail(r, i, VPUX_E_DEVICE,
				 "output %u \"%s\" differs from the CPU reference at byte %u (device %u, reference %u)",
				 j, d.name, k, got[k], ((uint8_t *)ref[j])[k]);
			goto out;
		}
	}
out:
	for (j = 0; ref && j < nout; j++)
		free(ref[j]);
	free(ref);
	free(in);
}

static void *runner_thread(void *arg)
{
	struct vpux_runner *r = arg;
	unsigned int i = 0, end;

	while (i < r->rc->num_runs && !r->result) {
		if (r->rc->runs[i].cpu) {
			run_cpu(r, i++);
			continue;
		}
		if (r->flags & VPUX_RUNNER_CHECK) {
			run_checked(r, i++);
			continue;
		}
		for (end = i; end < r->rc->num_runs && !r->rc->runs[end].cpu;
		     end++)
			;
		run_chain(r, i, end);
		i = end;
	}
	pthread_mutex_lock(&r->lock);
	r->done = 1;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int vpux_runner_execute(struct vpux_runner *r)
{
	int ret;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "execute: NULL runner");
	pthread_mutex_lock(&r->lock);
	if (r->started) {
		pthread_mutex_unlock(&r->lock);
		return vpux_err(VPUX_E_BUSY,
				"execute: the runner's last execution has not been waited for (vpux_runner_wait())");
	}
	ret = prepare(r);
	if (ret) {
		pthread_mutex_unlock(&r->lock);
		return ret;
	}
	r->done = 0;
	r->result = 0;
	r->msg[0] = '\0';
	ret = pthread_create(&r->thread, NULL, runner_thread, r);
	if (ret) {
		pthread_mutex_unlock(&r->lock);
		return vpux_err(VPUX_E_NOMEM, "execute: no thread: %s",
				strerror(ret));
	}
	r->started = 1;
	pthread_mutex_unlock(&r->lock);
	return 0;
}

int vpux_runner_wait(struct vpux_runner *r, int timeout_ms)
{
	struct timespec ts;
	int ret = 0;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "wait: NULL runner");
	pthread_mutex_lock(&r->lock);
	if (!r->started) {
		pthread_mutex_unlock(&r->lock);
		return vpux_err(VPUX_E_STATE, "wait: the runner was not executed");
	}
	if (timeout_ms >= 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += timeout_ms / 1000;
		ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
	}
	while (!r->done && ret != ETIMEDOUT)
		ret = timeout_ms < 0 ? pthread_cond_wait(&r->cond, &r->lock) :
		      pthread_cond_timedwait(&r->cond, &r->lock, &ts);
	if (!r->done) {
		pthread_mutex_unlock(&r->lock);
		return vpux_err(VPUX_E_TIMEOUT, "wait: the runner still runs after %d ms",
				timeout_ms);
	}
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	pthread_mutex_lock(&r->lock);
	r->started = 0;
	ret = r->result;
	pthread_mutex_unlock(&r->lock);
	if (ret)
		return vpux_err(ret, "%s", r->msg);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Requests: the per-inference run state (scratch memory, the address list
 * with the bound inputs/outputs, the backend's task handle). The network's
 * task memory, weights and kernel arguments are shared read-only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "priv.h"

int vpux_request_create(struct vpux_network *net, struct vpux_request **out)
{
	struct vpux_device *dev;
	struct vpux_request *r;
	int ret;

	if (!net || !out)
		return vpux_err(VPUX_E_INVAL, "request: NULL argument");
	dev = net->dev;
	r = calloc(1, sizeof(*r));
	if (!r)
		return vpux_err(VPUX_E_NOMEM, "request: out of memory");
	r->list = calloc(net->n_list, sizeof(*r->list));
	if (!r->list) {
		free(r);
		return vpux_err(VPUX_E_NOMEM, "request: out of memory");
	}
	ret = dev->ops->bo_alloc(dev->priv, net->img.hdr.scratch_size ?
				 net->img.hdr.scratch_size : 1, 0, &r->scratch);
	if (ret) {
		free(r->list);
		free(r);
		return ret;
	}
	r->net = net;
	r->prio = VPUX_PRIORITY_NORMAL;
	if (net->n_list > net->n_slots) {
		/* the device only reads it */
		ret = dev->ops->bo_alloc(dev->priv,
					 VPUX_LF_MAX_SYMBOLS * sizeof(uint64_t),
					 VPUX_BE_BO_READONLY, &r->sym);
		if (ret || !dev->ops->bo_map(dev->priv, &r->sym)) {
			if (!ret)
				dev->ops->bo_free(dev->priv, &r->sym);
			dev->ops->bo_free(dev->priv, &r->scratch);
			free(r->list);
			free(r);
			return ret ? ret : vpux_err(VPUX_E_NOMEM,
						    "request: cannot map the symbol buffer");
		}
		r->has_sym = 1;
		r->list[net->n_slots] = (struct vpux_be_entry){
			&r->sym, 0, net->img.n_symbols * sizeof(uint64_t) };
	}
	/* a plan's ops are counted on the device: no profile of them */
	if (dev->ops->profile_alloc && !net->img.n_blocks) {
		uint32_t ops = 0;
		unsigned int k;

		for (k = 0; k < LF_KINDS; k++)
			ops += lf_op_count(&net->img, k);
		ret = dev->ops->profile_alloc(dev->priv, ops, &r->prof);
		if (ret && ret != VPUX_E_UNSUPPORTED) {
			if (r->has_sym)
				dev->ops->bo_free(dev->priv, &r->sym);
			dev->ops->bo_free(dev->priv, &r->scratch);
			free(r->list);
			free(r);
			return ret;
		}
		r->has_prof = !ret;
	}
	r->list[SLOT_TASK] = (struct vpux_be_entry){ &net->task, 0,
						     net->task_size };
	r->list[SLOT_WEIGHTS] = (struct vpux_be_entry){ &net->weights, 0,
							net->weights.size };
	r->list[SLOT_KARGS] = (struct vpux_be_entry){ &net->kargs, 0,
						      net->kargs.size };
	r->list[SLOT_SCRATCH] = (struct vpux_be_entry){ &r->scratch, 0,
							r->scratch.size };
	*out = r;
	return 0;
}

/*
 * Submit @r's job. A network with CMX tensors finds them at the same
 * tiles and offsets in every request, so two of its jobs on the same
 * tiles must not run at once: they queue, in submission order, each
 * starting once the previous one on those tiles has ended (in the engine
 * core in process, in the kernel queue through /dev/accel), whatever
 * that one's result. The submitter does not wait. A network whose tiles
 * fit the device more than once has a task copy per tile set (network.c,
 * place_tiles()): with a backend that orders per tile, each job goes to
 * the set whose tiles were used least recently and follows only the
 * last job on those tiles, so jobs on other sets run at the same time
 * (Documentation/libvpux.rst, "Pipelined requests").
 */
static int submit_job(struct vpux_request *r, struct vpux_be_job *job)
{
	struct vpux_network *net = r->net;
	struct vpux_device *dev = net->dev;
	const struct vpux_bo *prof = r->has_prof ? &r->prof : NULL;
	uint64_t mask, last, best = UINT64_MAX;
	unsigned int k, t, prev = VPUX_DEV_TILES;
	int ret;

	/* the scratch buffer is the request's alone: its last job is this one */
	if (!net->uses_cmx)
		return dev->ops->submit(dev->priv, r->list, net->n_list,
					r->prio, SLOT_SCRATCH, prof, job);
	pthread_mutex_lock(&dev->cmx_lock);
	if (!dev->ops->cmx_per_tile) {
		ret = dev->ops->submit_ordered(dev->priv, r->list, net->n_list,
					       r->prio, SLOT_SCRATCH, prof,
					       dev->has_cmx_tail ?
					       &dev->cmx_tail : NULL, job);
		if (!ret) {
			dev->cmx_tail = *job;
			dev->has_cmx_tail = 1;
		}
		pthread_mutex_unlock(&dev->cmx_lock);
		return ret;
	}
	/* the tile set used least recently: the newest job on it oldest */
	r->place = 0;
	for (k = 0; k < net->n_place; k++) {
		mask = net->tile_mask << (k * net->tile_span);
		for (last = 0, t = 0; t < VPUX_DEV_TILES; t++)
			if ((mask >> t & 1) && dev->tile_seq[t] > last)
				last = dev->tile_seq[t];
		if (last < best) {
			best = last;
			r->place = k;
		}
	}
	mask = net->tile_mask << (r->place * net->tile_span);
	/*
	 * The newest job on these tiles is the one the backend orders this
	 * one after; older ones on some of them (another network's tile
	 * set overlapping this one) are waited for here.
	 */
	for (t = 0; t < VPUX_DEV_TILES; t++)
		if ((mask >> t & 1) && dev->tile_seq[t] &&
		    (prev == VPUX_DEV_TILES ||
		     dev->tile_seq[t] > dev->tile_seq[prev]))
			prev = t;
	for (t = 0; t < VPUX_DEV_TILES; t++)
		if ((mask >> t & 1) && prev < VPUX_DEV_TILES &&
		    dev->tile_seq[t] && dev->tile_seq[t] != dev->tile_seq[prev])
			/* a job already released has ended: no error */
			(void)dev->ops->wait(dev->priv, &dev->tile_tail[t], -1);
	r->list[SLOT_TASK].offset = (uint64_t)r->place * net->task_stride;
	ret = dev->ops->submit_ordered(dev->priv, r->list, net->n_list,
				       r->prio, SLOT_SCRATCH, prof,
				       prev < VPUX_DEV_TILES ?
				       &dev->tile_tail[prev] : NULL, job);
	if (!ret) {
		dev->cmx_seq++;
		for (t = 0; t < VPUX_DEV_TILES; t++)
			if (mask >> t & 1) {
				dev->tile_tail[t] = *job;
				/* a record: the job's own wait counts it out
				 * of its kernel queue, not a wait on a copy
				 */
				dev->tile_tail[t].queued = 0;
				dev->tile_seq[t] = dev->cmx_seq;
			}
	}
	pthread_mutex_unlock(&dev->cmx_lock);
	return ret;
}

static void forget(struct vpux_request *r)
{
	struct vpux_device *dev = r->net->dev;

	if (r->has_job)
		dev->ops->release(dev->priv, &r->job);
	r->has_job = 0;
}

void vpux_request_destroy(struct vpux_request *r)
{
	struct vpux_device *dev;

	if (!r)
		return;
	dev = r->net->dev;
	if (r->has_job)
		dev->ops->wait(dev->priv, &r->job, 5000);
	forget(r);
	if (r->has_prof)
		dev->ops->bo_free(dev->priv, &r->prof);
	if (r->has_sym)
		dev->ops->bo_free(dev->priv, &r->sym);
	dev->ops->bo_free(dev->priv, &r->scratch);
	free(r->ref_shape);
	free(r->list);
	free(r);
}

static int bind(struct vpux_request *r, unsigned int slot, uint32_t t,
		struct vpux_buffer *buf, size_t offset, const char *what,
		unsigned int i)
{
	uint64_t size = r->net->img.tensors[t].size;

	if (!buf || buf->dev != r->net->dev)
		return vpux_err(VPUX_E_INVAL, "%s %u: no buffer, or one of another device",
				what, i);
	if (offset > buf->size || size > buf->size - offset)
		return vpux_err(VPUX_E_INVAL,
				"%s %u: %llu bytes at offset %zu outside the %zu-byte buffer",
				what, i, (unsigned long long)size, offset,
				buf->size);
	r->list[slot] = (struct vpux_be_entry){ &buf->bo, offset, size };
	return 0;
}

int vpux_request_bind_input(struct vpux_request *r, unsigned int i,
			    struct vpux_buffer *buf, size_t offset)
{
	if (!r || i >= r->net->img.hdr.num_inputs)
		return vpux_err(VPUX_E_INVAL, "input %u does not exist", i);
	return bind(r, SLOT_IO + i, r->net->io_tensor[i], buf, offset,
		    "input", i);
}

int vpux_request_bind_output(struct vpux_request *r, unsigned int i,
			     struct vpux_buffer *buf, size_t offset)
{
	unsigned int s;

	if (!r || i >= r->net->img.hdr.num_outputs)
		return vpux_err(VPUX_E_INVAL, "output %u does not exist", i);
	s = r->net->img.hdr.num_inputs + i;
	return bind(r, SLOT_IO + s, r->net->io_tensor[s], buf, offset,
		    "output", i);
}

int vpux_request_set_priority(struct vpux_request *r, unsigned int priority)
{
	if (!r)
		return vpux_err(VPUX_E_INVAL, "priority: NULL request");
	if (priority > VPUX_PRIORITY_REALTIME)
		return vpux_err(VPUX_E_INVAL,
				"priority %u: not one of LOW (0) .. REALTIME (3)",
				priority);
	r->prio = priority;
	return 0;
}

int vpux_request_submit(struct vpux_request *r)
{
	struct vpux_device *dev;
	struct vpux_request_status st;
	struct vpux_be_job job;
	unsigned int s;
	int ret;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "submit: NULL request");
	dev = r->net->dev;
	for (s = SLOT_IO; s < r->net->n_slots; s++)
		if (!r->list[s].bo)
			return vpux_err(VPUX_E_UNBOUND, "%s %u is not bound",
					s - SLOT_IO < r->net->img.hdr.num_inputs ?
					"input" : "output",
					s - SLOT_IO < r->net->img.hdr.num_inputs ?
					s - SLOT_IO :
					s - SLOT_IO - r->net->img.hdr.num_inputs);
	for (s = 0; s < r->net->img.n_symbols; s++)
		if (!(r->sym_bound & (1u << s)))
			return vpux_err(VPUX_E_UNBOUND,
					"symbol '%s' is not bound (vpux_request_set_symbol, vpux_request_set_input_shape)",
					r->net->img.symbols[s].name);
	if (r->has_job) {
		if (dev->ops->status(dev->priv, &r->job, &st) ||
		    st.state == VPUX_REQ_RUNNING)
			return vpux_err(VPUX_E_STATE,
					"submit: the request is still running");
		forget(r);
	}
	/* the request's own values: the network is never written */
	if (r->has_sym)
		memcpy(r->sym.cpu, r->sym_val,
		       r->net->img.n_symbols * sizeof(uint64_t));
	r->sym_round = 0;
	ret = submit_job(r, &job);
	if (ret)
		return ret;
	r->job = job;
	r->has_job = 1;
	return 0;
}

int vpux_request_wait(struct vpux_request *r, int timeout_ms)
{
	struct vpux_device *dev;
	struct vpux_request_status st;
	int ret;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "wait: NULL request");
	if (!r->has_job)
		return vpux_err(VPUX_E_STATE, "wait: request not submitted");
	dev = r->net->dev;
	ret = dev->ops->wait(dev->priv, &r->job, timeout_ms);
	if (ret)
		return ret;
	ret = dev->ops->status(dev->priv, &r->job, &st);
	if (!ret && st.state == VPUX_REQ_FAILED)
		ret = vpux_err(VPUX_E_DEVICE,
			       "request failed: device error %d at op %u of engine kind %u",
			       st.error, st.fail_index, st.fail_kind);
	return ret;
}

int vpux_request_status(struct vpux_request *r, struct vpux_request_status *st)
{
	if (!r || !st)
		return vpux_err(VPUX_E_INVAL, "status: NULL argument");
	if (!r->has_job) {
		memset(st, 0, sizeof(*st));
		st->state = VPUX_REQ_IDLE;
		return 0;
	}
	return r->net->dev->ops->status(r->net->dev->priv, &r->job, st);
}

int vpux_request_error(struct vpux_request *r, unsigned int *category,
		       uint32_t *detail)
{
	struct vpux_request_status st;
	int ret;

	if (!r || !category)
		return vpux_err(VPUX_E_INVAL, "request error: NULL argument");
	*category = VPUX_ERROR_NONE;
	if (detail)
		*detail = 0;
	ret = vpux_request_status(r, &st);
	if (ret || st.state != VPUX_REQ_FAILED)
		return ret;
	*category = r->job.err_category;
	if (detail)
		*detail = r->job.err_detail;
	return 0;
}

const char *vpux_error_category_name(unsigned int category)
{
	static const char *const names[] = {
		"NONE", "INVALID", "FAULT", "HANG", "ENGINE", "ABORTED",
		"DEVICE",
	};

	return category < sizeof(names) / sizeof(names[0]) ?
	       names[category] : "UNKNOWN";
}

int vpux_request_op_cycles(struct vpux_request *r, unsigned int kind,
			   unsigned int index, uint32_t *cycles)
{
	if (!r || !cycles || !r->has_job || kind >= LF_KINDS ||
	    index >= lf_op_count(&r->net->img, kind))
		return vpux_err(VPUX_E_INVAL, "op cycles: no such op or request");
	return r->net->dev->ops->op_cycles(r->net->dev->priv, &r->job, kind,
					   index, cycles);
}

int vpux_request_op_times(struct vpux_request *r, struct vpux_op_time *times,
			  unsigned int n)
{
	unsigned int k, ops = 0;

	if (!r || !times || !r->has_job)
		return vpux_err(VPUX_E_INVAL, "op times: no request or no run");
	for (k = 0; k < LF_KINDS; k++)
		ops += lf_op_count(&r->net->img, k);
	if (r->net->img.n_blocks)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"op times: the network is a plan, its ops are expanded on the device");
	if (n != ops)
		return vpux_err(VPUX_E_INVAL,
				"op times: room for %u ops, the network has %u",
				n, ops);
	if (!r->net->dev->ops->op_times)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"op times: the %s backend has none",
				r->net->dev->ops->name);
	return r->net->dev->ops->op_times(r->net->dev->priv, &r->job, times,
					  n);
}

/* Is @r's last job still running? */
static int running(struct vpux_request *r)
{
	struct vpux_request_status st;

	if (!r->has_job)
		return 0;
	return r->net->dev->ops->status(r->net->dev->priv, &r->job, &st) ||
	       st.state == VPUX_REQ_RUNNING;
}

/* Bind symbol @s to @v: bounds checked; @what names the caller's dim. */
static int bind_symbol(struct vpux_request *r, uint32_t s, uint64_t v,
		       const char *what)
{
	const struct vpux_lf_symbol *y = &r->net->img.symbols[s];

	if (v < (uint64_t)y->min || v > (uint64_t)y->max)
		return vpux_err(VPUX_E_INVAL,
				"%ssymbol '%s': %llu outside its bounds [%lld, %lld]",
				what, y->name, (unsigned long long)v,
				(long long)y->min, (long long)y->max);
	r->sym_val[s] = v;
	r->sym_bound |= 1u << s;
	r->sym_round |= 1u << s;
	return 0;
}

int vpux_request_set_symbol(struct vpux_request *r, const char *name,
			    uint64_t value)
{
	const struct lf_image *img;
	uint32_t s;

	if (!r || !name)
		return vpux_err(VPUX_E_INVAL, "set symbol: NULL argument");
	img = &r->net->img;
	for (s = 0; s < img->n_symbols; s++)
		if (!strncmp(img->symbols[s].name, name, VPUX_LF_NAME_LEN))
			break;
	if (s == img->n_symbols)
		return vpux_err(VPUX_E_INVAL,
				"symbol '%s': the network has no such symbol (%u symbols)",
				name, img->n_symbols);
	if (running(r))
		return vpux_err(VPUX_E_STATE,
				"set symbol '%s': the request is running", name);
	return bind_symbol(r, s, value, "");
}

int vpux_request_set_input_shape(struct vpux_request *r, unsigned int i,
				 const struct vpux_shape *shape)
{
	const struct vpux_lf_tensor *t;
	uint64_t val[VPUX_LF_MAX_SYMBOLS];
	uint32_t set = 0, d, s;
	char what[64];
	int ret;

	if (!r || !shape)
		return vpux_err(VPUX_E_INVAL, "input shape: NULL argument");
	if (i >= r->net->img.hdr.num_inputs)
		return vpux_err(VPUX_E_INVAL, "input %u does not exist", i);
	t = &r->net->img.tensors[r->net->io_tensor[i]];
	if (shape->rank != t->rank)
		return vpux_err(VPUX_E_INVAL, "input %u: rank %u, the tensor '%s' has rank %u",
				i, shape->rank, t->name, t->rank);
	if (running(r))
		return vpux_err(VPUX_E_STATE, "input shape: the request is running");
	/* check everything first: a refused shape binds nothing */
	for (d = 0; d < t->rank; d++) {
		if (!(t->dyn_dims & (1u << d))) {
			if (shape->d[d] != t->dims[d])
				return vpux_err(VPUX_E_INVAL,
						"input %u: dim %u is %llu, the static dim of '%s' is %u",
						i, d, (unsigned long long)shape->d[d],
						t->name, t->dims[d]);
			continue;
		}
		s = t->dims[d];
		snprintf(what, sizeof(what), "input %u: dim %u: ", i, d);
		if (shape->d[d] < (uint64_t)r->net->img.symbols[s].min ||
		    shape->d[d] > (uint64_t)r->net->img.symbols[s].max)
			return bind_symbol(r, s, shape->d[d], what);
		if ((set & (1u << s)) && val[s] != shape->d[d])
			return vpux_err(VPUX_E_INVAL,
					"input %u: dims disagree on symbol '%s': %llu and %llu",
					i, r->net->img.symbols[s].name,
					(unsigned long long)val[s],
					(unsigned long long)shape->d[d]);
		if ((r->sym_round & (1u << s)) && r->sym_val[s] != shape->d[d])
			return vpux_err(VPUX_E_INVAL,
					"input %u: dim %u is %llu, symbol '%s' is already bound to %llu for this run",
					i, d, (unsigned long long)shape->d[d],
					r->net->img.symbols[s].name,
					(unsigned long long)r->sym_val[s]);
		set |= 1u << s;
		val[s] = shape->d[d];
	}
	for (s = 0; s < VPUX_LF_MAX_SYMBOLS; s++)
		if (set & (1u << s)) {
			ret = bind_symbol(r, s, val[s], "");
			if (ret)
				return ret;
		}
	return 0;
}

/* the host address of output @i's kernel-written dims record in @r */
static const void *dims_record(struct vpux_request *r, unsigned int i)
{
	const struct lf_dims_src *src = &r->net->out_src[i];
	const struct vpux_be_entry *e;
	const unsigned char *base;

	/* both backends map every buffer at its allocation */
	if (VPUX_LF_REGION_KIND(src->region) == VPUX_LF_RK_SCRATCH) {
		base = r->scratch.cpu;
		return base ? base + src->offset : NULL;
	}
	/* an output region (lf_validate allows no other) */
	e = &r->list[SLOT_IO + r->net->img.hdr.num_inputs +
		     VPUX_LF_REGION_INDEX(src->region)];
	base = e->bo ? e->bo->cpu : NULL;
	return base ? base + e->offset + src->offset : NULL;
}

int vpux_request_output_shape(struct vpux_request *r, unsigned int i,
			      struct vpux_shape *shape)
{
	const struct vpux_lf_tensor *t;
	struct vpux_request_status st;
	const void *rec;
	uint32_t d;

	if (!r || !shape)
		return vpux_err(VPUX_E_INVAL, "output shape: NULL argument");
	if (i >= r->net->img.hdr.num_outputs)
		return vpux_err(VPUX_E_INVAL, "output %u does not exist", i);
	t = &r->net->img.tensors[r->net->io_tensor[r->net->img.hdr.num_inputs +
						   i]];
	if (r->net->out_op[i] >= 0) {
		/* the shape the kernel wrote in the last run */
		if (!r->has_job ||
		    r->net->dev->ops->status(r->net->dev->priv, &r->job, &st) ||
		    st.state != VPUX_REQ_DONE)
			return vpux_err(VPUX_E_STATE,
					"output %u '%s': its shape is the one SHAVE op %d writes, and the request has no completed run",
					i, t->name, r->net->out_op[i]);
		rec = dims_record(r, i);
		if (!rec)
			return vpux_err(VPUX_E_NOMEM,
					"output %u '%s': cannot map the buffer of its dims",
					i, t->name);
		return vpux_kernel_shape(r->net, i, rec, shape);
	}
	memset(shape, 0, sizeof(*shape));
	shape->rank = t->rank;
	for (d = 0; d < t->rank; d++) {
		if (!(t->dyn_dims & (1u << d))) {
			shape->d[d] = t->dims[d];
			continue;
		}
		if (!(r->sym_bound & (1u << t->dims[d])))
			return vpux_err(VPUX_E_INVAL,
					"output %u: dim %u: symbol '%s' is not bound",
					i, d, r->net->img.symbols[t->dims[d]].name);
		shape->d[d] = r->sym_val[t->dims[d]];
	}
	return 0;
}

int vpux_request_run_reference(struct vpux_request *r,
			       const void *const *inputs,
			       void *const *outputs)
{
	uint32_t s, no;
	int ret;

	if (!r)
		return vpux_err(VPUX_E_INVAL, "reference: NULL request");
	for (s = 0; s < r->net->img.n_symbols; s++)
		if (!(r->sym_bound & (1u << s)))
			return vpux_err(VPUX_E_INVAL,
					"reference: symbol '%s' is not bound",
					r->net->img.symbols[s].name);
	no = r->net->img.hdr.num_outputs;
	if (!r->ref_shape) {
		r->ref_shape = calloc(no ? no : 1, sizeof(*r->ref_shape));
		if (!r->ref_shape)
			return vpux_err(VPUX_E_NOMEM, "reference: out of memory");
	}
	r->ref_ok = 0;
	ret = vpux_run_reference_shapes(r->net, r->sym_val, inputs, outputs,
					r->ref_shape);
	r->ref_ok = !ret;
	return ret;
}

int vpux_request_reference_output_shape(struct vpux_request *r,
					unsigned int i,
					struct vpux_shape *shape)
{
	if (!r || !shape)
		return vpux_err(VPUX_E_INVAL, "reference output shape: NULL argument");
	if (i >= r->net->img.hdr.num_outputs)
		return vpux_err(VPUX_E_INVAL, "output %u does not exist", i);
	if (!r->ref_ok)
		return vpux_err(VPUX_E_STATE,
				"reference output shape: no successful vpux_request_run_reference()");
	*shape = r->ref_shape[i];
	return 0;
}

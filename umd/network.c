// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loading a network: parse + validate the loadable, check it against the
 * device, copy weights and kernel arguments into device memory, build the
 * shared task memory (and for a plan, have the engine core check it at
 * the symbols' bounds). The loaded network is never written again.
 */
#include <fcntl.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dla_limits.h"
#include "dla_user.h"
#include <drm/vpux_task.h>
#include "err.h"
#include "lf_hw.h"
#include "priv.h"
#include "vpux_dpu_rules.h"
#include "vpux_regs.h"

static int upload(struct vpux_device *dev, const void *src, uint64_t size,
		  struct vpux_bo *bo)
{
	int ret = dev->ops->bo_alloc(dev->priv, size ? size : 1,
				     VPUX_BE_BO_READONLY, bo);
	void *cpu;

	if (ret)
		return ret;
	cpu = dev->ops->bo_map(dev->priv, bo);
	if (!cpu) {
		dev->ops->bo_free(dev->priv, bo);
		return vpux_err(VPUX_E_NOMEM, "cannot map a device buffer");
	}
	if (size)
		memcpy(cpu, src, size);
	return 0;
}

/*
 * The kernel-argument buffer: .vpux.kargs, then (1.5) the kernel images
 * and the invocations' RW data, each 8-byte aligned (lf_kcode_base()).
 */
static int upload_kargs(struct vpux_device *dev, const struct lf_image *img,
			struct vpux_bo *bo)
{
	uint8_t *buf;
	int ret;

	if (!img->n_kernels)
		return upload(dev, img->kargs, img->kargs_size, bo);
	buf = calloc(1, lf_kbuf_size(img));
	if (!buf)
		return vpux_err(VPUX_E_NOMEM, "load: out of memory");
	if (img->kargs_size)
		memcpy(buf, img->kargs, img->kargs_size);
	if (img->kcode_size)
		memcpy(buf + lf_kcode_base(img), img->kcode, img->kcode_size);
	if (img->kdata_size)
		memcpy(buf + lf_kdata_base(img), img->kdata, img->kdata_size);
	ret = upload(dev, buf, lf_kbuf_size(img), bo);
	free(buf);
	return ret;
}

static void net_free(struct vpux_network *net)
{
	struct vpux_device *dev = net->dev;

	if (net->weights.size)
		dev->ops->bo_free(dev->priv, &net->weights);
	if (net->kargs.size)
		dev->ops->bo_free(dev->priv, &net->kargs);
	if (net->task.size)
		dev->ops->bo_free(dev->priv, &net->task);
	lf_image_free(&net->img);
	free(net->io_tensor);
	free(net->out_op);
	free(net->out_src);
	host_io_fini(&net->hio);
	free(net);
}

/*
 * What the device takes in one task (a kernel's limits are lower than
 * what the loadable format and the in-process core allow): a network
 * beyond them would load and then fail at every submit.
 */
static int check_limits(struct vpux_device *dev, const struct lf_image *img,
			unsigned int slots)
{
	struct vpux_be_limits lim = {
		.max_ops = DLA_MAX_OPS_PER_TASK,
		.max_barriers = DLA_MAX_BARRIERS,
		.max_deps = DLA_MAX_DEPS_PER_TASK,
		.max_addr_entries = DLA_MAX_ADDR_ENTRIES,
	};
	uint32_t ops = 0, waits = 0, updates = 0, i;
	unsigned int k;

	lim.plans = 0;
	if (dev->ops->limits)
		dev->ops->limits(dev->priv, &lim);
	for (k = 0; k < LF_KINDS; k++) {
		ops += lf_op_count(img, k);
		for (i = 0; i < lf_op_count(img, k); i++) {
			waits += lf_op_deps(img, k, i)->num_waits;
			updates += lf_op_deps(img, k, i)->num_updates;
		}
	}
	if (ops > lim.max_ops)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"ops: %u in all, the device takes %u per task",
				ops, lim.max_ops);
	if (img->n_barriers > lim.max_barriers)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: %u barriers, the device takes %u per task",
				VPUX_LF_SEC_BARRIERS, img->n_barriers,
				lim.max_barriers);
	if (waits > lim.max_deps || updates > lim.max_deps)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"ops: %u wait and %u update edges, the device takes %u each per task",
				waits, updates, lim.max_deps);
	if (img->n_blocks && !lim.plans)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: the network is a plan (dynamic shapes) and the %s device lacks DRM_VPUX_CAP_PLANS (vpux_accel uapi 1.9)",
				VPUX_LF_SEC_PLAN_BLOCKS, dev->ops->name);
	if (slots > lim.max_addr_entries)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: too many inputs/outputs: %u address-list entries, the device takes %u",
				VPUX_LF_SEC_HEADER, slots, lim.max_addr_entries);
	return 0;
}

/*
 * The engine core's own checks of a plan, run at load: the task memory a
 * plan network submits is prepared by the core (dla_user_check(), the
 * path of the in-process backend) once with every symbol at its min and
 * once at its max, against address-list entries of the loadable's exact
 * region and tensor sizes. A plan the core would refuse at some submit
 * (a template leaving its buffer at max, a loop count past the core's
 * limit, a malformed record) is refused at load instead, whichever
 * backend runs it. The core runs on a register file of its own: the
 * identity of the NPU model's default device, no engine ever started.
 */
static uint32_t pc_reg_read(void *hw, uint32_t off)
{
	(void)hw;
	switch (off) {
	case VPUX_REG_ID:
		return VPUX_ID_MAGIC;
	case VPUX_REG_REVISION:
		return VPUX_HW_REV_MAJOR << 16;
	case VPUX_REG_ENGINES:
		return 2u | 2u << 8 | 2u << 16;	/* DMA, DPU, SHAVE */
	case VPUX_REG_TILES:
		return VPUX_LF_CMX_TILES;
	case VPUX_REG_CMX_SIZE:
		return VPUX_LF_CMX_TILE_SIZE;
	case VPUX_REG_CMX_BASE_LO:
		return (uint32_t)VPUX_DEFAULT_CMX_BASE;
	case VPUX_REG_CMX_BASE_HI:
		return (uint32_t)(VPUX_DEFAULT_CMX_BASE >> 32);
	case VPUX_REG_CTX_SLOTS:
		return VPUX_MAX_CTX_SLOTS;
	default:
		return 0;
	}
}

static void pc_reg_write(void *hw, uint32_t off, uint32_t val)
{
	(void)hw;
	(void)off;
	(void)val;
}

static const struct dla_user_hw_ops pc_ops = { pc_reg_read, pc_reg_write };
static struct dla_user_dev *pc_dev;
static pthread_once_t pc_once = PTHREAD_ONCE_INIT;

static void pc_init(void)
{
	/* prepare only: no bottom half, never an interrupt */
	pc_dev = dla_user_create(&pc_ops, NULL, DLA_USER_INLINE_BH);
}

__attribute__((destructor))
static void pc_fini(void)
{
	dla_user_destroy(pc_dev);
	pc_dev = NULL;
}

int vpux_plan_core_check(const struct vpux_network *net, const void *task)
{
	static const char *const at[2] = { "min", "max" };
	const struct lf_image *img = &net->img;
	struct dla_user_buf l[DLA_MAX_ADDR_ENTRIES];
	uint64_t sym[VPUX_LF_MAX_SYMBOLS + 1];
	unsigned int n = net->n_slots + 1, i, c;
	char msg[512];
	int r;

	pthread_once(&pc_once, pc_init);
	if (!pc_dev)
		return vpux_err(VPUX_E_NOMEM,
				"load: cannot set up the engine core's plan check");
	if (n > DLA_MAX_ADDR_ENTRIES)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"%s: %u address-list entries, the engine core takes %u",
				VPUX_LF_SEC_HEADER, n, DLA_MAX_ADDR_ENTRIES);
	memset(l, 0, sizeof(l));
	for (i = 0; i < n; i++)
		l[i].va = (uint64_t)(i + 1) << 32;
	l[SLOT_TASK].size = net->task_size;
	l[SLOT_TASK].cpu = (void *)task;
	l[SLOT_WEIGHTS].size = img->hdr.weights_size;
	/* with kernels (1.5): their images and RW data too, as uploaded */
	l[SLOT_KARGS].size = img->n_kernels ? lf_kbuf_size(img) :
			     img->kargs_size;
	/* the device only reads these (read-only BOs): a write is refused */
	l[SLOT_TASK].flags = DLA_USER_BUF_READONLY;
	l[SLOT_WEIGHTS].flags = DLA_USER_BUF_READONLY;
	l[SLOT_KARGS].flags = DLA_USER_BUF_READONLY;
	l[SLOT_SCRATCH].size = img->hdr.scratch_size;
	for (i = SLOT_IO; i < net->n_slots; i++)
		l[i].size = img->tensors[net->io_tensor[i - SLOT_IO]].size;
	l[net->n_slots].size = sizeof(sym);
	l[net->n_slots].cpu = sym;
	l[net->n_slots].flags = DLA_USER_BUF_READONLY;
	for (c = 0; c < 2; c++) {
		memset(sym, 0, sizeof(sym));
		for (i = 0; i < img->n_symbols; i++)
			sym[i] = (uint64_t)(c ? img->symbols[i].max :
					    img->symbols[i].min);
		r = dla_user_check(pc_dev, l, n);
		if (r) {
			snprintf(msg, sizeof(msg), "%s", dla_user_last_error());
			msg[strcspn(msg, "\n")] = 0;
			return vpux_err(VPUX_E_FORMAT,
					"%s: the engine core refuses the plan with every symbol at its %s (dla error %d: %s)",
					VPUX_LF_SEC_PLAN_BLOCKS, at[c], r, msg);
		}
	}
	return 0;
}

/* task copies at most (requests of one network running at once) */
#define MAX_PLACE 4u

/*
 * Tile sets (Documentation/libvpux.rst, "Pipelined requests"): the CMX
 * tensors of @net use tiles below tile_span (the highest + 1); when the
 * device's tiles hold that span k > 1 times and the backend orders per
 * tile, the task memory gets k copies, copy j on tiles j * tile_span ..
 * (j + 1) * tile_span - 1, so k requests run at once on disjoint tiles.
 * Otherwise one copy, whose requests run one after another.
 */
static int place_tiles(struct vpux_device *dev, struct vpux_network *net)
{
	struct vpux_device_props pr;
	unsigned int n = 1, tiles;

	net->task_stride = net->task_size <= UINT32_MAX - 63u ?
			   (net->task_size + 63u) & ~63u : net->task_size;
	net->tile_span = net->tile_mask ?
			 64u - (unsigned int)__builtin_clzll(net->tile_mask) : 0;
	if (net->tile_mask && dev->ops->cmx_per_tile && dev->ops->props) {
		memset(&pr, 0, sizeof(pr));
		pr.size = sizeof(pr);
		dev->ops->props(dev->priv, &pr);
		tiles = pr.num_tiles < VPUX_DEV_TILES ? pr.num_tiles :
			VPUX_DEV_TILES;
		n = tiles / net->tile_span;
		if (n > MAX_PLACE)
			n = MAX_PLACE;
		if (!n)
			n = 1;	/* the engine core refuses it: its error */
	}
	if ((uint64_t)net->task_stride * n > UINT32_MAX)
		n = 1;
	net->n_place = n;
	return 0;
}

int vpux_network_load(struct vpux_device *dev, const void *data, size_t size,
		      struct vpux_network **out)
{
	struct vpux_device_info info;
	struct vpux_network *net;
	struct lf_image *img;
	uint32_t i;
	int ret;

	if (!dev || !data || !out)
		return vpux_err(VPUX_E_INVAL, "load: NULL argument");
	*out = NULL;
	net = calloc(1, sizeof(*net));
	if (!net)
		return vpux_err(VPUX_E_NOMEM, "load: out of memory");
	net->dev = dev;
	img = &net->img;
	ret = lf_parse(data, size, img);
	if (!ret)
		ret = lf_validate(img);
	if (!ret && !dev->ops->query(dev->priv, &info) &&
	    (img->hdr.target != info.target ||
	     (img->hdr.caps & ~info.caps)))
		ret = vpux_err(VPUX_E_UNSUPPORTED,
			       "%s: target %u caps 0x%llx: the device is target %u caps 0x%llx",
			       VPUX_LF_SEC_HEADER, img->hdr.target,
			       (unsigned long long)img->hdr.caps, info.target,
			       (unsigned long long)info.caps);
	net->n_slots = SLOT_IO + img->hdr.num_inputs + img->hdr.num_outputs;
	/*
	 * The symbol buffer, one past the fixed slots: a plan's, and that of
	 * a static network with symbols (its symbols-region tensors)
	 */
	net->n_list = net->n_slots + (img->n_blocks || img->n_symbols ? 1 : 0);
	if (!ret)
		ret = check_limits(dev, img, net->n_list);
	/* the optional .vpux.io/.vpux.ioq: the host boundary (API 1.7) */
	if (!ret)
		ret = host_io_read(img, data, size, 0, &net->hio);
	if (!ret) {
		net->io_tensor = calloc(net->n_slots, sizeof(uint32_t));
		if (!net->io_tensor)
			ret = vpux_err(VPUX_E_NOMEM, "load: out of memory");
	}
	for (i = 0; !ret && i < img->n_tensors; i++) {
		const struct vpux_lf_tensor *t = &img->tensors[i];
		uint32_t k = VPUX_LF_REGION_KIND(t->region);

		if (k == VPUX_LF_RK_CMX) {
			/* lf_validate: below VPUX_LF_CMX_TILES */
			net->uses_cmx = 1;
			net->tile_mask |= 1ull << VPUX_LF_REGION_INDEX(t->region);
		}
		if (t->flags & VPUX_LF_T_IO)
			net->io_tensor[VPUX_LF_REGION_INDEX(t->region) +
				       (k == VPUX_LF_RK_OUTPUT ?
					img->hdr.num_inputs : 0)] = i;
	}
	/*
	 * an ELF kernel runs on its invocation's tile, which moves with the
	 * tile set when the network has CMX tensors (task.c elf_rec())
	 */
	for (i = 0; !ret && net->uses_cmx && i < img->n_kinvs; i++)
		net->tile_mask |= 1ull << img->kinvs[i].tile;
	/* outputs whose shape a SHAVE kernel writes (lf_validate checked) */
	if (!ret) {
		uint32_t no = img->hdr.num_outputs;

		net->out_op = calloc(no ? no : 1, sizeof(*net->out_op));
		net->out_src = calloc(no ? no : 1, sizeof(*net->out_src));
		if (!net->out_op || !net->out_src)
			ret = vpux_err(VPUX_E_NOMEM, "load: out of memory");
		for (i = 0; !ret && i < no; i++)
			net->out_op[i] = lf_output_dims_src(img,
				net->io_tensor[img->hdr.num_inputs + i],
				&net->out_src[i]);
	}
	if (!ret)
		ret = upload(dev, img->weights, img->hdr.weights_size,
			     &net->weights);
	if (!ret)
		ret = upload_kargs(dev, img, &net->kargs);
	if (!ret) {
		img->weights = net->weights.cpu;
		img->kargs = net->kargs.cpu;
		if (img->n_kernels) {	/* 1.5: after the arguments */
			img->kcode = img->kargs + lf_kcode_base(img);
			img->kdata = img->kargs + lf_kdata_base(img);
		}
		net->task_size = vpux_task_size(img);
		if (img->n_blocks && net->task_size -
		    sizeof(struct dla_task_desc) > DLA_PLAN_SIZE_MAX)
			ret = vpux_err(VPUX_E_FORMAT,
				       "%s: the plan takes %zu bytes of task memory, the engine core reads at most %u",
				       VPUX_LF_SEC_PLAN_BLOCKS,
				       net->task_size -
				       sizeof(struct dla_task_desc),
				       DLA_PLAN_SIZE_MAX);
		else
			ret = place_tiles(dev, net);
		if (!ret)
			ret = dev->ops->bo_alloc(dev->priv,
						 (uint64_t)net->task_stride *
						 net->n_place,
						 VPUX_BE_BO_READONLY,
						 &net->task);
	}
	if (!ret) {
		unsigned char *tm = dev->ops->bo_map(dev->priv, &net->task);

		for (i = 0; i < net->n_place; i++)
			vpux_task_build(net, tm + (size_t)i * net->task_stride,
					i * net->tile_span);
		if (img->n_blocks)
			ret = vpux_plan_core_check(net, net->task.cpu);
	}
	if (ret) {
		img->weights = NULL;
		img->kargs = NULL;
		img->kcode = img->kdata = NULL;
		net_free(net);
		return ret;
	}
	*out = net;
	return 0;
}

int vpux_network_load_file(struct vpux_device *dev, const char *path,
			   struct vpux_network **out)
{
	struct stat st;
	void *p;
	int fd, ret;

	if (!path)
		return vpux_err(VPUX_E_INVAL, "load: no path");
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return vpux_err(VPUX_E_IO, "%s: cannot open", path);
	}
	if (!st.st_size) {
		close(fd);
		return vpux_err(VPUX_E_FORMAT, "%s: empty file", path);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return vpux_err(VPUX_E_IO, "%s: cannot map", path);
	ret = vpux_network_load(dev, p, (size_t)st.st_size, out);
	munmap(p, (size_t)st.st_size);
	return ret;
}

void vpux_network_unload(struct vpux_network *net)
{
	if (net)
		net_free(net);
}

unsigned int vpux_network_num_inputs(const struct vpux_network *net)
{
	return net ? net->img.hdr.num_inputs : 0;
}

unsigned int vpux_network_num_outputs(const struct vpux_network *net)
{
	return net ? net->img.hdr.num_outputs : 0;
}

unsigned int vpux_network_num_ops(const struct vpux_network *net,
				  unsigned int kind)
{
	return net ? lf_op_count(&net->img, kind) : 0;
}

/*
 * the tensor @r names, "" for no operand: its full name (a 1.4
 * loadable's .vpux.names) when it fits, else the record's unique short
 * one, as vpux_tensor_desc.name
 */
static void ref_name(const struct lf_image *img, const struct vpux_lf_ref *r,
		     char *out, size_t size)
{
	const char *full;

	out[0] = 0;
	if (!r->size || r->tensor >= img->n_tensors)
		return;
	full = lf_tensor_name(img, r->tensor);
	if (strlen(full) < size) {
		strcpy(out, full);
		return;
	}
	memcpy(out, img->tensors[r->tensor].name,
	       size < VPUX_LF_NAME_LEN ? size : VPUX_LF_NAME_LEN);
	out[size - 1] = 0;
}

int vpux_network_op_info(const struct vpux_network *net, unsigned int kind,
			 unsigned int index, struct vpux_op_info *info)
{
	static const char *const dpu_ops[] = {
		"conv", "matmul", "add", "mul", "maxpool", "avgpool", "sub",
	};
	static const char *const kernels[] = {
		"shave", "clamp", "softmax", "sigmoid", "tanh", "permute",
		"quantize",
	};
	const struct vpux_lf_deps *dp;
	const struct lf_image *img;
	unsigned int i;

	if (!net || !info || kind >= LF_KINDS ||
	    index >= lf_op_count(&net->img, kind))
		return vpux_err(VPUX_E_INVAL, "op info: no such op");
	img = &net->img;
	memset(info, 0, sizeof(*info));
	if (kind == LF_DMA) {
		const struct vpux_lf_dma *o = &img->dma[index];

		strcpy(info->type, "copy");
		ref_name(img, &o->dst, info->output, sizeof(info->output));
		info->bytes = (uint64_t)o->src.size + o->dst.size;
	} else if (kind == LF_DPU) {
		const struct vpux_lf_dpu *o = &img->dpu[index];
		struct vpux_hw_dpu_desc hd;
		struct vpux_dpu_extents ext;

		snprintf(info->type, sizeof(info->type), "%s",
			 o->op < sizeof(dpu_ops) / sizeof(dpu_ops[0]) ?
			 dpu_ops[o->op] : "dpu");
		ref_name(img, &o->out, info->output, sizeof(info->output));
		info->bytes = (uint64_t)o->in.size + o->in2.size +
			      o->bias.size + o->quant.size + o->out.size;
		lf_dpu_to_hw(o, &hd);
		memset(&ext, 0, sizeof(ext));
		if (vpux_dpu_check(&hd, &ext) == VPUX_DPU_RULE_OK)
			info->macs = ext.macs;
	} else {
		const struct vpux_lf_shave *o = &img->shave[index];

		snprintf(info->type, sizeof(info->type), "%s",
			 o->kernel_id < sizeof(kernels) / sizeof(kernels[0]) ?
			 kernels[o->kernel_id] : "shave");
		ref_name(img, &o->windows[1], info->output,
			 sizeof(info->output));
		for (i = 0; i < VPUX_LF_MAX_WINDOWS; i++)
			info->bytes += o->windows[i].size;
	}
	dp = lf_op_deps(img, kind, index);
	info->num_waits = dp->num_waits;
	info->num_updates = dp->num_updates;
	for (i = 0; i < dp->num_waits && i < 8; i++)
		info->waits[i] = dp->waits[i];
	for (i = 0; i < dp->num_updates && i < 8; i++)
		info->updates[i] = dp->updates[i];
	return 0;
}

static void fill_desc(const struct lf_image *img,
		      const struct vpux_lf_tensor *dyn,
		      struct vpux_tensor_desc *d)
{
	struct vpux_lf_tensor tmax;
	const struct vpux_lf_tensor *t = &tmax;
	uint32_t i;

	/* a dynamic dim: its symbol's max (the layout's) */
	lf_tensor_resolve(img, dyn, NULL, &tmax);
	memset(d, 0, sizeof(*d));
	/*
	 * the full name when it fits (API 1.8), else the record's unique
	 * short one: either finds the tensor (vpux_network_find_input())
	 */
	if (strlen(lf_tensor_name(img, (uint32_t)(dyn - img->tensors))) <
	    sizeof(d->name))
		strcpy(d->name, lf_tensor_name(img,
					       (uint32_t)(dyn - img->tensors)));
	else
		memcpy(d->name, t->name, sizeof(d->name));
	d->name[sizeof(d->name) - 1] = 0;
	d->data_type = t->data_type;
	d->rank = t->rank;
	d->order.code = t->dims_order;
	d->shape.rank = d->strides.rank = t->rank;
	for (i = 0; i < t->rank; i++) {
		d->shape.d[i] = t->dims[i];
		d->strides.bits[i] = t->strides[i];
	}
	d->size = t->size;
	d->zero_point = t->zero_point;
	d->scale_mult = t->scale_mult;
	d->scale_shift = t->scale_shift;
}

int vpux_network_input(const struct vpux_network *net, unsigned int i,
		       struct vpux_tensor_desc *desc)
{
	if (!net || !desc || i >= net->img.hdr.num_inputs)
		return vpux_err(VPUX_E_INVAL, "input %u does not exist", i);
	fill_desc(&net->img, &net->img.tensors[net->io_tensor[i]], desc);
	return 0;
}

int vpux_network_output(const struct vpux_network *net, unsigned int i,
			struct vpux_tensor_desc *desc)
{
	if (!net || !desc || i >= net->img.hdr.num_outputs)
		return vpux_err(VPUX_E_INVAL, "output %u does not exist", i);
	fill_desc(&net->img, &net->img.tensors[net->io_tensor[net->img.hdr.num_inputs +
								 i]], desc);
	return 0;
}

int vpux_network_query(const struct vpux_network *net,
		       struct vpux_network_info *info)
{
	const struct lf_image *img;
	unsigned int k;

	if (!net || !info)
		return vpux_err(VPUX_E_INVAL, "network query: NULL argument");
	img = &net->img;
	memset(info, 0, sizeof(*info));
	memcpy(info->name, img->hdr.name, sizeof(info->name));
	info->name[sizeof(info->name) - 1] = 0;
	info->version_major = img->hdr.version_major;
	info->version_minor = img->hdr.version_minor;
	info->num_inputs = img->hdr.num_inputs;
	info->num_outputs = img->hdr.num_outputs;
	for (k = 0; k < LF_KINDS; k++)
		info->num_ops[k] = lf_op_count(img, k);
	info->num_barriers = img->n_barriers;
	info->num_symbols = img->n_symbols;
	info->weights_bytes = net->weights.size + net->kargs.size +
			      net->task.size;
	info->request_bytes = img->hdr.scratch_size ?
			      (img->hdr.scratch_size + 4095) & ~4095ull : 4096;
	return 0;
}

int vpux_network_symbol(const struct vpux_network *net, unsigned int i,
			struct vpux_symbol_info *info)
{
	const struct vpux_lf_symbol *y;

	if (!net || !info || i >= net->img.n_symbols)
		return vpux_err(VPUX_E_INVAL, "symbol %u does not exist (%u symbols)",
				i, net ? net->img.n_symbols : 0);
	y = &net->img.symbols[i];
	memset(info, 0, sizeof(*info));
	memcpy(info->name, y->name, sizeof(info->name));
	info->name[sizeof(info->name) - 1] = 0;
	info->kind = y->kind;
	info->width = y->width;
	info->min = (uint64_t)y->min;
	info->max = (uint64_t)y->max;
	return 0;
}

int vpux_network_dim_symbol(const struct vpux_network *net, int is_output,
			    unsigned int index, unsigned int dim, int *symbol)
{
	const struct vpux_lf_tensor *t;
	unsigned int n;

	if (!net || !symbol)
		return vpux_err(VPUX_E_INVAL, "dim symbol: NULL argument");
	n = is_output ? net->img.hdr.num_outputs : net->img.hdr.num_inputs;
	if (index >= n)
		return vpux_err(VPUX_E_INVAL, "%s %u does not exist",
				is_output ? "output" : "input", index);
	t = &net->img.tensors[net->io_tensor[index + (is_output ?
						     net->img.hdr.num_inputs :
						     0)]];
	if (dim >= t->rank)
		return vpux_err(VPUX_E_INVAL, "%s %u: dim %u not below its rank %u",
				is_output ? "output" : "input", index, dim,
				t->rank);
	*symbol = t->dyn_dims & (1u << dim) ? (int)t->dims[dim] : -1;
	return 0;
}

int vpux_kernel_shape(const struct vpux_network *net, unsigned int i,
		      const void *rec, struct vpux_shape *shape)
{
	const struct lf_image *img = &net->img;
	uint32_t t = net->io_tensor[img->hdr.num_inputs + i], bad, d;
	const struct vpux_lf_tensor *ot = &img->tensors[t];
	uint64_t dims[VPUX_LF_MAX_RANK];

	if (lf_output_dims_read(img, t, rec, dims, &bad)) {
		struct vpux_lf_tensor bound;

		lf_tensor_resolve(img, ot, NULL, &bound);
		return vpux_err(VPUX_E_DEVICE,
				"output %u '%s': dim %u is %llu, outside 1..%u: SHAVE op %d wrote a shape outside the tensor's bounds",
				i, ot->name, bad, (unsigned long long)dims[bad],
				bound.dims[bad], net->out_op[i]);
	}
	memset(shape, 0, sizeof(*shape));
	shape->rank = ot->rank;
	for (d = 0; d < ot->rank; d++)
		shape->d[d] = dims[d];
	return 0;
}

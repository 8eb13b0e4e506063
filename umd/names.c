// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Named tensors (API 1.8): an input's or output's full name (a 1.4
 * loadable's .vpux.names, else the ONNX name of .vpux.io, else the tensor
 * record's), lookup by name, and NVDLA's setInputTensorDesc on top of
 * vpux_request_set_input_shape().
 */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "priv.h"

static uint32_t io_index(const struct vpux_network *net, int is_output,
			 unsigned int i)
{
	return net->io_tensor[i + (is_output ? net->img.hdr.num_inputs : 0)];
}

/* the full name of input/output @i (in range) */
static const char *full_name(const struct vpux_network *net, int is_output,
			     unsigned int i)
{
	const struct lf_image *img = &net->img;
	uint32_t t = io_index(net, is_output, i);
	const char *n = lf_tensor_name(img, t);

	/* no 1.4 name: the ONNX name of .vpux.io (an older compiled file) */
	if (n == img->tensors[t].name && net->hio.has_section)
		return is_output ? net->hio.outputs[i].name :
				   net->hio.inputs[i].name;
	return n;
}

int vpux_network_io_name(const struct vpux_network *net, int is_output,
			 unsigned int i, const char **name)
{
	const char *what = is_output ? "output" : "input";

	if (!net || !name)
		return vpux_err(VPUX_E_INVAL, "io name: NULL argument");
	if (i >= (is_output ? net->img.hdr.num_outputs :
		  net->img.hdr.num_inputs))
		return vpux_err(VPUX_E_INVAL, "%s %u does not exist", what, i);
	*name = full_name(net, is_output, i);
	return 0;
}

static int find(const struct vpux_network *net, int is_output,
		const char *name, unsigned int *index)
{
	const char *what = is_output ? "output" : "input";
	unsigned int n, i;
	char list[256];
	size_t o = 0;

	if (!net || !name || !index)
		return vpux_err(VPUX_E_INVAL, "find %s: NULL argument", what);
	n = is_output ? net->img.hdr.num_outputs : net->img.hdr.num_inputs;
	for (i = 0; i < n; i++)
		if (!strcmp(full_name(net, is_output, i), name)) {
			*index = i;
			return 0;
		}
	/* then the record's short name (what vpux-asm text calls it) */
	for (i = 0; i < n; i++)
		if (!strncmp(net->img.tensors[io_index(net, is_output, i)].name,
			     name, VPUX_LF_NAME_LEN)) {
			*index = i;
			return 0;
		}
	list[0] = 0;
	for (i = 0; i < n && o < sizeof(list); i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s'%s'",
				      i ? ", " : "",
				      full_name(net, is_output, i));
	return vpux_err(VPUX_E_INVAL, "no %s named '%s' (the %ss: %s)", what,
			name, what, n ? list : "none");
}

int vpux_network_find_input(const struct vpux_network *net, const char *name,
			    unsigned int *index)
{
	return find(net, 0, name, index);
}

int vpux_network_find_output(const struct vpux_network *net, const char *name,
			     unsigned int *index)
{
	return find(net, 1, name, index);
}

int vpux_request_set_input_desc(struct vpux_request *req, unsigned int i,
				const struct vpux_tensor_desc *desc)
{
	struct vpux_tensor_desc d;
	uint32_t k;
	int ret;

	if (!req || !desc)
		return vpux_err(VPUX_E_INVAL, "input desc: NULL argument");
	ret = vpux_network_input(req->net, i, &d);
	if (ret)
		return ret;
#define SAME(f, fmt) do {						\
	if (desc->f != d.f)						\
		return vpux_err(VPUX_E_INVAL,				\
				"input %u: desc field " #f " " fmt	\
				", the network's is " fmt, i,		\
				(long long)desc->f, (long long)d.f);	\
	} while (0)
	SAME(data_type, "%lld");
	SAME(rank, "%lld");
	SAME(order.code, "0x%llx");
	SAME(size, "%lld");
	SAME(zero_point, "%lld");
	SAME(scale_mult, "%lld");
	SAME(scale_shift, "%lld");
	if (desc->shape.rank != d.rank || desc->strides.rank != d.rank)
		return vpux_err(VPUX_E_INVAL,
				"input %u: desc field %s.rank %u, the tensor has rank %u",
				i, desc->shape.rank != d.rank ? "shape" :
				"strides", desc->shape.rank != d.rank ?
				desc->shape.rank : desc->strides.rank, d.rank);
	for (k = 0; k < d.rank; k++)
		if (desc->strides.bits[k] != d.strides.bits[k])
			return vpux_err(VPUX_E_INVAL,
					"input %u: desc field strides.bits[%u] %llu, the network's is %llu (the layout is the max shape's)",
					i, k,
					(unsigned long long)desc->strides.bits[k],
					(unsigned long long)d.strides.bits[k]);
#undef SAME
	return vpux_request_set_input_shape(req, i, &desc->shape);
}

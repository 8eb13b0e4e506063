// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * API 1.8: the library's version, the list of devices, a device's
 * properties, buffers from a heap with flags, CPU sync and dma-bufs.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "priv.h"

_Static_assert(sizeof(struct vpux_device_props) == VPUX_DEVICE_PROPS_SIZE_1_8,
	       "struct vpux_device_props of API 1.8 changed");
_Static_assert(sizeof(struct vpux_buffer_params) == VPUX_BUFFER_PARAMS_SIZE_1_8,
	       "struct vpux_buffer_params of API 1.8 changed");

/* the vpux_accel nodes one enumeration looks at (/dev/accel/accel0..63) */
#define EXT_MAX_NODES	64u

uint32_t vpux_version(void)
{
	return VPUX_API_VERSION;
}

int vpux_device_count(unsigned int *count)
{
	unsigned int nodes[EXT_MAX_NODES];

	vpux_err_clear();
	if (!count)
		return vpux_err(VPUX_E_INVAL, "device count: NULL argument");
	*count = vpux_ioctl_nodes(nodes, EXT_MAX_NODES) + 1;
	return 0;
}

int vpux_device_name(unsigned int index, char *name, size_t len)
{
	unsigned int nodes[EXT_MAX_NODES], n;
	char buf[64];

	vpux_err_clear();
	if (!name)
		return vpux_err(VPUX_E_INVAL, "device name: NULL argument");
	n = vpux_ioctl_nodes(nodes, EXT_MAX_NODES);
	if (index > n)
		return vpux_err(VPUX_E_NODEV,
				"device index %u: there are %u devices (%u vpux_accel node%s, then the in-process model)",
				index, n + 1, n, n == 1 ? "" : "s");
	if (index < n)
		snprintf(buf, sizeof(buf), "/dev/accel/accel%u", nodes[index]);
	else
		snprintf(buf, sizeof(buf), "inproc");
	if (strlen(buf) >= len)
		return vpux_err(VPUX_E_INVAL,
				"device name: \"%s\" needs %zu bytes, %zu given",
				buf, strlen(buf) + 1, len);
	memcpy(name, buf, strlen(buf) + 1);
	return 0;
}

int vpux_device_open_index(unsigned int index, struct vpux_device **out)
{
	char name[64];
	int ret;

	if (!out)
		return vpux_err(VPUX_E_INVAL, "device: no result pointer");
	*out = NULL;
	ret = vpux_device_name(index, name, sizeof(name));
	return ret ? ret : vpux_device_open(name, out);
}

int vpux_device_get_props(struct vpux_device *dev,
			  struct vpux_device_props *props)
{
	struct vpux_device_props pr;
	struct vpux_device_info info;
	uint32_t size;
	int ret;

	if (!dev || !props)
		return vpux_err(VPUX_E_INVAL, "device props: NULL argument");
	size = props->size;
	if (size < VPUX_DEVICE_PROPS_SIZE_1_8)
		return vpux_err(VPUX_E_INVAL,
				"device props: size %u, below the %u bytes of API 1.8 (set it to sizeof(struct vpux_device_props))",
				size, VPUX_DEVICE_PROPS_SIZE_1_8);
	ret = vpux_device_query(dev, &info);
	if (ret)
		return ret;
	memset(&pr, 0, sizeof(pr));
	pr.size = size < sizeof(pr) ? size : (uint32_t)sizeof(pr);
	snprintf(pr.name, sizeof(pr.name), "%s", dev->name);
	memcpy(pr.backend, info.backend, sizeof(pr.backend));
	pr.target = info.target;
	pr.caps = info.caps;
	memcpy(pr.engines, info.engines, sizeof(pr.engines));
	pr.max_ops = info.max_ops;
	pr.max_barriers = info.max_barriers;
	dev->ops->props(dev->priv, &pr);
	/* a newer caller's fields this library does not know read 0 */
	if (size > sizeof(pr))
		memset((char *)props + sizeof(pr), 0, size - sizeof(pr));
	memcpy(props, &pr, sizeof(pr) < size ? sizeof(pr) : size);
	props->size = pr.size;
	return 0;
}

int vpux_device_cycles(struct vpux_device *dev, uint64_t *cycles)
{
	if (!dev || !cycles)
		return vpux_err(VPUX_E_INVAL, "device cycles: NULL argument");
	*cycles = 0;
	if (!dev->ops->cycles)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"device cycles: the %s backend cannot read the device's cycle counter",
				dev->ops->name);
	return dev->ops->cycles(dev->priv, cycles);
}

/* Bytes of @p past @known that are not zero? */
static int tail_nonzero(const void *p, size_t size, size_t known)
{
	const unsigned char *c = p;
	size_t i;

	for (i = known; i < size; i++)
		if (c[i])
			return 1;
	return 0;
}

int vpux_buffer_alloc_ex(struct vpux_device *dev,
			 const struct vpux_buffer_params *params,
			 struct vpux_buffer **out)
{
	const unsigned int known = VPUX_BUFFER_CACHED | VPUX_BUFFER_WC |
				   VPUX_BUFFER_DEVICE_READONLY;
	struct vpux_buffer *b;
	unsigned int be = 0;
	int ret;

	if (out)
		*out = NULL;
	if (!dev || !params || !out)
		return vpux_err(VPUX_E_INVAL, "buffer: NULL argument");
	if (params->size < VPUX_BUFFER_PARAMS_SIZE_1_8)
		return vpux_err(VPUX_E_INVAL,
				"buffer: params size %u, below the %u bytes of API 1.8",
				params->size, VPUX_BUFFER_PARAMS_SIZE_1_8);
	if (params->size > sizeof(*params) &&
	    tail_nonzero(params, params->size, sizeof(*params)))
		return vpux_err(VPUX_E_UNSUPPORTED,
				"buffer: params of %u bytes set fields past the %zu this libvpux knows (API %u.%u)",
				params->size, sizeof(*params),
				VPUX_API_VERSION_MAJOR, VPUX_API_VERSION_MINOR);
	if (!params->bytes)
		return vpux_err(VPUX_E_INVAL, "buffer: 0 bytes");
	if (params->flags & ~known)
		return vpux_err(VPUX_E_INVAL,
				"buffer: unknown flags 0x%x (CACHED, WC, DEVICE_READONLY are 0x%x)",
				params->flags & ~known, known);
	if ((params->flags & VPUX_BUFFER_CACHED) &&
	    (params->flags & VPUX_BUFFER_WC))
		return vpux_err(VPUX_E_INVAL,
				"buffer: CACHED and WC exclude each other");
	if (params->reserved)
		return vpux_err(VPUX_E_INVAL, "buffer: reserved is %u, not 0",
				params->reserved);
	if (params->heap == VPUX_HEAP_CMX)
		return vpux_err(VPUX_E_UNSUPPORTED,
				"buffer: heap CMX: the %s device allocates no buffers in on-chip memory (only a loadable's tensors live there)",
				dev->ops->name);
	if (params->heap != VPUX_HEAP_SYSTEM)
		return vpux_err(VPUX_E_INVAL,
				"buffer: heap %u unknown (SYSTEM 0, CMX 1)",
				params->heap);
	if (params->bytes > SIZE_MAX)
		return vpux_err(VPUX_E_NOMEM, "buffer: %llu bytes",
				(unsigned long long)params->bytes);
	if (params->flags & VPUX_BUFFER_CACHED)
		be |= VPUX_BE_BO_CACHED;
	if (params->flags & VPUX_BUFFER_WC)
		be |= VPUX_BE_BO_WC;
	if (params->flags & VPUX_BUFFER_DEVICE_READONLY)
		be |= VPUX_BE_BO_READONLY;
	b = calloc(1, sizeof(*b));
	if (!b)
		return vpux_err(VPUX_E_NOMEM, "buffer: out of memory");
	ret = dev->ops->bo_alloc(dev->priv, params->bytes, be, &b->bo);
	if (ret) {
		free(b);
		return ret;
	}
	b->dev = dev;
	b->size = (size_t)params->bytes;
	*out = b;
	return 0;
}

unsigned int vpux_buffer_flags(const struct vpux_buffer *buf)
{
	unsigned int f, be;

	if (!buf)
		return 0;
	be = buf->bo.flags;
	f = (be & VPUX_BE_BO_READONLY ? VPUX_BUFFER_DEVICE_READONLY : 0) |
	    (be & VPUX_BE_BO_IMPORTED ? VPUX_BUFFER_IMPORTED : 0) |
	    (be & VPUX_BE_BO_CPU_RO ? VPUX_BUFFER_CPU_READONLY : 0);
	/* a CPU mapping is cached unless write-combined */
	f |= be & VPUX_BE_BO_WC ? VPUX_BUFFER_WC : VPUX_BUFFER_CACHED;
	return f;
}

int vpux_buffer_sync(struct vpux_buffer *buf, unsigned int dir,
		     size_t offset, size_t size)
{
	if (!buf)
		return vpux_err(VPUX_E_INVAL, "sync: NULL buffer");
	if (dir != VPUX_SYNC_TO_DEVICE && dir != VPUX_SYNC_FROM_DEVICE)
		return vpux_err(VPUX_E_INVAL,
				"sync: direction %u (TO_DEVICE 1, FROM_DEVICE 2)",
				dir);
	if (offset > buf->size || size > buf->size - offset)
		return vpux_err(VPUX_E_INVAL,
				"sync: %zu bytes at offset %zu outside the %zu-byte buffer",
				size, offset, buf->size);
	if (!size)
		size = buf->size - offset;
	return buf->dev->ops->bo_sync(buf->dev->priv, &buf->bo, dir, offset,
				      size);
}

int vpux_buffer_export(struct vpux_buffer *buf, unsigned int flags, int *fd)
{
	if (fd)
		*fd = -1;
	if (!buf || !fd)
		return vpux_err(VPUX_E_INVAL, "export: NULL argument");
	if (flags & ~VPUX_EXPORT_READONLY)
		return vpux_err(VPUX_E_INVAL,
				"export: unknown flags 0x%x (READONLY is 0x%x)",
				flags & ~VPUX_EXPORT_READONLY,
				VPUX_EXPORT_READONLY);
	return buf->dev->ops->bo_export(buf->dev->priv, &buf->bo, flags, fd);
}

int vpux_buffer_import(struct vpux_device *dev, int fd,
		       struct vpux_buffer **out)
{
	struct vpux_buffer *b;
	int ret;

	if (out)
		*out = NULL;
	if (!dev || !out)
		return vpux_err(VPUX_E_INVAL, "import: NULL argument");
	if (fd < 0)
		return vpux_err(VPUX_E_INVAL, "import: fd %d is not a dma-buf",
				fd);
	b = calloc(1, sizeof(*b));
	if (!b)
		return vpux_err(VPUX_E_NOMEM, "import: out of memory");
	ret = dev->ops->bo_import(dev->priv, fd, &b->bo);
	if (ret) {
		free(b);
		return ret;
	}
	b->dev = dev;
	b->size = (size_t)b->bo.size;
	*out = b;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* Devices (backend selection) and device buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "priv.h"

int vpux_device_open(const char *name, struct vpux_device **out)
{
	struct vpux_device *dev;
	int ret;

	vpux_err_clear();
	if (!out)
		return vpux_err(VPUX_E_INVAL, "device: no result pointer");
	*out = NULL;
	if (name && !strcmp(name, "inproc"))
		name = NULL;
	if (name && strcmp(name, "auto") && strncmp(name, "/dev/", 5))
		return vpux_err(VPUX_E_NODEV,
				"%s: unknown device (\"inproc\", \"auto\" or /dev/accel/accelN)",
				name);
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return vpux_err(VPUX_E_NOMEM, "device: out of memory");
	/* "auto" and device nodes: the kernel driver */
	dev->ops = name ? &vpux_backend_ioctl : &vpux_backend_inproc;
	ret = dev->ops->open(name, &dev->priv);
	if (ret) {
		free(dev);
		return ret;
	}
	pthread_mutex_init(&dev->cmx_lock, NULL);
	snprintf(dev->name, sizeof(dev->name), "%s", name ? name : "inproc");
	*out = dev;
	return 0;
}

void vpux_device_close(struct vpux_device *dev)
{
	if (!dev)
		return;
	dev->ops->close(dev->priv);
	pthread_mutex_destroy(&dev->cmx_lock);
	free(dev);
}

int vpux_device_query(struct vpux_device *dev, struct vpux_device_info *info)
{
	if (!dev || !info)
		return vpux_err(VPUX_E_INVAL, "device query: NULL argument");
	return dev->ops->query(dev->priv, info);
}

int vpux_buffer_alloc(struct vpux_device *dev, size_t size,
		      struct vpux_buffer **out)
{
	struct vpux_buffer *b;
	int ret;

	if (!dev || !out || !size)
		return vpux_err(VPUX_E_INVAL, "buffer: bad argument");
	b = calloc(1, sizeof(*b));
	if (!b)
		return vpux_err(VPUX_E_NOMEM, "buffer: out of memory");
	ret = dev->ops->bo_alloc(dev->priv, size, 0, &b->bo);
	if (ret) {
		free(b);
		return ret;
	}
	b->dev = dev;
	b->size = size;
	*out = b;
	return 0;
}

void vpux_buffer_free(struct vpux_buffer *buf)
{
	if (!buf)
		return;
	buf->dev->ops->bo_free(buf->dev->priv, &buf->bo);
	free(buf);
}

void *vpux_buffer_map(struct vpux_buffer *buf)
{
	if (!buf)
		return NULL;
	return buf->dev->ops->bo_map(buf->dev->priv, &buf->bo);
}

size_t vpux_buffer_size(const struct vpux_buffer *buf)
{
	return buf ? buf->size : 0;
}

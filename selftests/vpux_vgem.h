/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An unsignalled fence the test controls, the standard way: vgem
 * (CONFIG_DRM_VGEM, the virtual GEM driver; tools/vm/vm-kernel.sh loads
 * it in the VM). A vgem BO gets a fence (DRM_IOCTL_VGEM_FENCE_ATTACH)
 * that signals only on DRM_IOCTL_VGEM_FENCE_SIGNAL (or after vgem's own
 * 10 s timeout); the BO is exported as a dma-buf, its fences as a
 * sync_file (DMA_BUF_IOCTL_EXPORT_SYNC_FILE), and the sync_file imported
 * into a syncobj of the vpux file (DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_
 * IMPORT_SYNC_FILE). For a timeline: DRM_IOCTL_SYNCOBJ_TRANSFER into
 * point 1 and DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL of point 2, a chain
 * point that signals only once point 1 has.
 *
 * libdrm installs no vgem header: the two ioctls are defined here, as
 * IGT does.
 */
#ifndef VPUX_VGEM_H
#define VPUX_VGEM_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/dma-buf.h>

#include "vpux_common.h"

#define DRM_VGEM_FENCE_ATTACH	0x1
#define DRM_VGEM_FENCE_SIGNAL	0x2

struct vgem_fence_attach {
	__u32 handle;
	__u32 flags;
#define VGEM_FENCE_WRITE	0x1
	__u32 out_fence;
	__u32 pad;
};

struct vgem_fence_signal {
	__u32 fence;
	__u32 flags;
};

#define DRM_IOCTL_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VGEM_FENCE_ATTACH, struct vgem_fence_attach)
#define DRM_IOCTL_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VGEM_FENCE_SIGNAL, struct vgem_fence_signal)

/* A vgem node (/dev/dri/cardN of driver "vgem"), or -ENODEV */
static inline int vgem_open(void)
{
	char path[32], name[16];
	int i, fd;

	for (i = 0; i < 16; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!vpux_ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	return -ENODEV;
}

/*
 * A fence the test signals: @vgem's BO @bo, its unsignalled fence @fence
 * and the dma-buf @dmabuf it was exported as.
 */
struct held {
	int vgem;
	__u32 bo, fence;
	int dmabuf;
	int signalled;
};

/* A new unsignalled fence on a fresh vgem BO; 0 or -errno */
static inline int held_new(int vgem, struct held *h)
{
	struct drm_mode_create_dumb c = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach a = { .flags = VGEM_FENCE_WRITE };
	struct drm_prime_handle p = { .flags = DRM_CLOEXEC };
	int ret;

	memset(h, 0, sizeof(*h));
	h->vgem = vgem;
	h->dmabuf = -1;
	ret = vpux_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &c);
	if (ret)
		return ret;
	h->bo = c.handle;
	a.handle = c.handle;
	ret = vpux_ioctl(vgem, DRM_IOCTL_VGEM_FENCE_ATTACH, &a);
	if (ret)
		return ret;
	h->fence = a.out_fence;
	p.handle = c.handle;
	ret = vpux_ioctl(vgem, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	if (ret)
		return ret;
	h->dmabuf = p.fd;
	return 0;
}

static inline int held_signal(struct held *h)
{
	struct vgem_fence_signal s = { .fence = h->fence };
	int ret = vpux_ioctl(h->vgem, DRM_IOCTL_VGEM_FENCE_SIGNAL, &s);

	if (!ret)
		h->signalled = 1;
	return ret;
}

/* signal if not done yet (so nothing waits for vgem's 10 s timeout) */
static inline void held_free(struct held *h)
{
	struct drm_gem_close c = { .handle = h->bo };

	if (h->fence && !h->signalled)
		held_signal(h);
	if (h->dmabuf >= 0)
		close(h->dmabuf);
	if (h->bo)
		vpux_ioctl(h->vgem, DRM_IOCTL_GEM_CLOSE, &c);
	memset(h, 0, sizeof(*h));
	h->dmabuf = -1;
}

/* A sync_file of every fence of a dma-buf (as a writer would wait) */
static inline int dmabuf_sync_file(int dmabuf)
{
	struct dma_buf_export_sync_file e = { .flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
	int ret = vpux_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e);

	return ret ? ret : e.fd;
}

/*
 * A binary syncobj of vpux file @fd holding @h's fence: the held fence
 * as a sync_file, imported. 0 with *@syncobj set, or -errno.
 */
static inline int held_syncobj(int fd, struct held *h, __u32 *syncobj)
{
	struct drm_syncobj_create c = { 0 };
	struct drm_syncobj_handle imp = {
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
	};
	int sf, ret;

	ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (ret)
		return ret;
	sf = dmabuf_sync_file(h->dmabuf);
	if (sf < 0)
		return sf;
	imp.fd = sf;
	imp.handle = c.handle;
	ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &imp);
	close(sf);
	if (!ret)
		*syncobj = c.handle;
	return ret;
}

/*
 * A timeline syncobj of @fd whose point 1 is @h's fence and point 2 a
 * chain point signalled by the CPU, which stays unsignalled as long as
 * point 1 is. 0 with *@timeline set, or -errno.
 */
static inline int held_timeline(int fd, struct held *h, __u32 *timeline)
{
	struct drm_syncobj_create c = { 0 };
	struct drm_syncobj_transfer t = { .src_point = 0, .dst_point = 1 };
	struct drm_syncobj_timeline_array sig = { .count_handles = 1 };
	__u64 two = 2;
	__u32 bin;
	int ret;

	ret = held_syncobj(fd, h, &bin);
	if (ret)
		return ret;
	ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (ret)
		return ret;
	t.src_handle = bin;
	t.dst_handle = c.handle;
	ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
	if (ret)
		return ret;
	sig.handles = (uintptr_t)&c.handle;
	sig.points = (uintptr_t)&two;
	ret = vpux_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &sig);
	if (!ret)
		*timeline = c.handle;
	return ret;
}

#endif /* VPUX_VGEM_H */

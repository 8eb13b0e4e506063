/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Backends of libvpux. A device is one backend instance; everything above
 * (loadable parsing, task memory, requests) is backend-independent and
 * talks to the device only through these ops:
 *
 *  - "inproc": the engine core + NPU model in this process
 *    (backend_inproc.c, through portability/user/dla_user.h);
 *  - "ioctl": /dev/accel/accelN through uapi/drm/vpux_accel.h
 *    (backend_ioctl.c): BO_CREATE/BO_INFO + mmap for bo_alloc, SUBMIT
 *    with the address list as (handle, offset, size) triples, WAIT by
 *    seqno for wait and status; no per-op cycles.
 *
 * Buffers are device memory with a device address and a CPU mapping; a
 * task is an address list whose entry 0 holds task memory
 * (firmware/include/dla_task_format.h). Handles are backend-defined.
 * Every op returns 0 or a negative VPUX_E_* code; all ops are thread-safe.
 */
#ifndef VPUX_BACKEND_H
#define VPUX_BACKEND_H

#include <stdint.h>

#include "vpux.h"

struct vpux_bo {
	uint64_t va;		/* device address */
	uint64_t size;		/* bytes (page multiple) */
	void *cpu;		/* CPU mapping (valid after bo_map) */
	uint64_t handle;	/* backend's handle (GEM handle, arena address) */
};

/* One address-list entry: [offset, offset + size) of @bo. */
struct vpux_be_entry {
	const struct vpux_bo *bo;
	uint64_t offset;
	uint64_t size;
};

struct vpux_backend_ops {
	const char *name;
	int (*open)(const char *path, void **priv);
	void (*close)(void *priv);
	int (*query)(void *priv, struct vpux_device_info *info);
	int (*bo_alloc)(void *priv, uint64_t size, struct vpux_bo *bo);
	void (*bo_free)(void *priv, struct vpux_bo *bo);
	void *(*bo_map)(void *priv, struct vpux_bo *bo);
	/*
	 * Entry 0 = task memory; *@job receives the backend's job id (the
	 * port's task handle, the kernel's seqno).
	 */
	int (*submit)(void *priv, const struct vpux_be_entry *list,
		      unsigned int n, unsigned int prio, uint64_t *job);
	/* 0, VPUX_E_TIMEOUT; @timeout_ms < 0 waits forever */
	int (*wait)(void *priv, uint64_t job, int timeout_ms);
	int (*status)(void *priv, uint64_t job, struct vpux_request_status *st);
	/* VPUX_E_UNSUPPORTED if the backend cannot report per-op cycles */
	int (*op_cycles)(void *priv, uint64_t job, unsigned int kind,
			 unsigned int index, uint32_t *cycles);
	/* abort if running, forget the job */
	void (*release)(void *priv, uint64_t job);
};

extern const struct vpux_backend_ops vpux_backend_inproc;
extern const struct vpux_backend_ops vpux_backend_ioctl;

#endif /* VPUX_BACKEND_H */

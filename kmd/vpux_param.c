// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VPUX_GET_PARAM: device queries.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "dla_err.h"
#include "dla_limits.h"
#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_regs.h"
#include "vpux_accel.h"

/* Hardware capability bits and the uapi bits they stand for. */
static const struct {
	u32 hw;
	u64 uapi;
} vpux_caps_map[] = {
	{ VPUX_CAP_DMA_4D, DRM_VPUX_CAP_DMA_4D },
	{ VPUX_CAP_DPU_INT8, DRM_VPUX_CAP_DPU_INT8 },
	{ VPUX_CAP_SHAVE, DRM_VPUX_CAP_SHAVE },
	{ VPUX_CAP_MMU, DRM_VPUX_CAP_MMU },
	{ VPUX_CAP_CYCLE_COUNTER, DRM_VPUX_CAP_CYCLES },
	{ VPUX_CAP_FAULT_INJECT, DRM_VPUX_CAP_FAULT_INJECT },
};

static u64 vpux_uapi_caps(u32 hw_caps)
{
	u64 caps = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vpux_caps_map); i++)
		if (hw_caps & vpux_caps_map[i].hw)
			caps |= vpux_caps_map[i].uapi;
	return caps;
}

/*
 * The failure categories are uapi (DRM_VPUX_ERR_*): the engine core's
 * (dla_err_category()) must keep the same values. Its codes themselves
 * are the informative detail (drm_vpux_wait.core_error).
 */
#define VPUX_ERR_CATEGORY(name) \
	static_assert((int)DLA_ERRC_##name == (int)DRM_VPUX_ERR_##name)
VPUX_ERR_CATEGORY(NONE); VPUX_ERR_CATEGORY(INVALID); VPUX_ERR_CATEGORY(FAULT);
VPUX_ERR_CATEGORY(HANG); VPUX_ERR_CATEGORY(ENGINE); VPUX_ERR_CATEGORY(ABORTED);
VPUX_ERR_CATEGORY(DEVICE);
static_assert(DLA_MAX_ADDR_ENTRIES == VPUX_MAX_ADDR_ENTRIES);

static int vpux_param_value(struct vpux_device *vdev,
			    struct vpux_file_priv *fpriv, u32 param, u64 *value)
{
	const struct vpux_hw_info *hw = &vdev->hw;

	if (param >= VPUX_PARAM_COUNT)
		return -EINVAL;
	switch (param) {
	case DRM_VPUX_PARAM_DEVICE_ID:
		*value = vpux_reg_read(vdev, VPUX_REG_DEVICE_ID) & 0xffff;
		break;
	case DRM_VPUX_PARAM_DEVICE_REVISION:
		*value = vpux_reg_read(vdev, VPUX_REG_REVISION);
		break;
	case DRM_VPUX_PARAM_UAPI_VERSION:
		*value = DRM_VPUX_UAPI_VERSION_MAJOR << 16 |
			 DRM_VPUX_UAPI_VERSION_MINOR;
		break;
	case DRM_VPUX_PARAM_NUM_DMA_ENGINES:
		*value = hw->n_dma;
		break;
	case DRM_VPUX_PARAM_NUM_DPU_ENGINES:
		*value = hw->n_dpu;
		break;
	case DRM_VPUX_PARAM_NUM_SHAVE_ENGINES:
		*value = hw->n_shave;
		break;
	case DRM_VPUX_PARAM_NUM_TILES:
		*value = hw->n_tiles;
		break;
	case DRM_VPUX_PARAM_CMX_SIZE:
		*value = hw->cmx_size;
		break;
	case DRM_VPUX_PARAM_VA_BASE:
		*value = hw->va_base;
		break;
	case DRM_VPUX_PARAM_VA_SIZE:
		*value = hw->va_size;
		break;
	case DRM_VPUX_PARAM_CAPABILITIES:
		*value = vpux_uapi_caps(vpux_reg_read(vdev, VPUX_REG_CAPS));
		/*
		 * plans: the driver's core reads the symbol buffer; headed,
		 * the staging buffer carries its checked values to a
		 * firmware of ABI 1.1 or later (an older one refuses plans,
		 * PLAN_SYMBOL)
		 */
		if (!vdev->mc.on || vdev->mc.plans)
			*value |= DRM_VPUX_CAP_PLANS;
		break;
	case DRM_VPUX_PARAM_CLOCK_KHZ:
		*value = vpux_reg_read(vdev, VPUX_REG_CLOCK_KHZ);
		break;
	case DRM_VPUX_PARAM_NUM_CONTEXTS:
		*value = hw->ctx_slots;
		break;
	case DRM_VPUX_PARAM_SERIAL:
		*value = vpux_reg_read(vdev, VPUX_REG_SERIAL);
		break;
	case DRM_VPUX_PARAM_BO_MEMORY_LIMIT:
		*value = vpux_bo_memory_limit();
		break;
	case DRM_VPUX_PARAM_BO_MEMORY_USED:
		*value = atomic64_read(&vdev->bo_pinned);
		break;
	case DRM_VPUX_PARAM_MAX_OPS_PER_TASK:
		*value = DLA_MAX_OPS_PER_TASK;
		break;
	case DRM_VPUX_PARAM_MAX_BARRIERS:
		*value = DLA_MAX_BARRIERS;
		break;
	case DRM_VPUX_PARAM_MAX_DEPS_PER_TASK:
		*value = DLA_MAX_DEPS_PER_TASK;
		break;
	case DRM_VPUX_PARAM_MAX_ADDR_ENTRIES:
		*value = VPUX_MAX_ADDR_ENTRIES;
		break;
	case DRM_VPUX_PARAM_MAX_IN_SYNCOBJS:
		*value = VPUX_MAX_IN_SYNCOBJS;
		break;
	case DRM_VPUX_PARAM_TASK_SLOTS:
		*value = DLA_MAX_TASKS;
		break;
	case DRM_VPUX_PARAM_JOB_RING:
		*value = VPUX_JOB_RING;
		break;
	case DRM_VPUX_PARAM_MAX_QUEUES:
		*value = VPUX_MAX_QUEUES;
		break;
	case DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT:
		*value = vpux_file_memory_limit();
		break;
	case DRM_VPUX_PARAM_FILE_BO_MEMORY_USED:
		*value = atomic64_read(&fpriv->ctx.pinned);
		break;
	case DRM_VPUX_PARAM_FW_MODE:
		*value = vdev->mc.on ? DRM_VPUX_FW_MODE_HEADED :
				       DRM_VPUX_FW_MODE_HEADLESS;
		break;
	case DRM_VPUX_PARAM_CYCLES:
		/* reading the low half latches the high half: one reader */
		mutex_lock(&vdev->fw.lock);
		*value = vpux_reg_read64(vdev, VPUX_REG_CYCLES_LO,
					 VPUX_REG_CYCLES_HI);
		mutex_unlock(&vdev->fw.lock);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/**
 * vpux_get_param_ioctl() - DRM_IOCTL_VPUX_GET_PARAM
 * @dev: DRM device
 * @data: struct drm_vpux_get_param, copied in by the DRM core
 * @file: caller
 *
 * Return: 0; -EINVAL for an unknown parameter or non-zero padding;
 * -ENODEV once the device is gone.
 */
int vpux_get_param_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct vpux_device *vdev = to_vpux_device(dev);
	struct drm_vpux_get_param *args = data;
	int idx, ret;

	if (args->pad) {
		vpux_dbg(vdev, "GET_PARAM: non-zero pad\n");
		return -EINVAL;
	}
	if (!drm_dev_enter(dev, &idx))
		return -ENODEV;
	ret = vpux_param_value(vdev, file->driver_priv, args->param,
			       &args->value);
	drm_dev_exit(idx);
	if (ret)
		vpux_dbg(vdev, "GET_PARAM: unknown param %u\n", args->param);
	return ret;
}

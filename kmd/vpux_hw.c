// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware identification: read the identity registers once at probe,
 * refuse hardware this driver does not understand, and bring the device
 * to a known state (reset, interrupts masked and cleared).
 */

#include "vpux_drv.h"
#include "vpux_regs.h"

static int vpux_hw_check(struct vpux_device *vdev)
{
	struct vpux_hw_info *hw = &vdev->hw;
	u32 engines = hw->n_dma + hw->n_dpu + hw->n_shave;

	if (hw->revision >> 16 != VPUX_HW_REV_MAJOR) {
		vpux_err(vdev, "unsupported hardware revision %u.%u\n",
			 hw->revision >> 16, hw->revision & 0xffff);
		return -ENODEV;
	}
	if (!hw->n_dma || !hw->n_dpu || !hw->n_shave ||
	    engines > VPUX_MAX_ENGINES) {
		vpux_err(vdev, "bad engine counts: dma %u dpu %u shave %u\n",
			 hw->n_dma, hw->n_dpu, hw->n_shave);
		return -ENODEV;
	}
	if (!hw->ctx_slots || hw->ctx_slots > VPUX_MAX_CTX_SLOTS) {
		vpux_err(vdev, "bad MMU context count %u\n", hw->ctx_slots);
		return -ENODEV;
	}
	if (!hw->va_size || !IS_ALIGNED(hw->va_base, VPUX_PAGE_SIZE) ||
	    !IS_ALIGNED(hw->va_size, VPUX_PAGE_SIZE)) {
		vpux_err(vdev, "bad device address range %#llx+%#llx\n",
			 hw->va_base, hw->va_size);
		return -ENODEV;
	}
	return 0;
}

/**
 * vpux_hw_probe() - identify the NPU and reset it
 * @vdev: the device, with its virtual hardware instantiated
 *
 * Return: 0, or -ENODEV if the hardware is absent or not supported.
 */
int vpux_hw_probe(struct vpux_device *vdev)
{
	struct vpux_hw_info *hw = &vdev->hw;
	u32 id, engines;

	id = vpux_reg_read(vdev, VPUX_REG_ID);
	if (id != VPUX_ID_MAGIC) {
		vpux_err(vdev, "no vpux NPU: ID register reads %#x\n", id);
		return -ENODEV;
	}

	hw->device_id = vpux_reg_read(vdev, VPUX_REG_DEVICE_ID) & 0xffff;
	hw->revision = vpux_reg_read(vdev, VPUX_REG_REVISION);
	hw->caps = vpux_reg_read(vdev, VPUX_REG_CAPS);
	engines = vpux_reg_read(vdev, VPUX_REG_ENGINES);
	hw->n_dma = engines & 0xff;
	hw->n_dpu = (engines >> 8) & 0xff;
	hw->n_shave = (engines >> 16) & 0xff;
	hw->n_tiles = vpux_reg_read(vdev, VPUX_REG_TILES);
	hw->cmx_size = vpux_reg_read(vdev, VPUX_REG_CMX_SIZE);
	hw->ctx_slots = vpux_reg_read(vdev, VPUX_REG_CTX_SLOTS);
	hw->clock_khz = vpux_reg_read(vdev, VPUX_REG_CLOCK_KHZ);
	hw->serial = vpux_reg_read(vdev, VPUX_REG_SERIAL);
	hw->va_base = vpux_reg_read64(vdev, VPUX_REG_VA_BASE_LO,
				      VPUX_REG_VA_BASE_HI);
	hw->va_size = vpux_reg_read64(vdev, VPUX_REG_VA_SIZE_LO,
				      VPUX_REG_VA_SIZE_HI);
	hw->cmx_base = vpux_reg_read64(vdev, VPUX_REG_CMX_BASE_LO,
				       VPUX_REG_CMX_BASE_HI);

	if (vpux_hw_check(vdev))
		return -ENODEV;

	vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, 0);
	vpux_reg_write(vdev, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	vpux_reg_write(vdev, VPUX_REG_IRQ_CLEAR, VPUX_IRQ_ALL);

	drm_info(&vdev->drm,
		 "NPU %#x rev %u.%u: %u DMA, %u DPU, %u SHAVE, %u x %u KiB CMX\n",
		 hw->device_id, hw->revision >> 16, hw->revision & 0xffff,
		 hw->n_dma, hw->n_dpu, hw->n_shave, hw->n_tiles,
		 hw->cmx_size / 1024);
	return 0;
}

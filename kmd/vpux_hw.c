// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware boundary: the NPU's register window and interrupt as the
 * platform gives them (vpux_hw_map(), the one function a port to another
 * bus replaces), identification (read the identity registers once at
 * probe, refuse hardware this driver does not understand, bring the
 * device to a known state) and the last register writes at remove.
 */

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>

#include "vpux_drv.h"
#include "vpux_regs.h"

/**
 * vpux_hw_map() - find the NPU's register window and interrupt
 * @vdev: the device
 * @pdev: its platform device
 *
 * The virtual NPUs' platform puts the register window on the NPU's
 * parent as a regmap (an MFD-style child); silicon would map its MMIO
 * resource here with devm_platform_ioremap_resource() and
 * devm_regmap_init_mmio(). Everything else reaches the hardware through
 * vpux_reg_read()/vpux_reg_write() and the interrupt.
 *
 * Return: 0 or a negative errno.
 */
int vpux_hw_map(struct vpux_device *vdev, struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	int ret;

	vdev->regmap = dev->parent ? dev_get_regmap(dev->parent, NULL) : NULL;
	if (!vdev->regmap)
		return dev_err_probe(dev, -ENODEV, "no register window\n");
	vdev->irq = platform_get_irq(pdev, 0);
	if (vdev->irq < 0)
		return vdev->irq;
	/* the MMU's entries hold 52-bit bus addresses */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(52));
	if (ret)
		return dev_err_probe(dev, ret, "no 52-bit DMA\n");
	return 0;
}

/**
 * vpux_reg_read64() - read a 64-bit register pair
 * @vdev: the device
 * @lo: the low half's offset; reading it latches the high half
 * @hi: the high half's offset
 *
 * Return: the value.
 */
u64 vpux_reg_read64(struct vpux_device *vdev, u32 lo, u32 hi)
{
	u64 low = vpux_reg_read(vdev, lo);

	return low | ((u64)vpux_reg_read(vdev, hi) << 32);
}

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
 * @vdev: the device, its register window mapped
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

	/* a previous driver may have left it powered off */
	if (hw->caps & VPUX_CAP_POWER)
		vpux_reg_write(vdev, VPUX_REG_PWR_CTRL, VPUX_PWR_ON);
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

/**
 * vpux_hw_quiesce() - the last register writes: mask and reset
 * @vdev: the device, the engine core unbound from it
 *
 * What remove does before the registers go away: the interrupt is
 * masked at the device, every engine stops (no store of an aborted op
 * follows the reset) and a handler still running on another CPU has
 * returned when this does.
 */
void vpux_hw_quiesce(struct vpux_device *vdev)
{
	vpux_reg_write(vdev, VPUX_REG_IRQ_MASK, 0);
	vpux_reg_write(vdev, VPUX_REG_RESET, VPUX_RESET_DEVICE);
	synchronize_irq(vdev->irq);
}

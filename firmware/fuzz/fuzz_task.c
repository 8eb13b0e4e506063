// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness: the input is address-list entry 0 (task descriptor,
 * barrier table, op lists). The host port measures it and prepares it
 * (the core validates it into memory of exactly the measured size, so
 * ASan sees any write past the measure) and, if it is accepted, runs it
 * to completion on the fake backend, whose DMA engine really copies,
 * including into the task memory itself (which must change nothing of
 * what runs: the core does not read it again). Entries 1..4 are 4 KiB
 * data buffers. Entry 5, for plans (Documentation/dynamic-shapes.rst), is
 * the symbol buffer: the input's last 128 bytes (16 u64 slots), a view
 * of entry 0's tail, so that a plan seed carries its symbol values. The
 * plan is expanded while the task runs: an accepted plan must finish too,
 * all its ops done. ASan/UBSan catch any out-of-bounds access or overflow
 * in the core.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dla_user.h"
#include "fake_hw.h"

#define NBUF 4
#define BUF_SIZE 4096
#define SYM_BYTES 128

static struct fake_hw hw;
static struct dla_user_dev *dev;
static unsigned char bufs[NBUF][BUF_SIZE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dla_user_buf list[NBUF + 2];
	unsigned int n = NBUF + 1;
	unsigned char *task;
	unsigned int i;
	int h;

	if (!dev) {
		setenv("DLA_LOG", "0", 0);
		fake_hw_init(&hw, 2, 2, 2);
		dev = dla_user_create(&fake_hw_ops, &hw, DLA_USER_INLINE_BH);
		if (!dev)
			abort();
		hw.dev = dev;
	}
	if (size > 1 << 20)
		return 0;
	task = malloc(size ? size : 1);
	if (!task)
		return 0;
	memcpy(task, data, size);
	hw.n_region = 0;
	list[0] = (struct dla_user_buf){ FAKE_VA_BASE, size, task, 0 };
	fake_hw_map(&hw, FAKE_VA_BASE, task, size);
	for (i = 1; i <= NBUF; i++) {
		list[i].va = FAKE_VA_BASE + i * 0x1000000ull;
		list[i].size = BUF_SIZE;
		list[i].cpu = bufs[i - 1];
		list[i].flags = 0;
		fake_hw_map(&hw, list[i].va, bufs[i - 1], BUF_SIZE);
	}
	if (size >= SYM_BYTES) {
		list[n] = (struct dla_user_buf){ FAKE_VA_BASE + n * 0x1000000ull,
						 SYM_BYTES,
						 task + size - SYM_BYTES, 0 };
		fake_hw_map(&hw, list[n].va, list[n].cpu, SYM_BYTES);
		n++;
	}
	h = dla_user_submit(dev, list, n, size & 1, (size >> 1) & 3);
	if (h >= 0) {
		struct dla_task_status st;

		fake_hw_run(&hw);
		if (dla_user_status(dev, h, &st) ||
		    (st.state != DLA_TASK_DONE && st.state != DLA_TASK_FAILED))
			abort();	/* an accepted task must always finish */
		if (st.state == DLA_TASK_DONE && st.ops_done != st.ops_total)
			abort();
		dla_user_release(dev, h);
	}
	free(task);
	return 0;
}

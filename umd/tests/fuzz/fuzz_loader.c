// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of the loader: container parsing (ELF, sections,
 * checksums, versions) and every semantic check, then the barrier
 * schedule. Checksums would stop most mutations at the first section, so
 * half of the inputs get their section CRCs fixed up before parsing.
 * Corpus seeds: the assembled examples (the FP16 ones among them), a
 * plan loadable (dynamic shapes: symbols, dynamic dims, blocks,
 * templates, patches; written by test_plan) whose every-bound checks run
 * lf_plan.c, and eight random FP16 networks of test_fp16_random (f16/f32
 * tensors, every FP16 op kind, flag and activation) (make fuzz-loader).
 * A valid image's host view is read too (host_io.c: the optional
 * .vpux.io/.vpux.ioq sections, as vpux_network_load() reads them).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "host_io.h"
#include "lf.h"

static void fix_crcs(uint8_t *p, size_t n)
{
	Elf64_Ehdr eh;
	unsigned int i;

	if (n < sizeof(eh))
		return;
	memcpy(&eh, p, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > n ||
	    (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > n - eh.e_shoff)
		return;
	for (i = 0; i < eh.e_shnum; i++) {
		struct vpux_lf_sechdr h;
		Elf64_Shdr sh;

		memcpy(&sh, p + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_offset > n || sh.sh_size > n - sh.sh_offset ||
		    sh.sh_size < sizeof(h))
			continue;
		memcpy(&h, p + sh.sh_offset, sizeof(h));
		if (h.magic != VPUX_LF_SEC_MAGIC || h.hdr_size < sizeof(h) ||
		    h.hdr_size > sh.sh_size)
			continue;
		h.crc32 = (uint32_t)crc32(0, p + sh.sh_offset + h.hdr_size,
					  sh.sh_size - h.hdr_size);
		memcpy(p + sh.sh_offset, &h, sizeof(h));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lf_image img;
	uint8_t *p = malloc(size ? size : 1);

	if (!p)
		return 0;
	memcpy(p, data, size);
	if (size && (data[size - 1] & 1))
		fix_crcs(p, size);
	if (!lf_parse(p, size, &img) && !lf_validate(&img)) {
		struct host_io_table t;

		if (!host_io_read(&img, p, size, 0, &t))
			host_io_fini(&t);
	}
	lf_image_free(&img);
	free(p);
	return 0;
}

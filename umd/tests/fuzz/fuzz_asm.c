// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of the vpux-asm parser: any text either assembles
 * into an image that then validates and writes, or fails with a message;
 * never a crash. Every plan expression it compiled prints back (what
 * vpux-dis does). Seeds: the examples' .vasm sources, examples/dyn_mlp.vasm
 * the plan syntax (make fuzz-asm; asm.dict its words).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "lf.h"
#include "vasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lf_image img;
	FILE *null = fopen("/dev/null", "w");
	void *out;
	size_t n;

	if (!text || !null) {
		free(text);
		if (null)
			fclose(null);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	if (!asm_text("fuzz", text, NULL, &img, null)) {
		char buf[4096];
		uint32_t i;

		for (i = 0; i < img.n_patches; i++)
			if (vasm_expr_print(img.expr + img.patches[i].expr,
					    img.patches[i].len, img.symbols,
					    img.n_symbols, buf, sizeof(buf)))
				abort();	/* the assembler wrote it */
		if (!lf_validate(&img) && !lf_write_mem(&img, &out, &n))
			free(out);
		asm_free(&img);
	}
	fclose(null);
	free(text);
	return 0;
}

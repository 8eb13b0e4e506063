// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of the vpux-asm parser: any text either assembles
 * into an image that then validates and writes, or fails with a message;
 * never a crash. Seeds: the examples' .vasm sources (make fuzz-asm).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "lf.h"

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
		if (!lf_validate(&img) && !lf_write_mem(&img, &out, &n))
			free(out);
		asm_free(&img);
	}
	fclose(null);
	free(text);
	return 0;
}

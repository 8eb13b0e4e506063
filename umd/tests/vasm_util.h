/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test helpers: assemble text to an image or bytes, read a file. */
#ifndef UMD_TEST_UTIL_H
#define UMD_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "asm.h"
#include "lf.h"

static inline int asm_bytes(const char *text, void **data, size_t *size)
{
	struct lf_image img;
	int ret = asm_text("test", text, NULL, &img, stderr);

	if (ret)
		return ret;
	ret = lf_write_mem(&img, data, size);
	asm_free(&img);
	return ret;
}

static inline void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(n ? n : 1);
	if (p && fread(p, 1, n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return p;
}

#endif /* UMD_TEST_UTIL_H */

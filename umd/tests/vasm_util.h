/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/* Test helpers: assemble text to an image or bytes, read a file. */
#ifndef UMD_TEST_UTIL_H
#define UMD_TEST_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "asm.h"
#include "lf.h"

/* generated text: the free part of a buffer, always NUL-terminated */
struct vt_text {
	char *p;
	size_t left;
};

/* append to @t what fits (what does not is dropped) */
__attribute__((format(printf, 2, 3)))
static inline void vt_out(struct vt_text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(t->p, t->left, fmt, ap);
	va_end(ap);
	if (k > 0 && (size_t)k < t->left) {
		t->p += k;
		t->left -= k;
	}
}

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

/* assemble @text as "t.vasm"; the assembler's messages into @err */
static inline int asm_capture(const char *text, struct lf_image *img,
			      char *err, size_t size)
{
	FILE *f = fmemopen(err, size, "w");
	int ret;

	err[0] = 0;
	if (!f)
		return -1;
	ret = asm_text("t.vasm", text, NULL, img, f);
	fclose(f);
	return ret;
}

#endif /* UMD_TEST_UTIL_H */

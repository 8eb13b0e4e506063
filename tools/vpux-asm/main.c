// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-asm: assemble a network description (Documentation/vpux-asm.rst)
 * into a loadable (Documentation/loadable.rst).
 *
 *	vpux-asm [--explicit-barriers] [-o OUT] IN.vasm
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "vpux.h"

static char *slurp(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap);

	if (!f || !buf) {
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);

		n += got;
		if (n + 1 < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
		if (!buf)
			break;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

int main(int argc, char **argv)
{
	const char *out = "a.vpux", *in = NULL;
	struct asm_opts o;
	struct lf_image img;
	char *text, *dir;
	int i, ret;

	memset(&o, 0, sizeof(o));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--explicit-barriers"))
			o.explicit_only = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: vpux-asm [--explicit-barriers] [-o OUT] IN.vasm\n");
			return 0;
		} else if (!in)
			in = argv[i];
		else {
			fprintf(stderr, "vpux-asm: unexpected '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!in) {
		fprintf(stderr, "usage: vpux-asm [--explicit-barriers] [-o OUT] IN.vasm\n");
		return 2;
	}
	text = slurp(in);
	if (!text) {
		fprintf(stderr, "vpux-asm: cannot read %s\n", in);
		return 1;
	}
	dir = strdup(in);
	o.base_dir = dir ? dirname(dir) : NULL;
	ret = asm_text(in, text, &o, &img, stderr);
	free(text);
	if (!ret) {
		ret = lf_validate(&img);
		if (ret)
			fprintf(stderr, "%s: error: %s\n", in, vpux_last_error());
		else if ((ret = lf_write_file(&img, out)))
			fprintf(stderr, "vpux-asm: %s\n", vpux_last_error());
		asm_free(&img);
	}
	free(dir);
	return ret ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-asm: assemble a network description (Documentation/vpux-asm.rst)
 * into a loadable (Documentation/loadable.rst).
 *
 *	vpux-asm [--explicit-barriers] [-o OUT] IN.vasm	(vpux-asm(1))
 *
 * Errors in the text are "FILE:LINE:COLUMN: error: ...", the form
 * editors and compilers use; every other error is "vpux-asm: ...".
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "hostconv.h"
#include "vpux.h"
#include "vpux_cli.h"

#define PROG "vpux-asm"

static void usage(FILE *f)
{
	fprintf(f, "usage: vpux-asm [-e] [-o OUT] IN.vasm\n"
		   "Assemble a network description into a loadable; see vpux-asm(1).\n"
		   "  -o, --output OUT          write the loadable to OUT (default a.vpux)\n"
		   "  -e, --explicit-barriers   only the barriers the text declares\n"
		   "  -k, --kernel-dir DIR      look up a relative 'kernel ... file=' in DIR\n"
		   "                            first (the kernel SDK's build directory)\n"
		   "  -h, --help                print this help and exit\n"
		   "      --version             print the version and exit\n"
		   "IN.vasm may be - for standard input.\n"
		   "Exit status: 0 ok, 1 error in the input or output, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "explicit-barriers", no_argument, NULL, 'e' },
		{ "kernel-dir", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "a.vpux", *in = NULL;
	struct asm_opts o;
	struct lf_image img;
	char *text, *dir;
	void *buf;
	size_t len;
	int c, ret;

	memset(&o, 0, sizeof(o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:ek:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'e':
			o.explicit_only = 1;
			break;
		case 'k':
			o.kernel_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return VPUX_EXIT_OK;
		case VPUX_OPT_VERSION:
			vpux_cli_version(PROG);
			return VPUX_EXIT_OK;
		default:
			vpux_cli_bad_option(PROG, c, argv);
			usage(stderr);
			return VPUX_EXIT_USAGE;
		}
	}
	if (optind == argc) {
		vpux_cli_err(PROG, "no input file");
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		vpux_cli_err(PROG, "one input file only ('%s' too)", argv[optind + 1]);
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	in = argv[optind];
	if (hc_read_file(in, SIZE_MAX / 2, &buf, &len)) {
		vpux_cli_err(PROG, "%s", vpux_last_error());
		return VPUX_EXIT_FAIL;
	}
	text = buf;
	dir = strdup(in);
	o.base_dir = dir ? dirname(dir) : NULL;
	ret = asm_text(in, text, &o, &img, stderr);
	free(text);
	if (!ret) {
		ret = lf_validate(&img);
		if (ret)
			vpux_cli_err(PROG, "%s: %s", in, vpux_last_error());
		else if ((ret = lf_write_file(&img, out)))
			vpux_cli_err(PROG, "%s", vpux_last_error());
		asm_free(&img);
	}
	free(dir);
	return ret ? VPUX_EXIT_FAIL : VPUX_EXIT_OK;
}

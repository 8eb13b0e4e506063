/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The command-line conventions every vpux tool follows (vpux(7),
 * Documentation/install.rst):
 *
 *  - getopt_long; -h/--help prints the usage on stdout and exits 0,
 *    --version prints "TOOL (vpux) VERSION" and exits 0;
 *  - a bad option or argument prints "TOOL: what went wrong" and the
 *    usage on stderr and exits VPUX_EXIT_USAGE (2);
 *  - -d/--device takes a device node path or an index N, which is
 *    /dev/accel/accelN;
 *  - every other error is "TOOL: what went wrong" on stderr.
 *
 * Exit codes: 0 success, 1 failure (VPUX_EXIT_FAIL), 2 usage
 * (VPUX_EXIT_USAGE); a tool may add its own from 3 up, listed in its man
 * page.
 */
#ifndef VPUX_CLI_H
#define VPUX_CLI_H

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef VPUX_VERSION
#define VPUX_VERSION "unknown"
#endif

#define VPUX_EXIT_OK	0
#define VPUX_EXIT_FAIL	1
#define VPUX_EXIT_USAGE	2

/* getopt_long's value for --version (no short option) */
#define VPUX_OPT_VERSION 0x100

static inline void vpux_cli_version(const char *prog)
{
	printf("%s (vpux) %s\n", prog, VPUX_VERSION);
}

/* "PROG: message" on stderr */
static inline void __attribute__((format(printf, 2, 3)))
vpux_cli_err(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * getopt_long's errors in the tools' own form ("PROG: ..."): the tools
 * set opterr = 0 and start their option string with ':' so that a
 * missing argument returns ':' and anything else unknown '?'.
 */
static inline void vpux_cli_bad_option(const char *prog, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':' && optopt && arg[0] == '-' && arg[1] != '-')
		vpux_cli_err(prog, "option -%c needs an argument", optopt);
	else if (c == ':')
		vpux_cli_err(prog, "option '%s' needs an argument", arg);
	else if (optopt)
		vpux_cli_err(prog, "unknown option -%c", optopt);
	else
		vpux_cli_err(prog, "unknown option '%s'", arg);
}

/*
 * -d/--device: "N" (decimal digits) is /dev/accel/accelN, anything else
 * is taken as it is (a path, or a name a tool knows such as "inproc").
 * Returns @buf or @arg; NULL if N is out of range.
 */
static inline const char *vpux_cli_device(const char *arg, char *buf,
					  size_t len)
{
	char *end;
	long n;

	if (!arg[0] || strspn(arg, "0123456789") != strlen(arg))
		return arg;
	n = strtol(arg, &end, 10);
	if (*end || n < 0 || n > 255)
		return NULL;
	snprintf(buf, len, "/dev/accel/accel%ld", n);
	return buf;
}

#endif /* VPUX_CLI_H */

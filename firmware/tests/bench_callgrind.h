/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The engine-core instruction counts of the scheduler benchmarks
 * (bench.c, plan_bench.c): the benchmark runs itself once more under
 * callgrind ("SELF --once N"), collecting inside the toggled functions,
 * and sums the self cost of the engine core's functions.
 */
#ifndef VPUX_FW_BENCH_CALLGRIND_H
#define VPUX_FW_BENCH_CALLGRIND_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Sum of the self cost of the functions in firmware/dla_*.c, with what
 * they inline from the DPU rule header (callgrind names its file).
 */
static long long core_ir(const char *out)
{
	char cmd[512], line[512];
	long long sum = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "callgrind_annotate --auto=no --threshold=100 %s", out);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char num[64], *q = num, *l = line;

		if (!strstr(line, "firmware/dla_") &&
		    !strstr(line, "include/hw/vpux_dpu_rules.h"))
			continue;
		while (*l == ' ')
			l++;
		for (; (*l >= '0' && *l <= '9') || *l == ','; l++)
			if (*l != ',' && q < num + sizeof(num) - 1)
				*q++ = *l;
		*q = 0;
		sum += atoll(num);
	}
	pclose(p);
	return sum;
}

/* Instructions of one run under callgrind, collected inside @toggles. */
static long long callgrind_ir(const char *self, unsigned int n,
			      const char *toggles, long long *core)
{
	char out[] = "/tmp/fw-bench-cg.XXXXXX";
	char cmd[1024], line[256];
	long long ir = -1;
	FILE *f;
	int fd = mkstemp(out);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --callgrind-out-file=%s "
		 "--collect-atstart=no %s %s --once %u >/dev/null 2>&1", out,
		 toggles, self, n);
	if (system(cmd) == 0 && (f = fopen(out, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "summary:", 8) ||
			    !strncmp(line, "totals:", 7))
				ir = atoll(strchr(line, ':') + 1);
		fclose(f);
		*core = core_ir(out);
	}
	unlink(out);
	return ir;
}

#endif /* VPUX_FW_BENCH_CALLGRIND_H */

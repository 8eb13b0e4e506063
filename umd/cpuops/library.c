// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libvpux-cpuops: the CPU functions run recipes need, behind the one
 * exported entry point of include/vpux_cpu.h.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cpuops.h"

static const struct cpuops_entry *const cpuops_tables[] = {
	cpuops_convert,
	cpuops_float,
};

static int cpuops_lookup(const char *name, struct vpux_cpu_lookup_args *args)
{
	size_t t;
	const struct cpuops_entry *e;

	if (!name || !args ||
	    args->size < offsetof(struct vpux_cpu_lookup_args, fn) +
			 sizeof(args->fn))
		return -EINVAL;
	for (t = 0; t < sizeof(cpuops_tables) / sizeof(cpuops_tables[0]); t++) {
		for (e = cpuops_tables[t]; e->name; e++) {
			if (strcmp(e->name, name))
				continue;
			args->num_args = e->num_args;
			args->fn = e->fn;
			return 0;
		}
	}
	return -ENOENT;
}

__attribute__((visibility("default")))
int library_init(struct vpux_cpu_library_init_args *args);

int library_init(struct vpux_cpu_library_init_args *args)
{
	if (!args || args->size < offsetof(struct vpux_cpu_library_init_args,
					   lookup) + sizeof(args->lookup))
		return -EINVAL;
	args->lookup = cpuops_lookup;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A CPU library for the runner's tests (umd/tests/test_recipe.c):
 *   fail(buffer, string)  fails with the string as its message
 *   fill(buffer, int)     sets every byte of the buffer to the int
 *   slow(int)             sleeps for the int's milliseconds
 * Built once as it is (libvpux-testplugin.so) and once with
 * -DPLUGIN_NO_INIT (libvpux-noinit.so), which exports no library_init.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vpux_cpu.h"

static int fail(const struct vpux_cpu_call *c)
{
	snprintf(c->err, c->err_size, "fail: %s", c->args[1].str);
	return -EIO;
}

static int fill(const struct vpux_cpu_call *c)
{
	memset(c->args[0].buf.data, (int)c->args[1].i, c->args[0].buf.size);
	return 0;
}

static int slow(const struct vpux_cpu_call *c)
{
	struct timespec ts = { c->args[0].i / 1000,
			       (c->args[0].i % 1000) * 1000000 };

	nanosleep(&ts, NULL);
	return 0;
}

static int lookup(const char *name, struct vpux_cpu_lookup_args *a)
{
	static const struct {
		const char *name;
		uint32_t n;
		vpux_cpu_fn fn;
	} fns[] = { { "fail", 2, fail }, { "fill", 2, fill }, { "slow", 1, slow } };
	size_t i;

	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(fns[i].name, name)) {
			a->num_args = fns[i].n;
			a->fn = fns[i].fn;
			return 0;
		}
	return -ENOENT;
}

#ifndef PLUGIN_NO_INIT
__attribute__((visibility("default")))
int library_init(struct vpux_cpu_library_init_args *args);

int library_init(struct vpux_cpu_library_init_args *args)
{
	args->lookup = lookup;
	return 0;
}
#else
/* referenced so that the build does not warn */
__attribute__((visibility("default")))
vpux_cpu_lookup_fn plugin_lookup = lookup;
#endif

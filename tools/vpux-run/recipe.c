// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-run --recipe FILE: a run recipe through the runner API of libvpux
 * (Documentation/run-recipes.rst). Every --input NAME=FILE gets a buffer
 * of the file's size (at least what the recipe needs) bound to the
 * recipe's buffer NAME; every --output NAME=FILE a buffer of the size
 * vpux_runner_buffer_size() reports, written to FILE afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "recipe.h"
#include "vpux.h"
#include "vpux_cli.h"

#define PROG "vpux-run"
#define EXIT_DIFFER 3

struct binding {
	char name[128];
	const char *file;
	struct vpux_buffer *buf;
	size_t size;
};

/* "NAME=FILE" into @b; -1 if malformed */
static int split(const char *arg, struct binding *b)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1] || (size_t)(eq - arg) >= sizeof(b->name))
		return -1;
	memcpy(b->name, arg, (size_t)(eq - arg));
	b->name[eq - arg] = '\0';
	b->file = eq + 1;
	return 0;
}

static int fail(const char *what, int err)
{
	vpux_cli_err(PROG, "%s: %s: %s", what, vpux_strerror(err),
		     vpux_last_error());
	return VPUX_EXIT_FAIL;
}

static int bind_input(struct vpux_device *dev, struct vpux_runner *r,
		      struct binding *b)
{
	FILE *f = fopen(b->file, "rb");
	size_t need = 0, size;
	long n;
	int ret;

	if (!f) {
		vpux_cli_err(PROG, "%s: %s", b->file, strerror(errno));
		return VPUX_EXIT_FAIL;
	}
	ret = vpux_runner_buffer_size(r, b->name, &need);
	if (ret) {
		fclose(f);
		return fail(b->file, ret);
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    (size_t)n < need) {
		fclose(f);
		vpux_cli_err(PROG, "%s: the recipe's buffer '%s' needs %zu bytes",
			     b->file, b->name, need);
		return VPUX_EXIT_FAIL;
	}
	size = (size_t)n;
	ret = vpux_buffer_alloc(dev, size, &b->buf);
	if (ret) {
		fclose(f);
		return fail(b->file, ret);
	}
	if (fread(vpux_buffer_map(b->buf), 1, size, f) != size) {
		fclose(f);
		vpux_cli_err(PROG, "%s: short read", b->file);
		return VPUX_EXIT_FAIL;
	}
	fclose(f);
	b->size = size;
	ret = vpux_runner_bind_input(r, b->name, b->buf, 0);
	return ret ? fail(b->file, ret) : 0;
}

static int bind_output(struct vpux_device *dev, struct vpux_runner *r,
		       struct binding *b)
{
	int ret = vpux_runner_buffer_size(r, b->name, &b->size);

	if (ret)
		return fail(b->file, ret);
	if (!b->size) {
		vpux_cli_err(PROG, "%s: the recipe says no size of buffer '%s'",
			     b->file, b->name);
		return VPUX_EXIT_FAIL;
	}
	ret = vpux_buffer_alloc(dev, b->size, &b->buf);
	if (!ret)
		ret = vpux_runner_bind_output(r, b->name, b->buf, 0);
	return ret ? fail(b->file, ret) : 0;
}

static int write_output(const struct binding *b)
{
	FILE *f = fopen(b->file, "wb");
	int bad = !f || fwrite(vpux_buffer_map(b->buf), 1, b->size, f) != b->size;

	if (f && fclose(f))
		bad = 1;
	if (bad) {
		vpux_cli_err(PROG, "%s: %s", b->file, strerror(errno));
		return VPUX_EXIT_FAIL;
	}
	return 0;
}

int run_recipe(const char *dev_name, const char *recipe,
	       const char *const *ins, unsigned int n_ins,
	       const char *const *outs, unsigned int n_outs, int check,
	       int repeat, int json)
{
	struct binding *bi = calloc(n_ins + n_outs + 1, sizeof(*bi));
	double *lat = calloc((size_t)repeat, sizeof(*lat));
	struct vpux_device_info info;
	struct vpux_runner *r = NULL;
	struct vpux_device *dev = NULL;
	unsigned int i;
	int k, ret, status = VPUX_EXIT_FAIL;

	if (!bi || !lat) {
		vpux_cli_err(PROG, "out of memory");
		goto out;
	}
	for (i = 0; i < n_ins + n_outs; i++)
		if (split(i < n_ins ? ins[i] : outs[i - n_ins], &bi[i])) {
			vpux_cli_err(PROG, "--%s '%s': not NAME=FILE",
				     i < n_ins ? "input" : "output",
				     i < n_ins ? ins[i] : outs[i - n_ins]);
			status = VPUX_EXIT_USAGE;
			goto out;
		}
	ret = vpux_device_open(dev_name, &dev);
	if (ret) {
		status = fail(dev_name, ret);
		goto out;
	}
	vpux_device_query(dev, &info);
	ret = vpux_runner_create(dev, recipe, &r);
	if (ret) {
		status = fail("--recipe", ret);
		goto out;
	}
	if (check)
		vpux_runner_set_flags(r, VPUX_RUNNER_CHECK);
	for (i = 0; i < n_ins + n_outs; i++) {
		ret = i < n_ins ? bind_input(dev, r, &bi[i]) :
		      bind_output(dev, r, &bi[i]);
		if (ret) {
			status = ret;
			goto out;
		}
	}
	for (k = 0; k < repeat; k++) {
		double t0 = run_now_us();

		ret = vpux_runner_execute(r);
		if (!ret)
			ret = vpux_runner_wait(r, -1);
		lat[k] = run_now_us() - t0;
		if (ret) {
			status = check && strstr(vpux_last_error(),
						 "differs from the CPU reference") ?
				 EXIT_DIFFER : VPUX_EXIT_FAIL;
			vpux_cli_err(PROG, "%s: %s: %s", recipe,
				     vpux_strerror(ret), vpux_last_error());
			goto out;
		}
	}
	for (i = n_ins; i < n_ins + n_outs; i++)
		if (write_output(&bi[i]))
			goto out;
	qsort(lat, (size_t)repeat, sizeof(*lat), run_cmp_d);
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "recipe", json_object_new_string(recipe));
		json_object_object_add(o, "device", json_object_new_string(info.backend));
		json_object_object_add(o, "repeat", json_object_new_int(repeat));
		json_object_object_add(o, "checked", json_object_new_boolean(check));
		json_object_object_add(o, "latency_us_min", json_object_new_double(lat[0]));
		json_object_object_add(o, "latency_us_median",
				       json_object_new_double(lat[repeat / 2]));
		json_object_object_add(o, "latency_us_max",
				       json_object_new_double(lat[repeat - 1]));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else {
		if (check)
			printf("check: every NPU run bit-exact vs the CPU reference\n");
		printf("ran %s %d time(s) on %s: latency min %.1f us, median %.1f us, max %.1f us\n",
		       recipe, repeat, info.backend, lat[0], lat[repeat / 2],
		       lat[repeat - 1]);
	}
	status = VPUX_EXIT_OK;
out:
	vpux_runner_destroy(r);
	for (i = 0; bi && i < n_ins + n_outs; i++)
		vpux_buffer_free(bi[i].buf);
	if (dev)
		vpux_device_close(dev);
	free(bi);
	free(lat);
	return status;
}

// SPDX-License-Identifier: MIT
/*
 * vpux-info: list vpux NPUs and print every device parameter.
 *
 *	vpux-info            human-readable table, one column per device
 *	vpux-info --json     the same as a JSON document
 *	vpux-info -d DEV     only DEV: /dev/accel/accelN, or N
 *
 * Exit status (vpux-info(1)): 0 on success, 1 when no device (or no
 * driver) is present, 2 on a usage error, 3 on a failed query. A parameter the driver is too
 * old to know (uapi 1.5's limits on a 1.4 kernel) prints as "-" in the
 * table and null in JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <xf86drm.h>

#include <drm/vpux_accel.h>

#include "vpux_cli.h"

#define PROG "vpux-info"
#define EXIT_QUERY 3

#define VPUX_DRIVER_NAME "vpux_accel"
#define MAX_MINORS 64

enum fmt { FMT_DEC, FMT_HEX, FMT_VERSION, FMT_SIZE, FMT_CAPS, FMT_MODE };

static const struct param_desc {
	uint32_t id;
	const char *key;	/* JSON key */
	const char *label;	/* table label */
	enum fmt fmt;
	unsigned int minor;	/* the uapi 1.x minor that added it */
} params[] = {
	{ DRM_VPUX_PARAM_DEVICE_ID, "device_id", "device id", FMT_HEX, 0 },
	{ DRM_VPUX_PARAM_DEVICE_REVISION, "revision", "hardware revision", FMT_VERSION, 0 },
	{ DRM_VPUX_PARAM_UAPI_VERSION, "uapi_version", "uapi version", FMT_VERSION, 0 },
	{ DRM_VPUX_PARAM_SERIAL, "serial", "serial", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_DMA_ENGINES, "dma_engines", "DMA engines", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_DPU_ENGINES, "dpu_engines", "DPU engines", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_SHAVE_ENGINES, "shave_engines", "SHAVE engines", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_TILES, "tiles", "CMX tiles", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_CMX_SIZE, "cmx_size", "CMX per tile", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_NUM_CONTEXTS, "contexts", "MMU contexts", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_VA_BASE, "va_base", "device VA base", FMT_HEX, 0 },
	{ DRM_VPUX_PARAM_VA_SIZE, "va_size", "device VA size", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_CLOCK_KHZ, "clock_khz", "clock (kHz)", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_BO_MEMORY_LIMIT, "bo_memory_limit", "BO memory limit", FMT_SIZE, 3 },
	{ DRM_VPUX_PARAM_BO_MEMORY_USED, "bo_memory_used", "BO memory used", FMT_SIZE, 3 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT, "file_bo_memory_limit",
	  "BO memory per file", FMT_SIZE, 5 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, "file_bo_memory_used",
	  "BO memory, this file", FMT_SIZE, 5 },
	{ DRM_VPUX_PARAM_MAX_OPS_PER_TASK, "max_ops_per_task", "ops per task", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_MAX_BARRIERS, "max_barriers", "barriers per task", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_MAX_DEPS_PER_TASK, "max_deps_per_task", "deps per task", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_MAX_ADDR_ENTRIES, "max_addr_entries", "addr entries per job", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_MAX_IN_SYNCOBJS, "max_in_syncobjs", "in-syncobjs per job", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_TASK_SLOTS, "task_slots", "task slots", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_JOB_RING, "job_ring", "jobs per file", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_MAX_QUEUES, "max_queues", "queues per file", FMT_DEC, 5 },
	{ DRM_VPUX_PARAM_FW_MODE, "fw_mode", "engine core", FMT_MODE, 7 },
	{ DRM_VPUX_PARAM_CAPABILITIES, "capabilities", "capabilities", FMT_CAPS, 0 },
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static const char *const cap_names[] = {
	"dma-4d", "dpu-int8", "shave", "mmu", "cycles", "fault-inject", "plans",
};
#define NCAPS (sizeof(cap_names) / sizeof(cap_names[0]))

struct device {
	int minor;
	char path[64];
	char driver_version[32];
	uint64_t value[NPARAMS];
	bool absent[NPARAMS];	/* the driver does not know the parameter */
};

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vpux_get_param gp = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

/* 1 if @minor is a vpux device and was filled in, 0 if not ours, <0 error */
static int probe_device(int minor, struct device *dev)
{
	drmVersionPtr ver;
	size_t i;
	int fd, ret = 0, drv_minor;

	snprintf(dev->path, sizeof(dev->path), "/dev/accel/accel%d", minor);
	fd = open(dev->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;

	ver = drmGetVersion(fd);
	if (!ver || strcmp(ver->name, VPUX_DRIVER_NAME)) {
		drmFreeVersion(ver);
		close(fd);
		return 0;
	}
	dev->minor = minor;
	snprintf(dev->driver_version, sizeof(dev->driver_version), "%d.%d.%d",
		 ver->version_major, ver->version_minor,
		 ver->version_patchlevel);
	drv_minor = ver->version_major == DRM_VPUX_UAPI_VERSION_MAJOR ?
		    ver->version_minor : 0;
	drmFreeVersion(ver);

	for (i = 0; i < NPARAMS; i++) {
		ret = get_param(fd, params[i].id, &dev->value[i]);
		dev->absent[i] = false;
		if (ret == -EINVAL && params[i].minor > (unsigned int)drv_minor) {
			/* newer than the driver: not an error */
			dev->absent[i] = true;
			dev->value[i] = 0;
			ret = 0;
		}
		if (ret) {
			vpux_cli_err(PROG, "%s: GET_PARAM %s: %s",
				     dev->path, params[i].key, strerror(-ret));
			break;
		}
	}
	close(fd);
	return ret ? ret : 1;
}

static void format_value(const struct param_desc *p, uint64_t v,
			 char *buf, size_t len)
{
	size_t i, n;

	switch (p->fmt) {
	case FMT_DEC:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	case FMT_HEX:
		snprintf(buf, len, "%#" PRIx64, v);
		break;
	case FMT_VERSION:
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64, v >> 16, v & 0xffff);
		break;
	case FMT_SIZE:
		if (v >= (1ull << 30) && !(v & ((1ull << 30) - 1)))
			snprintf(buf, len, "%" PRIu64 " GiB", v >> 30);
		else if (v >= (1ull << 20) && !(v & ((1ull << 20) - 1)))
			snprintf(buf, len, "%" PRIu64 " MiB", v >> 20);
		else if (v >= 1024 && !(v & 1023))
			snprintf(buf, len, "%" PRIu64 " KiB", v >> 10);
		else
			snprintf(buf, len, "%" PRIu64 " B", v);
		break;
	case FMT_MODE:
		snprintf(buf, len, "%s", v == DRM_VPUX_FW_MODE_HEADED ? "headed (firmware)" :
			 v == DRM_VPUX_FW_MODE_HEADLESS ? "headless (driver)" : "?");
		break;
	case FMT_CAPS:
		buf[0] = '\0';
		for (i = 0, n = 0; i < NCAPS; i++) {
			if (!(v & (1ull << i)))
				continue;
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "," : "", cap_names[i]);
		}
		if (v >> NCAPS && n < len)
			snprintf(buf + n, len - n, "%s%#" PRIx64, n ? "," : "",
				 (uint64_t)(v & ~((1ull << NCAPS) - 1)));
		break;
	}
}

static void print_table(const struct device *devs, int n)
{
	char buf[128];
	size_t i;
	int d;

	printf("%-20s", "device");
	for (d = 0; d < n; d++)
		printf("  %-28s", devs[d].path);
	printf("\n%-20s", "driver");
	for (d = 0; d < n; d++)
		printf("  %-28s", VPUX_DRIVER_NAME);
	for (i = 0; i < NPARAMS; i++) {
		printf("\n%-20s", params[i].label);
		for (d = 0; d < n; d++) {
			if (devs[d].absent[i])
				snprintf(buf, sizeof(buf), "-");
			else
				format_value(&params[i], devs[d].value[i], buf,
					     sizeof(buf));
			printf("  %-28s", buf);
		}
	}
	printf("\n");
}

static int print_json(const struct device *devs, int n)
{
	json_object *root = json_object_new_object();
	json_object *arr = json_object_new_array();
	char buf[128];
	size_t i;
	int d;

	for (d = 0; d < n; d++) {
		json_object *o = json_object_new_object();
		json_object *caps = json_object_new_array();

		json_object_object_add(o, "path",
				       json_object_new_string(devs[d].path));
		json_object_object_add(o, "minor",
				       json_object_new_int(devs[d].minor));
		json_object_object_add(o, "driver",
				       json_object_new_string(VPUX_DRIVER_NAME));
		json_object_object_add(o, "driver_version",
				       json_object_new_string(devs[d].driver_version));
		for (i = 0; i < NPARAMS; i++) {
			uint64_t v = devs[d].value[i];

			if (devs[d].absent[i]) {
				json_object_object_add(o, params[i].key, NULL);
				continue;
			}
			if (params[i].fmt == FMT_VERSION) {
				format_value(&params[i], v, buf, sizeof(buf));
				json_object_object_add(o, params[i].key,
						       json_object_new_string(buf));
			} else {
				json_object_object_add(o, params[i].key,
						       json_object_new_uint64(v));
			}
			if (params[i].fmt != FMT_CAPS)
				continue;
			for (size_t c = 0; c < NCAPS; c++)
				if (v & (1ull << c))
					json_object_array_add(caps,
						json_object_new_string(cap_names[c]));
		}
		json_object_object_add(o, "capability_names", caps);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "devices", arr);
	printf("%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vpux-info [-j] [-d DEV]\n"
		   "List vpux NPUs and their parameters; see vpux-info(1).\n"
		   "  -d, --device DEV  only DEV: /dev/accel/accelN or N\n"
		   "  -j, --json        print JSON instead of a table\n"
		   "  -h, --help        print this help and exit\n"
		   "      --version     print the version and exit\n"
		   "Exit status: 0 ok, 1 no vpux device, 2 usage error, 3 query failed.\n");
}

/* the minor of /dev/accel/accelN (the device node itself, not a link) */
static int path_minor(const char *path)
{
	char *end;
	long n;

	if (strncmp(path, "/dev/accel/accel", 16))
		return -1;
	n = strtol(path + 16, &end, 10);
	if (end == path + 16 || *end || n < 0 || n >= MAX_MINORS)
		return -1;
	return (int)n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct device devs[MAX_MINORS];
	bool json = false;
	int only = -1, n = 0, minor, c, ret;
	const char *path;
	char buf[32];
	struct stat st;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jd:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'd':
			path = vpux_cli_device(optarg, buf, sizeof(buf));
			only = path ? path_minor(path) : -1;
			if (only < 0) {
				vpux_cli_err(PROG, "bad device '%s' (/dev/accel/accelN or N, N < %d)",
					     optarg, MAX_MINORS);
				usage(stderr);
				return VPUX_EXIT_USAGE;
			}
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
	if (optind != argc) {
		vpux_cli_err(PROG, "unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}

	for (minor = 0; minor < MAX_MINORS; minor++) {
		if (only >= 0 && minor != only)
			continue;
		ret = probe_device(minor, &devs[n]);
		if (ret < 0) {
			vpux_cli_err(PROG, "%s: %s", devs[n].path, strerror(-ret));
			return EXIT_QUERY;
		}
		n += ret;
	}

	if (!n) {
		if (stat("/sys/module/vpux_accel", &st))
			vpux_cli_err(PROG, "no vpux device: the vpux_accel module is not loaded (try: modprobe vpux_accel)");
		else if (only >= 0)
			vpux_cli_err(PROG, "/dev/accel/accel%d is not a vpux device",
				     only);
		else
			vpux_cli_err(PROG, "no vpux device: vpux_accel is loaded but no /dev/accel/accelN belongs to it");
		return VPUX_EXIT_FAIL;
	}

	if (json)
		return print_json(devs, n);
	print_table(devs, n);
	return 0;
}

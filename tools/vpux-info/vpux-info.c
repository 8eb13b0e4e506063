// SPDX-License-Identifier: MIT
/*
 * vpux-info: list vpux NPUs and print every device parameter.
 *
 *	vpux-info            human-readable table, one column per device
 *	vpux-info --json     the same as a JSON document
 *	vpux-info -d DEV     only DEV: /dev/accel/accelN, or N
 *	vpux-info --module   the loaded module (libkmod and /sys/module)
 *
 * Exit status (vpux-info(1)): 0 on success, 1 when no device is present,
 * 2 on a usage error, 3 on a failed query, 4 when the module is not
 * loaded (every view), 5 when it has no netlink family (netlink views). A
 * driver of another uapi major than this program's (uapi/drm/vpux_accel.h)
 * is a failed query, with a message naming both. A parameter the driver
 * is too old to know (added by a later 2.x minor) prints as "-" in the
 * table and null in JSON; so does a sysfs attribute an older driver does
 * not have (power_state).
 */
#include <dirent.h>
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
#include <libkmod.h>
#include <xf86drm.h>

#include <drm/vpux_accel.h>

#include "vpux_cli.h"
#include "vpux-info-nl.h"

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
	unsigned int minor;	/* the uapi 2.x minor that added it */
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
	{ DRM_VPUX_PARAM_BO_MEMORY_LIMIT, "bo_memory_limit", "BO memory limit", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_BO_MEMORY_USED, "bo_memory_used", "BO memory used", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT, "file_bo_memory_limit",
	  "BO memory per file", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, "file_bo_memory_used",
	  "BO memory, this file", FMT_SIZE, 0 },
	{ DRM_VPUX_PARAM_MAX_OPS_PER_TASK, "max_ops_per_task", "ops per task", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_BARRIERS, "max_barriers", "barriers per task", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_DEPS_PER_TASK, "max_deps_per_task", "deps per task", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_ADDR_ENTRIES, "max_addr_entries", "addr entries per job", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_IN_SYNCOBJS, "max_in_syncobjs", "in-syncobjs per job", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_TASK_SLOTS, "task_slots", "task slots", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_JOB_RING, "job_ring", "jobs per file", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_QUEUES, "max_queues", "queues per file", FMT_DEC, 0 },
	{ DRM_VPUX_PARAM_FW_MODE, "fw_mode", "engine core", FMT_MODE, 0 },
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
	char power_state[16];	/* sysfs power_state, "" if absent */
	char runtime_status[16];	/* sysfs power/runtime_status */
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

/*
 * The first line of a sysfs file into @buf (newline dropped): 0, or
 * -errno (@buf is "" then).
 */
static int read_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (ret)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

/* what sysfs says of the device's power; reading it does not wake it */
static void read_power(struct device *dev)
{
	char path[128];

	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/power_state", dev->minor);
	read_sysfs(path, dev->power_state, sizeof(dev->power_state));
	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/power/runtime_status",
		 dev->minor);
	read_sysfs(path, dev->runtime_status, sizeof(dev->runtime_status));
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
	if (ver->version_major != DRM_VPUX_UAPI_VERSION_MAJOR) {
		vpux_cli_err(PROG, "%s: vpux_accel uapi %d.%d, this vpux-info speaks uapi %d.x",
			     dev->path, ver->version_major, ver->version_minor,
			     DRM_VPUX_UAPI_VERSION_MAJOR);
		drmFreeVersion(ver);
		close(fd);
		return -EPROTO;
	}
	drv_minor = ver->version_minor;
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
	read_power(dev);
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
	printf("\n%-20s", "power");
	for (d = 0; d < n; d++)
		printf("  %-28s", devs[d].power_state[0] ? devs[d].power_state : "-");
	printf("\n%-20s", "runtime PM");
	for (d = 0; d < n; d++)
		printf("  %-28s", devs[d].runtime_status[0] ?
		       devs[d].runtime_status : "-");
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
		json_object_object_add(o, "power_state", devs[d].power_state[0] ?
				       json_object_new_string(devs[d].power_state) : NULL);
		json_object_object_add(o, "runtime_status", devs[d].runtime_status[0] ?
				       json_object_new_string(devs[d].runtime_status) : NULL);
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

/* ---- --module: the kernel module, through libkmod and /sys/module ---- */

struct mod_param {
	char name[256];
	char value[256];
	bool readable;
	const char *desc;	/* from modinfo, or NULL */
};

struct mod_facts {
	const char *state;
	char version[64];	/* "" if the module has none */
	char srcversion[64];
	int refcnt;
	long size;
	const char *path;	/* the .ko modules.dep names, or NULL */
	char holders[512];	/* comma-separated */
	struct kmod_list *holder_list;
	struct kmod_list *info;	/* modinfo of the .ko, or NULL */
	struct mod_param *params;
	int nparams;
};

/* modinfo "parm" entries are "name:description" */
static const char *param_desc(struct kmod_list *info, const char *name)
{
	struct kmod_list *l;
	size_t n = strlen(name);

	kmod_list_foreach(l, info) {
		const char *v = kmod_module_info_get_value(l);

		if (!strcmp(kmod_module_info_get_key(l), "parm") && v &&
		    !strncmp(v, name, n) && v[n] == ':')
			return v + n + 1;
	}
	return NULL;
}

static const char *info_value(struct kmod_list *info, const char *key)
{
	struct kmod_list *l;

	kmod_list_foreach(l, info)
		if (!strcmp(kmod_module_info_get_key(l), key))
			return kmod_module_info_get_value(l);
	return NULL;
}

static int param_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int read_params(struct mod_facts *m)
{
	struct dirent **names;
	char path[384];
	int i, n;

	/* d_name is at most 255 bytes: name[] holds it whole */

	n = scandir("/sys/module/" VPUX_DRIVER_NAME "/parameters", &names,
		    param_filter, alphasort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	m->params = calloc(n ? n : 1, sizeof(*m->params));
	if (!m->params) {
		for (i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct mod_param *p = &m->params[i];

		snprintf(p->name, sizeof(p->name), "%s", names[i]->d_name);
		snprintf(path, sizeof(path),
			 "/sys/module/" VPUX_DRIVER_NAME "/parameters/%s", p->name);
		/* write-only parameters have no value to show */
		p->readable = !read_sysfs(path, p->value, sizeof(p->value));
		p->desc = param_desc(m->info, p->name);
		free(names[i]);
	}
	free(names);
	m->nparams = n;
	return 0;
}

static void print_module_plain(const struct mod_facts *m)
{
	int i;

	printf("%-12s %s\n", "module", VPUX_DRIVER_NAME);
	printf("%-12s %s\n", "state", m->state);
	printf("%-12s %s\n", "version", m->version[0] ? m->version : "-");
	printf("%-12s %s\n", "srcversion", m->srcversion[0] ? m->srcversion : "-");
	printf("%-12s %d\n", "refcount", m->refcnt);
	printf("%-12s %s\n", "holders", m->holders[0] ? m->holders : "-");
	printf("%-12s %ld\n", "size", m->size);
	printf("%-12s %s\n", "path", m->path ? m->path : "-");
	printf("parameters\n");
	for (i = 0; i < m->nparams; i++) {
		const struct mod_param *p = &m->params[i];

		printf("  %-22s %-10s %s\n", p->name,
		       p->readable ? p->value : "(write-only)",
		       p->desc ? p->desc : "");
	}
}

static void print_module_json(const struct mod_facts *m)
{
	json_object *root = json_object_new_object();
	json_object *o = json_object_new_object();
	json_object *holders = json_object_new_array();
	json_object *params = json_object_new_array();
	struct kmod_list *l;
	int i;

	json_object_object_add(o, "name", json_object_new_string(VPUX_DRIVER_NAME));
	json_object_object_add(o, "state", json_object_new_string(m->state));
	json_object_object_add(o, "version", m->version[0] ?
			       json_object_new_string(m->version) : NULL);
	json_object_object_add(o, "srcversion", m->srcversion[0] ?
			       json_object_new_string(m->srcversion) : NULL);
	json_object_object_add(o, "refcount", json_object_new_int(m->refcnt));
	kmod_list_foreach(l, m->holder_list) {
		struct kmod_module *h = kmod_module_get_module(l);

		json_object_array_add(holders,
				      json_object_new_string(kmod_module_get_name(h)));
		kmod_module_unref(h);
	}
	json_object_object_add(o, "holders", holders);
	json_object_object_add(o, "size", json_object_new_int64(m->size));
	json_object_object_add(o, "path", m->path ?
			       json_object_new_string(m->path) : NULL);
	for (i = 0; i < m->nparams; i++) {
		const struct mod_param *p = &m->params[i];
		json_object *po = json_object_new_object();

		json_object_object_add(po, "name", json_object_new_string(p->name));
		json_object_object_add(po, "value", p->readable ?
				       json_object_new_string(p->value) : NULL);
		json_object_object_add(po, "description", p->desc ?
				       json_object_new_string(p->desc) : NULL);
		json_object_array_add(params, po);
	}
	json_object_object_add(o, "parameters", params);
	json_object_object_add(root, "module", o);
	printf("%s\n", json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

/*
 * The loaded module: libkmod for its state, refcount, holders, size and
 * (from the .ko modules.dep names, if any) its modinfo; /sys/module for
 * what the loaded image says of itself (version, srcversion) and the
 * parameters' current values. The module loaded from a path outside
 * /lib/modules (insmod) has no modinfo: its descriptions are missing, the
 * rest is there.
 */
static int show_module(bool json)
{
	struct mod_facts m = { 0 };
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	struct kmod_list *l;
	const char *v;
	size_t n = 0;
	int state, ret = VPUX_EXIT_FAIL;

	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		vpux_cli_err(PROG, "libkmod: cannot set up a context");
		return VPUX_EXIT_FAIL;
	}
	if (kmod_module_new_from_name(ctx, VPUX_DRIVER_NAME, &mod) < 0) {
		vpux_cli_err(PROG, "libkmod: cannot look up %s", VPUX_DRIVER_NAME);
		goto out;
	}
	state = kmod_module_get_initstate(mod);
	if (state < 0) {
		vpux_cli_err(PROG, "the %s module is not loaded (try: modprobe %s)",
			     VPUX_DRIVER_NAME, VPUX_DRIVER_NAME);
		ret = EXIT_NO_MODULE;
		goto out;
	}
	m.state = kmod_module_initstate_str(state);
	m.refcnt = kmod_module_get_refcnt(mod);
	m.size = kmod_module_get_size(mod);
	m.path = kmod_module_get_path(mod);
	if (m.path && kmod_module_get_info(mod, &m.info) < 0)
		m.info = NULL;
	if (read_sysfs("/sys/module/" VPUX_DRIVER_NAME "/version", m.version,
		       sizeof(m.version)) && (v = info_value(m.info, "version")))
		snprintf(m.version, sizeof(m.version), "%s", v);
	if (read_sysfs("/sys/module/" VPUX_DRIVER_NAME "/srcversion",
		       m.srcversion, sizeof(m.srcversion)) &&
	    (v = info_value(m.info, "srcversion")))
		snprintf(m.srcversion, sizeof(m.srcversion), "%s", v);
	m.holder_list = kmod_module_get_holders(mod);
	kmod_list_foreach(l, m.holder_list) {
		struct kmod_module *h = kmod_module_get_module(l);

		n += snprintf(m.holders + n, n < sizeof(m.holders) ?
			      sizeof(m.holders) - n : 0, "%s%s", n ? "," : "",
			      kmod_module_get_name(h));
		kmod_module_unref(h);
	}
	ret = read_params(&m);
	if (ret) {
		vpux_cli_err(PROG, "/sys/module/%s/parameters: %s",
			     VPUX_DRIVER_NAME, strerror(-ret));
		ret = EXIT_QUERY;
		goto out;
	}
	if (json)
		print_module_json(&m);
	else
		print_module_plain(&m);
	ret = VPUX_EXIT_OK;
out:
	free(m.params);
	kmod_module_unref_list(m.holder_list);
	kmod_module_info_free_list(m.info);
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vpux-info [-j] [-d DEV | -m]\n"
		   "List vpux NPUs and their parameters; see vpux-info(1).\n"
		   "  -d, --device DEV  only DEV: /dev/accel/accelN or N\n"
		   "  -m, --module      the vpux_accel module: version, srcversion,\n"
		   "                    refcount, holders, parameters and their values\n"
		   "  -j, --json        print JSON instead of a table\n"
		   "  -h, --help        print this help and exit\n"
		   "      --version     print the version and exit\n"
		   "Exit status: 0 ok, 1 no vpux device, 2 usage error, 3 query failed,\n"
		   "4 module not loaded, 5 no netlink family (netlink views).\n");
	vpux_info_nl_usage(f);
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
		{ "module", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct device devs[MAX_MINORS];
	bool json = false, module = false;
	int only = -1, n = 0, minor, c, ret;
	const char *path;
	char buf[32];
	struct stat st;

	/* --stats, --contexts, --watch, --events: vpux-info-nl.c */
	if (vpux_info_nl_wanted(argc, argv))
		return vpux_info_nl_main(argc, argv);

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jd:mh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'm':
			module = true;
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
	if (module && only >= 0) {
		vpux_cli_err(PROG, "--module and --device do not go together");
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	if (module)
		return show_module(json);

	for (minor = 0; minor < MAX_MINORS; minor++) {
		if (only >= 0 && minor != only)
			continue;
		ret = probe_device(minor, &devs[n]);
		if (ret == -EPROTO)	/* said why */
			return EXIT_QUERY;
		if (ret < 0) {
			vpux_cli_err(PROG, "%s: %s", devs[n].path, strerror(-ret));
			return EXIT_QUERY;
		}
		n += ret;
	}

	if (!n) {
		if (stat("/sys/module/vpux_accel", &st)) {
			vpux_cli_err(PROG, "no vpux device: the vpux_accel module is not loaded (try: modprobe vpux_accel)");
			return EXIT_NO_MODULE;
		} else if (only >= 0)
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

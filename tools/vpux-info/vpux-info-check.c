// SPDX-License-Identifier: MIT
/*
 * vpux-info-check: vpux-info's output against the driver, as TAP (the VM
 * rig runs it; tools/vm/tests.list).
 *
 *	vpux-info-check [KEY=VALUE]... [VPUX_INFO]
 *
 * VPUX_INFO defaults to vpux-info from PATH. Each KEY=VALUE (a JSON key
 * of vpux-info, e.g. dma_engines=2; VALUE decimal or 0x hex) is a value
 * every device must report: the shape of the device under test, which
 * the caller knows (tools/vm/tests.list gives the NPU model's default
 * shape), never what the device itself says.
 *
 * Runs vpux-info --json, vpux-info (the table) and vpux-info -d N --json
 * for each device, and checks every value against what GET_PARAM says
 * when this program asks the driver itself: each of the DRM_VPUX_PARAM_*
 * parameters under its key (this program keeps its own table of keys, so
 * a parameter printed under the wrong name fails), the table's rows
 * formatted as vpux-info documents them, the driver version, and the
 * expected values: the hardware's and the uapi's fixed ones (device id,
 * revision, uapi version, the uapi's limits) and those given on the
 * command line.
 * Then the power state each device's JSON reports against its sysfs
 * power_state and power/runtime_status, and vpux-info --module (plain and
 * JSON) against /sys/module/vpux_accel: version (which must also be the
 * DRM driver version), srcversion, refcount, holders, and every
 * parameter's value, no parameter missing or invented.
 * The per-file BO memory figures are the ones of a fresh file, which
 * vpux-info's file and this program's are; the device's BO memory in use
 * may change while the checks run (BOs of processes that just exited
 * are freed by the kernel's workers), so it must lie between what this
 * program reads just before and just after each run of vpux-info.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <json-c/json.h>

#include <drm/vpux_accel.h>

#include "vpux_regs.h"
#include "vpux_capture.h"
#include "vpux_tap.h"

#define MAX_DEVS	8

enum fmt { DEC, HEX, VER, SIZE, CAPS, MODE };

static const struct {
	uint32_t id;
	const char *key, *label;
	enum fmt fmt;
	uint64_t fixed;		/* the hardware's or uapi's value, 0: none */
} params[] = {
	{ DRM_VPUX_PARAM_DEVICE_ID, "device_id", "device id", HEX, VPUX_HW_DEVICE_ID },
	{ DRM_VPUX_PARAM_DEVICE_REVISION, "revision", "hardware revision", VER,
	  VPUX_HW_REV_MAJOR << 16 | VPUX_HW_REV_MINOR },
	{ DRM_VPUX_PARAM_UAPI_VERSION, "uapi_version", "uapi version", VER,
	  DRM_VPUX_UAPI_VERSION_MAJOR << 16 | DRM_VPUX_UAPI_VERSION_MINOR },
	{ DRM_VPUX_PARAM_NUM_DMA_ENGINES, "dma_engines", "DMA engines", DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_DPU_ENGINES, "dpu_engines", "DPU engines", DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_SHAVE_ENGINES, "shave_engines", "SHAVE engines", DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_TILES, "tiles", "CMX tiles", DEC, 0 },
	{ DRM_VPUX_PARAM_CMX_SIZE, "cmx_size", "CMX per tile", SIZE, 0 },
	{ DRM_VPUX_PARAM_VA_BASE, "va_base", "device VA base", HEX, 0 },
	{ DRM_VPUX_PARAM_VA_SIZE, "va_size", "device VA size", SIZE, 0 },
	{ DRM_VPUX_PARAM_CAPABILITIES, "capabilities", "capabilities", CAPS, 0 },
	{ DRM_VPUX_PARAM_CLOCK_KHZ, "clock_khz", "clock (kHz)", DEC, 0 },
	{ DRM_VPUX_PARAM_NUM_CONTEXTS, "contexts", "MMU contexts", DEC, 0 },
	{ DRM_VPUX_PARAM_SERIAL, "serial", "serial", DEC, 0 },
	{ DRM_VPUX_PARAM_BO_MEMORY_LIMIT, "bo_memory_limit", "BO memory limit", SIZE, 0 },
	{ DRM_VPUX_PARAM_BO_MEMORY_USED, "bo_memory_used", "BO memory used", SIZE, 0 },
	{ DRM_VPUX_PARAM_MAX_OPS_PER_TASK, "max_ops_per_task", "ops per task", DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_BARRIERS, "max_barriers", "barriers per task", DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_DEPS_PER_TASK, "max_deps_per_task", "deps per task", DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_ADDR_ENTRIES, "max_addr_entries", "addr entries per job", DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_IN_SYNCOBJS, "max_in_syncobjs", "in-syncobjs per job", DEC, 0 },
	{ DRM_VPUX_PARAM_TASK_SLOTS, "task_slots", "task slots", DEC, 0 },
	{ DRM_VPUX_PARAM_JOB_RING, "job_ring", "jobs per file", DEC, 0 },
	{ DRM_VPUX_PARAM_MAX_QUEUES, "max_queues", "queues per file", DEC, 0 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_LIMIT, "file_bo_memory_limit", "BO memory per file",
	  SIZE, 0 },
	{ DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, "file_bo_memory_used", "BO memory, this file",
	  SIZE, 0 },
	{ DRM_VPUX_PARAM_FW_MODE, "fw_mode", "engine core", MODE, 0 },
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

struct dev {
	int minor;
	char path[64];
	char version[32];	/* major.minor.patchlevel */
	uint64_t v[NPARAMS];
	uint64_t used[2];	/* BO_MEMORY_USED before and after a run */
};

static struct dev devs[MAX_DEVS];
static int ndevs;
static const char *info = "vpux-info";

/* what every device must report: the fixed values and the command line's */
static uint64_t expect[NPARAMS];
static int has_expect[NPARAMS];
static char expect_list[512];	/* "key=value ..." for the TAP line */

static size_t param_index(uint32_t id)
{
	size_t i;

	for (i = 0; i < NPARAMS - 1 && params[i].id != id; i++)
		;
	return i;
}

static int in_range(uint64_t v, uint64_t a, uint64_t b)
{
	return a <= b ? v >= a && v <= b : v >= b && v <= a;
}

/* BO_MEMORY_USED of every device now, into used[@k] */
static void read_used(int k)
{
	int i;

	for (i = 0; i < ndevs; i++) {
		struct drm_vpux_get_param gp = { .param = DRM_VPUX_PARAM_BO_MEMORY_USED };
		int fd = open(devs[i].path, O_RDWR | O_CLOEXEC);

		devs[i].used[k] = ~0ull;
		if (fd < 0)
			continue;
		if (!ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp))
			devs[i].used[k] = gp.value;
		close(fd);
	}
}

/* the vpux_accel devices, their parameters read by this program */
static int find_devices(void)
{
	int minor, fd;
	size_t i;

	for (minor = 0; minor < 64 && ndevs < MAX_DEVS; minor++) {
		struct dev *d = &devs[ndevs];
		char name[32] = "";
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(d->path, sizeof(d->path), "/dev/accel/accel%d", minor);
		fd = open(d->path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ioctl(fd, DRM_IOCTL_VERSION, &v) || strcmp(name, "vpux_accel")) {
			close(fd);
			continue;
		}
		d->minor = minor;
		snprintf(d->version, sizeof(d->version), "%d.%d.%d", v.version_major,
			 v.version_minor, v.version_patchlevel);
		for (i = 0; i < NPARAMS; i++) {
			struct drm_vpux_get_param gp = { .param = params[i].id };

			if (ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp)) {
				tap_diag("%s: GET_PARAM %s: %s", d->path, params[i].key,
					 strerror(errno));
				gp.value = ~0ull;
			}
			d->v[i] = gp.value;
		}
		close(fd);
		ndevs++;
	}
	return ndevs;
}

/* the output of "vpux-info ARGS" (malloc'd), its exit status in *@rc */
static char *run(int *rc, const char *fmt, ...)
{
	char cmd[512], *out;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = (size_t)snprintf(cmd, sizeof(cmd), "%s ", info);
	vsnprintf(cmd + n, sizeof(cmd) - n, fmt, ap);
	va_end(ap);
	read_used(0);
	out = vpux_capture(cmd, rc);
	read_used(1);
	return out;
}

/* vpux-info's documented rendering of a table cell */
static void cell(size_t i, uint64_t v, char *buf, size_t len)
{
	switch (params[i].fmt) {
	case DEC:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	case HEX:
		snprintf(buf, len, "%#" PRIx64, v);
		break;
	case VER:
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64, v >> 16, v & 0xffff);
		break;
	case SIZE:
		if (v >= (1ull << 30) && !(v & ((1ull << 30) - 1)))
			snprintf(buf, len, "%" PRIu64 " GiB", v >> 30);
		else if (v >= (1ull << 20) && !(v & ((1ull << 20) - 1)))
			snprintf(buf, len, "%" PRIu64 " MiB", v >> 20);
		else if (v >= 1024 && !(v & 1023))
			snprintf(buf, len, "%" PRIu64 " KiB", v >> 10);
		else
			snprintf(buf, len, "%" PRIu64 " B", v);
		break;
	case CAPS:
		buf[0] = '\0';	/* names, checked through JSON */
		break;
	case MODE:
		snprintf(buf, len, "%s", v == DRM_VPUX_FW_MODE_HEADED ? "headed (firmware)" :
			 v == DRM_VPUX_FW_MODE_HEADLESS ? "headless (driver)" : "?");
		break;
	}
}

/* one device's JSON object against its GET_PARAM values */
static void check_json_dev(json_object *o, const struct dev *d, const char *how)
{
	json_object *x;
	size_t i;
	unsigned int bad = 0, expect_bad = 0;
	char buf[64];

	tap_check(json_object_object_get_ex(o, "driver_version", &x) &&
		  !strcmp(json_object_get_string(x), d->version) &&
		  json_object_object_get_ex(o, "minor", &x) &&
		  json_object_get_int(x) == d->minor &&
		  json_object_object_get_ex(o, "driver", &x) &&
		  !strcmp(json_object_get_string(x), "vpux_accel"),
		  "%s %s: driver vpux_accel %s, minor %d", how, d->path, d->version,
		  d->minor);
	for (i = 0; i < NPARAMS; i++) {
		uint64_t got;
		int ok;

		if (!json_object_object_get_ex(o, params[i].key, &x) || !x) {
			tap_diag("%s %s: no \"%s\"", how, d->path, params[i].key);
			bad++;
			continue;
		}
		if (params[i].fmt == VER) {
			cell(i, d->v[i], buf, sizeof(buf));
			ok = json_object_is_type(x, json_type_string) &&
			     !strcmp(json_object_get_string(x), buf);
			got = 0;
		} else {
			got = json_object_get_uint64(x);
			ok = json_object_is_type(x, json_type_int) && got == d->v[i];
			if (params[i].id == DRM_VPUX_PARAM_BO_MEMORY_USED)
				ok = json_object_is_type(x, json_type_int) &&
				     in_range(got, d->used[0], d->used[1]);
		}
		if (!ok) {
			tap_diag("%s %s: \"%s\" is %s, GET_PARAM says %#" PRIx64, how,
				 d->path, params[i].key, json_object_to_json_string(x),
				 d->v[i]);
			bad++;
		}
		if (has_expect[i] && d->v[i] != expect[i]) {
			tap_diag("%s: %s is %" PRIu64 ", expected %" PRIu64, d->path,
				 params[i].key, d->v[i], expect[i]);
			expect_bad++;
		}
	}
	tap_check(!bad, "%s %s: all %zu parameters equal GET_PARAM's (%u differ)", how,
		  d->path, NPARAMS, bad);
	tap_check(!expect_bad, "%s %s: the expected values (%s; %u differ)",
		  how, d->path, expect_list, expect_bad);
	/* capability names agree with the bits */
	if (json_object_object_get_ex(o, "capability_names", &x)) {
		static const char *const names[] = {
			"dma-4d", "dpu-int8", "shave", "mmu", "cycles", "fault-inject",
			"plans",
		};
		uint64_t caps = d->v[param_index(DRM_VPUX_PARAM_CAPABILITIES)];
		uint64_t from_names = 0;
		size_t k, c;

		for (k = 0; k < json_object_array_length(x); k++)
			for (c = 0; c < 7; c++)
				if (!strcmp(json_object_get_string(json_object_array_get_idx(x, k)),
					    names[c]))
					from_names |= 1ull << c;
		tap_check(from_names == caps && (caps & DRM_VPUX_CAP_MMU),
			  "%s %s: capability names give 0x%" PRIx64 ", GET_PARAM 0x%" PRIx64,
			  how, d->path, from_names, caps);
	} else {
		tap_check(0, "%s %s: capability_names", how, d->path);
	}
}

static void check_json(void)
{
	json_object *root, *arr;
	char *out;
	int rc, i, n;

	out = run(&rc, "--json");
	root = out ? json_tokener_parse(out) : NULL;
	if (!tap_check(rc == 0 && root && json_object_object_get_ex(root, "devices", &arr),
		       "vpux-info --json: exit %d, a JSON document with \"devices\"", rc)) {
		free(out);
		return;
	}
	n = (int)json_object_array_length(arr);
	tap_check(n == ndevs, "vpux-info --json: %d devices, the driver has %d", n, ndevs);
	for (i = 0; i < n && i < ndevs; i++)
		check_json_dev(json_object_array_get_idx(arr, i), &devs[i], "--json");
	json_object_put(root);
	free(out);

	/* -d N: that device alone */
	for (i = 0; i < ndevs; i++) {
		out = run(&rc, "-d %d --json", devs[i].minor);
		root = out ? json_tokener_parse(out) : NULL;
		if (tap_check(rc == 0 && root &&
			      json_object_object_get_ex(root, "devices", &arr) &&
			      json_object_array_length(arr) == 1,
			      "vpux-info -d %d --json: exit %d, one device", devs[i].minor, rc))
			check_json_dev(json_object_array_get_idx(arr, 0), &devs[i], "-d");
		if (root)
			json_object_put(root);
		free(out);
	}
	out = run(&rc, "-d 63 2>&1");
	tap_check(rc == 1 && out && strstr(out, "accel63"),
		  "vpux-info -d 63: exit 1 naming the node (%d)", rc);
	free(out);
}

/* the table: a row per parameter, a column per device, cells as documented */
static void check_table(void)
{
	char *out, *line, *save = NULL, buf[64], want[64];
	unsigned int rows = 0, bad = 0;
	size_t i;
	int rc, d;

	out = run(&rc, "");
	if (!tap_check(rc == 0 && out, "vpux-info: exit %d", rc)) {
		free(out);
		return;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < NPARAMS; i++) {
			size_t l = strlen(params[i].label);
			const char *p = line + 20;

			if (strncmp(line, params[i].label, l) || line[l] != ' ' ||
			    params[i].fmt == CAPS || strlen(line) < 20)
				continue;
			rows++;
			/* columns are 30 wide: two spaces, then 28 */
			for (d = 0; d < ndevs; d++, p += 30) {
				if (strlen(p) < 2)
					break;
				snprintf(buf, sizeof(buf), "%.28s", p + 2);
				while (*buf && buf[strlen(buf) - 1] == ' ')
					buf[strlen(buf) - 1] = '\0';
				cell(i, devs[d].v[i], want, sizeof(want));
				if (params[i].id == DRM_VPUX_PARAM_BO_MEMORY_USED) {
					cell(i, devs[d].used[0], want, sizeof(want));
					if (strcmp(buf, want))
						cell(i, devs[d].used[1], want, sizeof(want));
				}
				if (strcmp(buf, want)) {
					tap_diag("table: %s of %s is \"%s\", GET_PARAM gives \"%s\"",
						 params[i].label, devs[d].path, buf, want);
					bad++;
				}
			}
			if (d != ndevs) {
				tap_diag("table: row %s has %d columns", params[i].label, d);
				bad++;
			}
		}
	}
	tap_check(rows == NPARAMS - 1 && !bad,
		  "vpux-info: %u of %zu rows, every cell equal to GET_PARAM's (%u differ)",
		  rows, NPARAMS - 1, bad);
	free(out);
}

/* a sysfs file's first line without its newline, "" if unreadable */
static void sysfs_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static const char *json_str(json_object *o, const char *key)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !x)
		return NULL;
	return json_object_get_string(x);
}

/* power_state and runtime_status of each device, against sysfs around the run */
static void check_power(void)
{
	static const char *const attr[2][2] = {
		{ "power_state", "power_state" },
		{ "runtime_status", "power/runtime_status" },
	};
	char before[MAX_DEVS][2][32], after[32], path[128];
	json_object *root, *arr;
	unsigned int bad = 0;
	char *out;
	int rc, i, k, ok;

	for (i = 0; i < ndevs; i++)
		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/%s",
				 devs[i].minor, attr[k][1]);
			sysfs_line(path, before[i][k], sizeof(before[i][k]));
		}
	out = run(&rc, "--json");
	root = out ? json_tokener_parse(out) : NULL;
	if (!tap_check(rc == 0 && root && json_object_object_get_ex(root, "devices", &arr) &&
		       (int)json_object_array_length(arr) == ndevs,
		       "vpux-info --json for the power state: exit %d", rc)) {
		free(out);
		return;
	}
	for (i = 0; i < ndevs; i++) {
		json_object *o = json_object_array_get_idx(arr, i);

		for (k = 0; k < 2; k++) {
			const char *s = json_str(o, attr[k][0]);

			snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/%s",
				 devs[i].minor, attr[k][1]);
			sysfs_line(path, after, sizeof(after));
			/*
			 * the NPU may autosuspend while vpux-info runs; an
			 * attribute the kernel lacks (no CONFIG_PM: no
			 * power/ directory) is null
			 */
			if (!*before[i][k] && !*after)
				ok = !s;
			else
				ok = s && (!strcmp(s, before[i][k]) ||
					   !strcmp(s, after));
			if (!ok) {
				tap_diag("%s: %s is \"%s\", sysfs \"%s\" then \"%s\"",
					 devs[i].path, attr[k][0], s ? s : "(null)",
					 before[i][k], after);
				bad++;
			}
		}
	}
	tap_check(!bad, "vpux-info --json: power_state and runtime_status of %d devices equal to sysfs (%u differ)",
		  ndevs, bad);
	json_object_put(root);
	free(out);
}

#define SYSMOD "/sys/module/vpux_accel"

static int name_filter(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* the entries of a /sys/module directory, comma-separated and sorted */
static void dir_list(const char *dir, char *buf, size_t len)
{
	struct dirent **names;
	size_t n = 0;
	int i, k;

	buf[0] = '\0';
	k = scandir(dir, &names, name_filter, alphasort);
	for (i = 0; i < k; i++) {
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
					      names[i]->d_name);
		free(names[i]);
	}
	if (k >= 0)
		free(names);
}

static void check_module(void)
{
	char srcv[64], ver[64], refcnt[32], refcnt2[32], want[2048], got[2048];
	char path[384], val[256];
	json_object *root, *m, *arr, *x;
	unsigned int bad = 0;
	size_t n = 0, i;
	char *out;
	int rc;

	sysfs_line(SYSMOD "/srcversion", srcv, sizeof(srcv));
	sysfs_line(SYSMOD "/version", ver, sizeof(ver));
	sysfs_line(SYSMOD "/refcnt", refcnt, sizeof(refcnt));
	out = run(&rc, "--module --json");
	sysfs_line(SYSMOD "/refcnt", refcnt2, sizeof(refcnt2));
	root = out ? json_tokener_parse(out) : NULL;
	if (!tap_check(rc == 0 && root && json_object_object_get_ex(root, "module", &m),
		       "vpux-info --module --json: exit %d, a JSON document with \"module\"",
		       rc)) {
		free(out);
		return;
	}
	tap_check(json_str(m, "name") && !strcmp(json_str(m, "name"), "vpux_accel") &&
		  json_str(m, "state") && !strcmp(json_str(m, "state"), "live"),
		  "--module: name vpux_accel, state live");
	tap_check(*srcv && json_str(m, "srcversion") &&
		  !strcmp(json_str(m, "srcversion"), srcv),
		  "--module: srcversion %s equals sysfs's \"%s\"",
		  json_str(m, "srcversion") ? json_str(m, "srcversion") : "(null)", srcv);
	tap_check(*ver && json_str(m, "version") && !strcmp(json_str(m, "version"), ver) &&
		  !strcmp(ver, devs[0].version),
		  "--module: version %s equals sysfs's \"%s\" and the DRM driver's %s",
		  json_str(m, "version") ? json_str(m, "version") : "(null)", ver,
		  devs[0].version);
	x = NULL;
	json_object_object_get_ex(m, "refcount", &x);
	i = x ? (size_t)json_object_get_int(x) : ~(size_t)0;
	tap_check(x && *refcnt && in_range(i, strtoull(refcnt, NULL, 10),
					   strtoull(refcnt2, NULL, 10)),
		  "--module: refcount %zd equals sysfs refcnt (%s..%s)",
		  (ssize_t)i, refcnt, refcnt2);

	got[0] = '\0';
	if (json_object_object_get_ex(m, "holders", &arr))
		for (i = 0; i < json_object_array_length(arr) && n < sizeof(got); i++)
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s", n ? "," : "",
					      json_object_get_string(json_object_array_get_idx(arr, i)));
	dir_list(SYSMOD "/holders", want, sizeof(want));
	tap_check(!strcmp(got, want), "--module: holders [%s] equal sysfs's [%s]", got, want);

	/* every parameter, named as sysfs names them, with sysfs's value */
	n = 0;
	got[0] = '\0';
	if (json_object_object_get_ex(m, "parameters", &arr)) {
		for (i = 0; i < json_object_array_length(arr); i++) {
			json_object *p = json_object_array_get_idx(arr, i);
			const char *name = json_str(p, "name"), *v = json_str(p, "value");

			if (!name)
				continue;
			if (n < sizeof(got))
				n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s",
						      n ? "," : "", name);
			snprintf(path, sizeof(path), SYSMOD "/parameters/%s", name);
			sysfs_line(path, val, sizeof(val));
			if (access(path, R_OK) ? v != NULL : !v || strcmp(v, val)) {
				tap_diag("parameter %s: \"%s\", sysfs \"%s\"", name,
					 v ? v : "(null)", val);
				bad++;
			}
		}
	}
	dir_list(SYSMOD "/parameters", want, sizeof(want));
	tap_check(*want && !strcmp(got, want) && !bad,
		  "--module: parameters [%s] as sysfs's [%s], every value equal (%u differ)",
		  got, want, bad);
	json_object_put(root);
	free(out);

	/* the plain view says the same */
	out = run(&rc, "--module");
	snprintf(want, sizeof(want), "\nsrcversion   %s\n", srcv);
	sysfs_line(SYSMOD "/parameters/autosuspend_delay_ms", val, sizeof(val));
	snprintf(path, sizeof(path), "\n  %-22s %-10s ", "autosuspend_delay_ms", val);
	tap_check(rc == 0 && out && strstr(out, want) && strstr(out, path),
		  "vpux-info --module: exit %d, srcversion and autosuspend_delay_ms %s shown",
		  rc, val);
	free(out);
}

/* the fixed values, then KEY=VALUE arguments; the last other one is vpux-info */
static int parse_args(int argc, char **argv)
{
	size_t i, n = 0;
	int a;

	for (i = 0; i < NPARAMS; i++) {
		expect[i] = params[i].fixed;
		has_expect[i] = params[i].fixed != 0;
	}
	for (a = 1; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		char *end;

		if (!eq) {
			info = argv[a];
			continue;
		}
		for (i = 0; i < NPARAMS; i++)
			if (strlen(params[i].key) == (size_t)(eq - argv[a]) &&
			    !strncmp(argv[a], params[i].key, (size_t)(eq - argv[a])))
				break;
		errno = 0;
		if (i == NPARAMS || params[i].fmt == VER || !eq[1]) {
			fprintf(stderr, "vpux-info-check: %s: not KEY=VALUE of a numeric key\n",
				argv[a]);
			return -1;
		}
		expect[i] = strtoull(eq + 1, &end, 0);
		if (errno || *end) {
			fprintf(stderr, "vpux-info-check: %s: bad value\n", argv[a]);
			return -1;
		}
		has_expect[i] = 1;
	}
	for (i = 0; i < NPARAMS; i++) {
		char buf[64];

		if (!has_expect[i] || n >= sizeof(expect_list))
			continue;
		cell(i, expect[i], buf, sizeof(buf));
		n += (size_t)snprintf(expect_list + n, sizeof(expect_list) - n,
				      "%s%s %s", n ? ", " : "", params[i].key, buf);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (parse_args(argc, argv))
		return 2;
	if (!find_devices()) {
		tap_skip("no vpux_accel device");
		return tap_finish();
	}
	check_json();
	check_table();
	check_power();
	check_module();
	return tap_finish();
}

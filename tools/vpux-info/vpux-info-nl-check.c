// SPDX-License-Identifier: MIT
/*
 * vpux-info-nl-check: vpux-info's netlink views checked value by value
 * (TAP, run in the VM by tools/vm/tests.list):
 *
 *	vpux-info-nl-check [VPUX_INFO [VPUX_RUN NETWORK]]
 *
 * --stats --json against GET_PARAM, sysfs npu_busy_time_us and the
 * accel nodes, and again after a known workload (vpux-run NETWORK: job
 * counts and busy times grow, submitted == completed); --contexts --json
 * against this process's own file (pid, uid, fdinfo drm-client-id and
 * drm-engine-npu, GET_PARAM memory); --watch --json --count 2 gives two
 * samples per device with sane percentages; --events --json reports an
 * injected MMU fault with the address, and as uid 65534 --events is
 * refused (the group needs CAP_SYS_ADMIN) with exit 3; an unknown device
 * and bad options give their exit codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include <drm/vpux_accel.h>

#include "vpux_capture.h"
#include "vpux_tap.h"

static const char *info = "vpux-info";
static const char *vrun = "vpux-run";
static const char *network = "/vpux/bin/tiny_cnn.vpux";

/* run "@info ARGS", its stdout in a malloc'd string, exit status in *@rc */
static char *run(int *rc, const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return vpux_capture(cmd, rc);
}

/*
 * Run @cmd through the shell as uid and gid 65534 (no capabilities):
 * its stdout and stderr in a malloc'd string, exit status in *@rc (-1
 * if it did not exit, 126 if the drop failed).
 */
static char *run_as_nobody(int *rc, const char *cmd)
{
	size_t len = 0, cap = 4096;
	char *out = malloc(cap);
	int p[2], st;
	ssize_t n;
	pid_t pid;

	*rc = -1;
	if (!out || pipe(p)) {
		free(out);
		return NULL;
	}
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(126);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (pid > 0 && (n = read(p[0], out + len, cap - len - 1)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *q = realloc(out, cap *= 2);

			if (!q)
				break;
			out = q;
		}
	}
	out[len] = '\0';
	close(p[0]);
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		*rc = WEXITSTATUS(st);
	return out;
}

static uint64_t jget(json_object *o, const char *key)
{
	json_object *x;

	return json_object_object_get_ex(o, key, &x) ? json_object_get_uint64(x) : ~0ull;
}

static uint64_t jengine(json_object *dev, const char *kind, const char *key)
{
	json_object *e, *k;

	if (!json_object_object_get_ex(dev, "engines", &e) ||
	    !json_object_object_get_ex(e, kind, &k))
		return ~0ull;
	return jget(k, key);
}

static int get_param(int fd, uint32_t param, uint64_t *v)
{
	struct drm_vpux_get_param gp = { .param = param };

	if (ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp))
		return -errno;
	*v = gp.value;
	return 0;
}

static long long read_num(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoll(buf, NULL, 0);
}

static long long busy_us(int minor)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/npu_busy_time_us", minor);
	return read_num(path);
}

static long long fdinfo(int fd, const char *key)
{
	char path[64], line[256];
	size_t kl = strlen(key);
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':')
			v = strtoll(line + kl + 1, NULL, 0);
	fclose(f);
	return v;
}

/* --stats --json for device @minor, checked against GET_PARAM and sysfs */
static json_object *stats(int minor, int fd, json_object **root, bool check)
{
	json_object *arr, *dev = NULL;
	long long us0, us1;
	uint64_t v;
	char *out;
	int rc, i;

	us0 = busy_us(minor);
	out = run(&rc, "%s --stats --json", info);
	us1 = busy_us(minor);
	*root = out ? json_tokener_parse(out) : NULL;
	if (!tap_check(rc == 0 && *root && json_object_object_get_ex(*root, "devices", &arr),
		       "vpux-info --stats --json: exit %d, a devices array", rc)) {
		free(out);
		return NULL;
	}
	free(out);
	for (i = 0; i < (int)json_object_array_length(arr); i++) {
		json_object *d = json_object_array_get_idx(arr, i);

		if (jget(d, "id") == (uint64_t)minor)
			dev = d;
	}
	if (!tap_check(dev != NULL, "--stats: accel%d is listed", minor) || !check)
		return dev;
	get_param(fd, DRM_VPUX_PARAM_DEVICE_ID, &v);
	tap_check(jget(dev, "device_id") == v, "--stats: device_id %" PRIu64 " == GET_PARAM's %" PRIu64,
		  jget(dev, "device_id"), v);
	get_param(fd, DRM_VPUX_PARAM_SERIAL, &v);
	tap_check(jget(dev, "serial") == v, "--stats: serial == GET_PARAM's %" PRIu64, v);
	get_param(fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &v);
	tap_check(jget(dev, "mem_limit") == v, "--stats: mem_limit == GET_PARAM's %" PRIu64, v);
	get_param(fd, DRM_VPUX_PARAM_NUM_DPU_ENGINES, &v);
	tap_check(jengine(dev, "dpu", "count") == v, "--stats: %" PRIu64 " DPU engines, as GET_PARAM", v);
	tap_check(us0 >= 0 && (long long)(jget(dev, "busy_ns") / 1000) >= us0 &&
		  (long long)(jget(dev, "busy_ns") / 1000) <= us1,
		  "--stats: busy_ns/1000 %" PRIu64 " within sysfs npu_busy_time_us [%lld, %lld]",
		  jget(dev, "busy_ns") / 1000, us0, us1);
	tap_check(jget(dev, "jobs_submitted") >= jget(dev, "jobs_completed") +
		  jget(dev, "jobs_failed") + jget(dev, "jobs_timedout"),
		  "--stats: submitted >= completed + failed + timed out");
	tap_check(jget(dev, "open_files") >= 1, "--stats: our open file is counted (%" PRIu64 ")",
		  jget(dev, "open_files"));
	return dev;
}

int main(int argc, char **argv)
{
	json_object *r0 = NULL, *r1 = NULL, *d0, *d1, *root, *arr;
	char node[64], *out, *line;
	long long client;
	int fd, minor = 0, rc, i, lines;
	uint64_t v;

	if (argc > 1)
		info = argv[1];
	if (argc > 3) {
		vrun = argv[2];
		network = argv[3];
	}
	for (minor = 0; minor < 64; minor++) {
		snprintf(node, sizeof(node), "/dev/accel/accel%d", minor);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd >= 0)
			break;
	}
	if (fd < 0) {
		tap_skip("no vpux_accel device");
		return tap_finish();
	}

	/* --stats, then a known workload, then --stats again */
	d0 = stats(minor, fd, &r0, true);
	out = run(&rc, "%s --device %s --repeat 3 %s >/dev/null 2>&1; echo $?", vrun, node, network);
	tap_check(out && atoi(out) == 0, "workload: %s --repeat 3 %s", vrun, network);
	free(out);
	d1 = stats(minor, fd, &r1, false);
	if (d0 && d1) {
		uint64_t sub = jget(d1, "jobs_submitted") - jget(d0, "jobs_submitted");
		uint64_t done = jget(d1, "jobs_completed") - jget(d0, "jobs_completed");

		tap_check(sub >= 3 && sub == done,
			  "--stats after the workload: %" PRIu64 " more submitted, %" PRIu64 " more completed",
			  sub, done);
		tap_check(jget(d1, "busy_ns") > jget(d0, "busy_ns"),
			  "--stats after the workload: busy_ns grew");
		tap_check(jengine(d1, "dpu", "busy_ns") > jengine(d0, "dpu", "busy_ns") &&
			  jengine(d1, "dma", "busy_ns") > jengine(d0, "dma", "busy_ns"),
			  "--stats after the workload: DMA and DPU busy time grew");
	}
	json_object_put(r0);
	json_object_put(r1);

	/* --contexts: this process's file */
	client = fdinfo(fd, "drm-client-id");
	out = run(&rc, "%s --contexts --json -d %d", info, minor);
	root = out ? json_tokener_parse(out) : NULL;
	free(out);
	if (tap_check(rc == 0 && root && json_object_object_get_ex(root, "contexts", &arr),
		      "vpux-info --contexts --json: exit %d", rc)) {
		json_object *me = NULL;

		for (i = 0; i < (int)json_object_array_length(arr); i++) {
			json_object *c = json_object_array_get_idx(arr, i);

			if (jget(c, "id") == (uint64_t)client)
				me = c;
		}
		if (tap_check(me != NULL, "--contexts: our file (client %lld) is listed", client)) {
			get_param(fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &v);
			tap_check(jget(me, "pid") == (uint64_t)getpid() &&
				  jget(me, "uid") == (uint64_t)getuid() &&
				  jget(me, "dev_id") == (uint64_t)minor,
				  "--contexts: pid %" PRIu64 ", uid, device are ours", jget(me, "pid"));
			tap_check(jget(me, "busy_ns") == (uint64_t)fdinfo(fd, "drm-engine-npu"),
				  "--contexts: busy_ns == fdinfo drm-engine-npu");
			tap_check(jget(me, "mem_used") == v,
				  "--contexts: mem_used %" PRIu64 " == GET_PARAM's %" PRIu64,
				  jget(me, "mem_used"), v);
		}
	}
	json_object_put(root);

	/* --watch: two samples of the device, sane numbers */
	out = run(&rc, "%s --watch --json --count 2 --interval 200 -d %d", info, minor);
	lines = 0;
	for (line = out ? strtok(out, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		json_object *o = json_tokener_parse(line), *x;
		double b = -1;

		if (o && json_object_object_get_ex(o, "busy_pct", &x))
			b = json_object_get_double(x);
		get_param(fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &v);
		if (o && jget(o, "id") == (uint64_t)minor && jget(o, "sample") == (uint64_t)lines + 1 &&
		    b >= 0 && b <= 100 && jget(o, "mem_limit") == v &&
		    jget(o, "interval_ns") >= 200000000ull)
			lines++;
		json_object_put(o);
	}
	tap_check(rc == 0 && lines == 2, "--watch --count 2: exit %d, %d good samples", rc, lines);
	free(out);

	/* --events: an injected MMU fault */
	{
		char dbg[160], dev[128], link[96];
		ssize_t n;

		snprintf(link, sizeof(link), "/sys/class/accel/accel%d/device", minor);
		n = readlink(link, dev, sizeof(dev) - 1);
		dev[n > 0 ? n : 0] = 0;
		snprintf(dbg, sizeof(dbg), "/sys/kernel/debug/accel/%s/inject",
			 strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
		if (access(dbg, W_OK)) {
			tap_skip("no debugfs inject: --events");
		} else {
			out = run(&rc, "(sleep 1; echo 'mmu_fault 0 1' > %s; %s --device %s %s >/dev/null 2>&1; echo 'none 0' > %s) & "
				  "%s --events --json --count 3 --timeout 8000; wait",
				  dbg, vrun, node, network, dbg, info);
			/*
			 * one JSON document per line; power notifications of
			 * the job's resume and the idle suspend come around it
			 */
			root = NULL;
			for (line = out ? strtok(out, "\n") : NULL; line && !root;
			     line = strtok(NULL, "\n")) {
				json_object *o = json_tokener_parse(line);
				const char *ev = o ? json_object_get_string(json_object_object_get(o, "event")) : NULL;

				if (ev && !strcmp(ev, "mmu_fault"))
					root = o;
				else
					json_object_put(o);
			}
			tap_check(rc == 0 && root &&
				  jget(root, "dev_id") == (uint64_t)minor && jget(root, "addr") != ~0ull &&
				  jget(root, "addr") != 0 && jget(root, "seqno") == 1,
				  "--events --json: the injected MMU fault (%s)",
				  root ? json_object_to_json_string(root) : "none");
			json_object_put(root);
			free(out);
			out = run(&rc, "%s --events --timeout 200", info);
			tap_check(rc == 0, "--events --timeout 200 ends by itself: exit %d", rc);
			free(out);
		}
	}

	/* the events name every user's jobs: another user may not follow them */
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "%s --events --timeout 200", info);
		out = run_as_nobody(&rc, cmd);
	}
	tap_check(rc == 3 && out && strstr(out, "needs CAP_SYS_ADMIN"),
		  "--events as uid 65534: exit %d (3), %s", rc, out ? out : "");
	free(out);

	/* errors: an unknown device, a bad option value */
	out = run(&rc, "%s --stats -d 63 2>&1", info);
	tap_check(rc == 1 && out && strstr(out, "no such vpux device"),
		  "--stats -d 63: exit %d (1), one line", rc);
	free(out);
	out = run(&rc, "%s --watch --interval 0 2>&1", info);
	tap_check(rc == 2, "--watch --interval 0: exit %d (2)", rc);
	free(out);
	close(fd);
	return tap_finish();
}

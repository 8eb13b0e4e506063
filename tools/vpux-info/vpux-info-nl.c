// SPDX-License-Identifier: MIT
/*
 * vpux-info's views of the driver's "vpux" generic netlink family, through
 * libnl-genl (Documentation/netlink.rst, vpux-info(1)):
 *
 *	vpux-info --stats [-d DEV]      every device's counters (dev-get)
 *	vpux-info --contexts [-d DEV]   the open files' contexts (ctx-get)
 *	vpux-info --watch [--interval MS] [--count N]
 *	                                per-engine busy %, jobs/s and memory,
 *	                                one line per device each interval
 *	vpux-info --events [--count N] [--timeout MS]
 *	                                follow the "events" multicast group
 *
 * Each takes --json (one document; --watch and --events print one JSON
 * object per line). Exit status: 0 ok, 1 no vpux device, 2 usage, 3 a
 * query failed, 5 the kernel has no "vpux" netlink family.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include <drm/vpux_netlink.h>

#include "vpux_cli.h"
#include "vpux-info-nl.h"

#define PROG "vpux-info"
#define EXIT_QUERY 3
#define MAX_DEVS 64

enum view { V_NONE, V_STATS, V_CONTEXTS, V_WATCH, V_EVENTS };

enum {
	OPT_STATS = 0x200, OPT_CONTEXTS, OPT_WATCH, OPT_EVENTS, OPT_INTERVAL,
	OPT_COUNT, OPT_TIMEOUT,
};

static const char *const engine_names[] = { "dma", "dpu", "shave" };
#define NENGINES 3

struct dev_stats {
	uint32_t id, device_id, revision, serial, power, resets, open_files;
	char name[64];
	uint64_t uptime_ns, submitted, completed, failed, timedout, busy_ns;
	uint64_t mem_used, mem_limit;
	uint32_t eng_count[NENGINES];
	uint64_t eng_busy_ns[NENGINES];
};

struct ctx_info {
	uint32_t dev_id, pid, uid, priority;
	uint64_t id, submitted, completed, failed, busy_ns, mem_used;
	bool banned;
	char comm[32];
};

struct nl {
	struct nl_sock *sk;
	int family;
	int err;		/* the kernel's answer to the last request */
	char ext_msg[256];
};

static void usage_err(const char *what)
{
	vpux_cli_err(PROG, "%s", what);
	fprintf(stderr, "Try 'vpux-info --help'.\n");
}

void vpux_info_nl_usage(FILE *f)
{
	fprintf(f, "Netlink views (the driver's \"vpux\" family; -d, --json apply):\n"
		   "      --stats       every device's counters: jobs, busy time per engine\n"
		   "                    kind, resets, memory, open files, power state\n"
		   "      --contexts    the open files' contexts (root sees all, others their own)\n"
		   "      --watch       busy %%, jobs/s and memory per device each interval\n"
		   "      --events      follow hang, reset, MMU fault, job error and power events\n"
		   "      --interval MS --watch's period (default 1000)\n"
		   "      --count N     stop after N --watch lines per device or N events\n"
		   "      --timeout MS  --events: stop after MS milliseconds\n"
		   "Exit status 5: the kernel's vpux_accel has no netlink family.\n");
}

bool vpux_info_nl_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--stats") || !strcmp(argv[i], "--contexts") ||
		    !strcmp(argv[i], "--watch") || !strcmp(argv[i], "--events"))
			return true;
	return false;
}

/* ---- the socket ---- */

static int error_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct nl *nl = arg;
	struct nlmsghdr *h = (struct nlmsghdr *)e - 1;
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int off = sizeof(*e);

	(void)nla;
	nl->err = e->error;
	if (!(h->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    !nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + off),
		       (int)h->nlmsg_len - NLMSG_HDRLEN - off, NULL) &&
	    tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

/*
 * Connect and resolve the family: 0, EXIT_NO_MODULE, EXIT_NO_FAMILY or VPUX_EXIT_FAIL
 * (with the message printed).
 */
static int vnl_open(struct nl *nl)
{
	struct stat st;
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk || genl_connect(nl->sk)) {
		vpux_cli_err(PROG, "cannot open a generic netlink socket");
		return EXIT_QUERY;
	}
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, VPUX_FAMILY_NAME);
	if (nl->family >= 0)
		return 0;
	if (stat("/sys/module/vpux_accel", &st)) {
		vpux_cli_err(PROG, "no vpux device: the vpux_accel module is not loaded (try: modprobe vpux_accel)");
		return EXIT_NO_MODULE;
	}
	vpux_cli_err(PROG, "the loaded vpux_accel has no \"%s\" netlink family (a driver older than the telemetry)",
		     VPUX_FAMILY_NAME);
	return EXIT_NO_FAMILY;
}

static void vnl_close(struct nl *nl)
{
	nl_socket_free(nl->sk);
}

/*
 * Send @cmd (a dump if @dump) with the u32 attribute @attr = @val if
 * @attr, and hand each reply to @cb. Returns 0 or the kernel's -errno.
 */
static int vnl_request(struct nl *nl, uint8_t cmd, bool dump, int attr,
		      uint32_t val, nl_recvmsg_msg_cb_t cb, void *arg)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, VPUX_FAMILY_VERSION) ||
	    (attr && nla_put_u32(msg, attr, val))) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl->err = 0;
	nl->ext_msg[0] = 0;
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
	nl_socket_modify_err_cb(nl->sk, NL_CB_CUSTOM, error_cb, nl);
	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return -EIO;
	ret = nl_recvmsgs_default(nl->sk);
	if (nl->err)
		return nl->err;
	if (!dump && ret >= 0)
		nl_wait_for_ack(nl->sk);
	return ret < 0 ? -EIO : 0;
}

static uint32_t get_u32(struct nlattr *a)
{
	return a && nla_len(a) >= 4 ? nla_get_u32(a) : 0;
}

static uint64_t get_u64(struct nlattr *a)
{
	return a && nla_len(a) >= 8 ? nla_get_u64(a) : 0;
}

/* ---- dev-get ---- */

struct dev_list {
	struct dev_stats d[MAX_DEVS];
	int n;
};

static int dev_cb(struct nl_msg *msg, void *arg)
{
	struct dev_list *l = arg;
	struct nlattr *tb[VPUX_A_DEV_MAX + 1], *a;
	struct dev_stats *d;
	int rem;

	if (l->n == MAX_DEVS ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, tb, VPUX_A_DEV_MAX, NULL))
		return NL_SKIP;
	d = &l->d[l->n++];
	memset(d, 0, sizeof(*d));
	d->id = get_u32(tb[VPUX_A_DEV_ID]);
	if (tb[VPUX_A_DEV_NAME])
		snprintf(d->name, sizeof(d->name), "%s",
			 nla_get_string(tb[VPUX_A_DEV_NAME]));
	d->device_id = get_u32(tb[VPUX_A_DEV_DEVICE_ID]);
	d->revision = get_u32(tb[VPUX_A_DEV_REVISION]);
	d->serial = get_u32(tb[VPUX_A_DEV_SERIAL]);
	d->power = get_u32(tb[VPUX_A_DEV_POWER_STATE]);
	d->uptime_ns = get_u64(tb[VPUX_A_DEV_UPTIME_NS]);
	d->submitted = get_u64(tb[VPUX_A_DEV_JOBS_SUBMITTED]);
	d->completed = get_u64(tb[VPUX_A_DEV_JOBS_COMPLETED]);
	d->failed = get_u64(tb[VPUX_A_DEV_JOBS_FAILED]);
	d->timedout = get_u64(tb[VPUX_A_DEV_JOBS_TIMEDOUT]);
	d->resets = get_u32(tb[VPUX_A_DEV_RESETS]);
	d->busy_ns = get_u64(tb[VPUX_A_DEV_BUSY_NS]);
	d->mem_used = get_u64(tb[VPUX_A_DEV_MEM_USED]);
	d->mem_limit = get_u64(tb[VPUX_A_DEV_MEM_LIMIT]);
	d->open_files = get_u32(tb[VPUX_A_DEV_OPEN_FILES]);
	nlmsg_for_each_attr(a, nlmsg_hdr(msg), GENL_HDRLEN, rem) {
		struct nlattr *e[VPUX_A_ENGINE_MAX + 1];
		uint32_t k;

		if (nla_type(a) != VPUX_A_DEV_ENGINE ||
		    nla_parse_nested(e, VPUX_A_ENGINE_MAX, a, NULL))
			continue;
		k = get_u32(e[VPUX_A_ENGINE_KIND]);
		if (k < NENGINES) {
			d->eng_count[k] = get_u32(e[VPUX_A_ENGINE_COUNT]);
			d->eng_busy_ns[k] = get_u64(e[VPUX_A_ENGINE_BUSY_NS]);
		}
	}
	return NL_OK;
}

static int query_err(struct nl *nl, const char *what, int ret)
{
	if (ret == -ENODEV) {
		vpux_cli_err(PROG, "%s: no such vpux device", what);
		return VPUX_EXIT_FAIL;
	}
	vpux_cli_err(PROG, "%s: %s%s%s", what, strerror(-ret),
		     nl->ext_msg[0] ? ": " : "", nl->ext_msg);
	return EXIT_QUERY;
}

/* every device's (or device @only's) counters: 0 or an exit status */
static int get_devs(struct nl *nl, int only, struct dev_list *l)
{
	int ret;

	l->n = 0;
	ret = vnl_request(nl, VPUX_CMD_DEV_GET, only < 0,
			 only < 0 ? 0 : VPUX_A_DEV_ID, (uint32_t)only, dev_cb, l);
	if (ret)
		return query_err(nl, "dev-get", ret);
	if (!l->n) {
		vpux_cli_err(PROG, "no vpux device: vpux_accel is loaded but bound to no NPU");
		return VPUX_EXIT_FAIL;
	}
	return 0;
}

static const char *power_name(uint32_t p)
{
	return p == VPUX_POWER_STATE_ACTIVE ? "active" :
	       p == VPUX_POWER_STATE_SUSPENDED ? "suspended" : "unknown";
}

static void size_str(uint64_t v, char *buf, size_t len)
{
	if (v >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", v / (double)(1ull << 30));
	else if (v >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", v / (double)(1ull << 20));
	else if (v >= 1024)
		snprintf(buf, len, "%.1f KiB", v / 1024.0);
	else
		snprintf(buf, len, "%" PRIu64 " B", v);
}

static json_object *dev_json(const struct dev_stats *d)
{
	json_object *o = json_object_new_object(), *eng = json_object_new_object();
	int k;

#define ADD(key, v) json_object_object_add(o, key, json_object_new_uint64(v))
	ADD("id", d->id);
	json_object_object_add(o, "name", json_object_new_string(d->name));
	ADD("device_id", d->device_id);
	ADD("revision", d->revision);
	ADD("serial", d->serial);
	json_object_object_add(o, "power_state",
			       json_object_new_string(power_name(d->power)));
	ADD("uptime_ns", d->uptime_ns);
	ADD("jobs_submitted", d->submitted);
	ADD("jobs_completed", d->completed);
	ADD("jobs_failed", d->failed);
	ADD("jobs_timedout", d->timedout);
	ADD("resets", d->resets);
	ADD("busy_ns", d->busy_ns);
	ADD("mem_used", d->mem_used);
	ADD("mem_limit", d->mem_limit);
	ADD("open_files", d->open_files);
#undef ADD
	for (k = 0; k < NENGINES; k++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "count",
				       json_object_new_uint64(d->eng_count[k]));
		json_object_object_add(e, "busy_ns",
				       json_object_new_uint64(d->eng_busy_ns[k]));
		json_object_object_add(eng, engine_names[k], e);
	}
	json_object_object_add(o, "engines", eng);
	return o;
}

static void print_doc(json_object *root, bool pretty)
{
	printf("%s\n", json_object_to_json_string_ext(root,
			(pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN) |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(root);
}

static int view_stats(struct nl *nl, int only, bool json)
{
	static struct dev_list l;
	char used[32], limit[32];
	int ret = get_devs(nl, only, &l), i, k;

	if (ret)
		return ret;
	if (json) {
		json_object *root = json_object_new_object();
		json_object *arr = json_object_new_array();

		for (i = 0; i < l.n; i++)
			json_object_array_add(arr, dev_json(&l.d[i]));
		json_object_object_add(root, "devices", arr);
		print_doc(root, true);
		return 0;
	}
	for (i = 0; i < l.n; i++) {
		const struct dev_stats *d = &l.d[i];

		size_str(d->mem_used, used, sizeof(used));
		size_str(d->mem_limit, limit, sizeof(limit));
		printf("/dev/accel/accel%u (%s)\n", d->id, d->name);
		printf("  %-18s %#x rev %u.%u serial %u\n", "device", d->device_id,
		       d->revision >> 16, d->revision & 0xffff, d->serial);
		printf("  %-18s %s\n", "power", power_name(d->power));
		printf("  %-18s %.1f s\n", "uptime", d->uptime_ns / 1e9);
		printf("  %-18s %" PRIu64 " submitted, %" PRIu64 " completed, %"
		       PRIu64 " failed, %" PRIu64 " timed out\n", "jobs",
		       d->submitted, d->completed, d->failed, d->timedout);
		printf("  %-18s %u\n", "resets", d->resets);
		printf("  %-18s %.3f s\n", "busy", d->busy_ns / 1e9);
		for (k = 0; k < NENGINES; k++)
			printf("  %-5s %-12s %.3f s (%u engines)\n", engine_names[k],
			       "busy", d->eng_busy_ns[k] / 1e9, d->eng_count[k]);
		printf("  %-18s %s of %s\n", "BO memory", used, limit);
		printf("  %-18s %u\n", "open files", d->open_files);
	}
	return 0;
}

/* ---- ctx-get ---- */

struct ctx_list {
	struct ctx_info *c;
	int n, cap;
};

static int ctx_cb(struct nl_msg *msg, void *arg)
{
	struct ctx_list *l = arg;
	struct nlattr *tb[VPUX_A_CTX_MAX + 1];
	struct ctx_info *c;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, VPUX_A_CTX_MAX, NULL))
		return NL_SKIP;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct ctx_info *nc = realloc(l->c, cap * sizeof(*nc));

		if (!nc)
			return NL_STOP;
		l->c = nc;
		l->cap = cap;
	}
	c = &l->c[l->n++];
	memset(c, 0, sizeof(*c));
	c->dev_id = get_u32(tb[VPUX_A_CTX_DEV_ID]);
	c->id = get_u64(tb[VPUX_A_CTX_ID]);
	c->pid = get_u32(tb[VPUX_A_CTX_PID]);
	if (tb[VPUX_A_CTX_COMM])
		snprintf(c->comm, sizeof(c->comm), "%s",
			 nla_get_string(tb[VPUX_A_CTX_COMM]));
	c->uid = get_u32(tb[VPUX_A_CTX_UID]);
	c->priority = get_u32(tb[VPUX_A_CTX_PRIORITY]);
	c->submitted = get_u64(tb[VPUX_A_CTX_JOBS_SUBMITTED]);
	c->completed = get_u64(tb[VPUX_A_CTX_JOBS_COMPLETED]);
	c->failed = get_u64(tb[VPUX_A_CTX_JOBS_FAILED]);
	c->busy_ns = get_u64(tb[VPUX_A_CTX_BUSY_NS]);
	c->mem_used = get_u64(tb[VPUX_A_CTX_MEM_USED]);
	c->banned = tb[VPUX_A_CTX_BANNED] && nla_get_u8(tb[VPUX_A_CTX_BANNED]);
	return NL_OK;
}

static int view_contexts(struct nl *nl, int only, bool json)
{
	struct ctx_list l = { 0 };
	char mem[32];
	int ret, i;

	ret = vnl_request(nl, VPUX_CMD_CTX_GET, true,
			 only < 0 ? 0 : VPUX_A_CTX_DEV_ID, (uint32_t)only,
			 ctx_cb, &l);
	if (ret) {
		free(l.c);
		return query_err(nl, "ctx-get", ret);
	}
	if (json) {
		json_object *root = json_object_new_object();
		json_object *arr = json_object_new_array();

		for (i = 0; i < l.n; i++) {
			const struct ctx_info *c = &l.c[i];
			json_object *o = json_object_new_object();

#define ADD(key, v) json_object_object_add(o, key, json_object_new_uint64(v))
			ADD("dev_id", c->dev_id);
			ADD("id", c->id);
			ADD("pid", c->pid);
			json_object_object_add(o, "comm", json_object_new_string(c->comm));
			ADD("uid", c->uid);
			ADD("priority", c->priority);
			ADD("jobs_submitted", c->submitted);
			ADD("jobs_completed", c->completed);
			ADD("jobs_failed", c->failed);
			ADD("busy_ns", c->busy_ns);
			ADD("mem_used", c->mem_used);
#undef ADD
			json_object_object_add(o, "banned", json_object_new_boolean(c->banned));
			json_object_array_add(arr, o);
		}
		json_object_object_add(root, "contexts", arr);
		print_doc(root, true);
	} else {
		printf("%-4s %-6s %-8s %-16s %-6s %-4s %10s %10s %8s %12s %10s\n",
		       "dev", "client", "pid", "command", "uid", "prio",
		       "submitted", "completed", "failed", "busy (ms)", "memory");
		for (i = 0; i < l.n; i++) {
			const struct ctx_info *c = &l.c[i];

			size_str(c->mem_used, mem, sizeof(mem));
			printf("%-4u %-6" PRIu64 " %-8u %-16s %-6u %-4u %10" PRIu64
			       " %10" PRIu64 " %8" PRIu64 " %12.3f %10s%s\n",
			       c->dev_id, c->id, c->pid, c->comm, c->uid,
			       c->priority, c->submitted, c->completed,
			       c->failed, c->busy_ns / 1e6, mem,
			       c->banned ? " banned" : "");
		}
	}
	free(l.c);
	return 0;
}

/* ---- --watch ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double pct(uint64_t busy, uint64_t dt, uint32_t engines)
{
	double v;

	if (!dt || !engines)
		return 0;
	v = 100.0 * (double)busy / ((double)dt * engines);
	return v > 100.0 ? 100.0 : v;
}

static const struct dev_stats *find_dev(const struct dev_list *l, uint32_t id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->d[i].id == id)
			return &l->d[i];
	return NULL;
}

static int view_watch(struct nl *nl, int only, bool json, unsigned int interval,
		      long count)
{
	static struct dev_list prev, cur;
	uint64_t t0, t1;
	long n;
	int ret, i, k;

	ret = get_devs(nl, only, &prev);
	if (ret)
		return ret;
	t0 = now_ns();
	for (n = 0; count < 0 || n < count; n++) {
		usleep(interval * 1000u);
		ret = get_devs(nl, only, &cur);
		if (ret)
			return ret;
		t1 = now_ns();
		for (i = 0; i < cur.n; i++) {
			const struct dev_stats *d = &cur.d[i];
			const struct dev_stats *p = find_dev(&prev, d->id);
			uint64_t dt = t1 - t0, jobs;
			double busy, e[NENGINES];
			char used[32], limit[32];

			if (!p)
				p = d;	/* new: nothing to compare yet */
			jobs = (d->completed + d->failed + d->timedout) -
			       (p->completed + p->failed + p->timedout);
			busy = pct(d->busy_ns - p->busy_ns, dt, 1);
			for (k = 0; k < NENGINES; k++)
				e[k] = pct(d->eng_busy_ns[k] - p->eng_busy_ns[k],
					   dt, d->eng_count[k]);
			if (json) {
				json_object *o = json_object_new_object();
				json_object *eo = json_object_new_object();

				json_object_object_add(o, "sample", json_object_new_int64(n + 1));
				json_object_object_add(o, "id", json_object_new_uint64(d->id));
				json_object_object_add(o, "interval_ns", json_object_new_uint64(dt));
				json_object_object_add(o, "busy_pct", json_object_new_double(busy));
				for (k = 0; k < NENGINES; k++)
					json_object_object_add(eo, engine_names[k],
							       json_object_new_double(e[k]));
				json_object_object_add(o, "engine_busy_pct", eo);
				json_object_object_add(o, "jobs", json_object_new_uint64(jobs));
				json_object_object_add(o, "jobs_per_s",
						       json_object_new_double(jobs * 1e9 / (double)dt));
				json_object_object_add(o, "mem_used", json_object_new_uint64(d->mem_used));
				json_object_object_add(o, "mem_limit", json_object_new_uint64(d->mem_limit));
				json_object_object_add(o, "power_state",
						       json_object_new_string(power_name(d->power)));
				print_doc(o, false);
				continue;
			}
			size_str(d->mem_used, used, sizeof(used));
			size_str(d->mem_limit, limit, sizeof(limit));
			printf("accel%-3u busy %5.1f%%  dma %5.1f%%  dpu %5.1f%%  shave %5.1f%%  jobs/s %7.1f  mem %s / %s  %s\n",
			       d->id, busy, e[0], e[1], e[2], jobs * 1e9 / (double)dt,
			       used, limit, power_name(d->power));
			fflush(stdout);
		}
		prev = cur;
		t0 = t1;
	}
	return 0;
}

/* ---- --events ---- */

struct ev_state {
	bool json;
	long seen;
};

static const char *event_name(uint8_t cmd)
{
	switch (cmd) {
	case VPUX_CMD_HANG_NTF: return "hang";
	case VPUX_CMD_RESET_NTF: return "reset";
	case VPUX_CMD_MMU_FAULT_NTF: return "mmu_fault";
	case VPUX_CMD_JOB_ERROR_NTF: return "job_error";
	case VPUX_CMD_POWER_NTF: return "power";
	default: return NULL;
	}
}

static int event_cb(struct nl_msg *msg, void *arg)
{
	struct ev_state *st = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[VPUX_A_EVENT_MAX + 1];
	const char *name = event_name(g->cmd);
	json_object *o;

	if (!name || genlmsg_parse(nlmsg_hdr(msg), 0, tb, VPUX_A_EVENT_MAX, NULL))
		return NL_SKIP;
	st->seen++;
	o = json_object_new_object();
	json_object_object_add(o, "event", json_object_new_string(name));
	json_object_object_add(o, "dev_id",
			       json_object_new_uint64(get_u32(tb[VPUX_A_EVENT_DEV_ID])));
	if (tb[VPUX_A_EVENT_CTX_ID])
		json_object_object_add(o, "ctx_id",
				       json_object_new_uint64(get_u64(tb[VPUX_A_EVENT_CTX_ID])));
	if (tb[VPUX_A_EVENT_SEQNO])
		json_object_object_add(o, "seqno",
				       json_object_new_uint64(get_u64(tb[VPUX_A_EVENT_SEQNO])));
	if (tb[VPUX_A_EVENT_ADDR])
		json_object_object_add(o, "addr",
				       json_object_new_uint64(get_u64(tb[VPUX_A_EVENT_ADDR])));
	if (tb[VPUX_A_EVENT_STATUS])
		json_object_object_add(o, "status",
				       json_object_new_uint64(get_u32(tb[VPUX_A_EVENT_STATUS])));
	if (tb[VPUX_A_EVENT_ERROR])
		json_object_object_add(o, "error",
				       json_object_new_int((int32_t)get_u32(tb[VPUX_A_EVENT_ERROR])));
	if (tb[VPUX_A_EVENT_RESETS])
		json_object_object_add(o, "resets",
				       json_object_new_uint64(get_u32(tb[VPUX_A_EVENT_RESETS])));
	if (tb[VPUX_A_EVENT_POWER_STATE])
		json_object_object_add(o, "power_state",
				       json_object_new_string(power_name(get_u32(tb[VPUX_A_EVENT_POWER_STATE]))));
	if (st->json) {
		print_doc(o, false);
		return NL_OK;
	}
	printf("accel%" PRIu64 " %s", get_u32(tb[VPUX_A_EVENT_DEV_ID]) + (uint64_t)0, name);
	json_object_object_foreach(o, key, val) {
		if (strcmp(key, "event") && strcmp(key, "dev_id"))
			printf(" %s=%s", key, json_object_get_string(val));
	}
	printf("\n");
	fflush(stdout);
	json_object_put(o);
	return NL_OK;
}

static int view_events(struct nl *nl, bool json, long count, long timeout_ms)
{
	struct ev_state st = { .json = json };
	int grp = genl_ctrl_resolve_grp(nl->sk, VPUX_FAMILY_NAME,
					VPUX_MCGRP_EVENTS);
	uint64_t end = timeout_ms >= 0 ? now_ns() + timeout_ms * 1000000ull : 0;
	int ret = grp < 0 ? grp : nl_socket_add_membership(nl->sk, grp);

	/* the events name every user's contexts: the group is root's */
	if (ret == -NLE_PERM) {
		vpux_cli_err(PROG, "joining the \"%s\" group of the vpux family needs CAP_SYS_ADMIN",
			     VPUX_MCGRP_EVENTS);
		return EXIT_QUERY;
	}
	if (ret) {
		vpux_cli_err(PROG, "cannot join the \"%s\" group of the vpux family",
			     VPUX_MCGRP_EVENTS);
		return EXIT_QUERY;
	}
	nl_socket_disable_seq_check(nl->sk);
	nl_socket_modify_cb(nl->sk, NL_CB_VALID, NL_CB_CUSTOM, event_cb, &st);
	while (count < 0 || st.seen < count) {
		struct pollfd p = { .fd = nl_socket_get_fd(nl->sk), .events = POLLIN };
		int wait = -1, ret;

		if (end) {
			uint64_t now = now_ns();

			if (now >= end)
				break;
			wait = (int)((end - now + 999999) / 1000000);
		}
		ret = poll(&p, 1, wait);
		if (ret < 0 && errno != EINTR) {
			vpux_cli_err(PROG, "poll: %s", strerror(errno));
			return EXIT_QUERY;
		}
		if (ret > 0 && nl_recvmsgs_default(nl->sk) < 0) {
			vpux_cli_err(PROG, "receiving events failed");
			return EXIT_QUERY;
		}
	}
	return 0;
}

/* ---- options ---- */

static bool parse_num(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

int vpux_info_nl_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "contexts", no_argument, NULL, OPT_CONTEXTS },
		{ "watch", no_argument, NULL, OPT_WATCH },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	long interval = 1000, count = -1, timeout = -1;
	enum view view = V_NONE;
	bool json = false;
	int only = -1, c, ret;
	struct nl nl;
	char msg[160];

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":jd:", opts, NULL)) != -1) {
		switch (c) {
		case OPT_STATS: case OPT_CONTEXTS: case OPT_WATCH: case OPT_EVENTS:
			if (view != V_NONE) {
				usage_err("--stats, --contexts, --watch and --events are one at a time");
				return VPUX_EXIT_USAGE;
			}
			view = c == OPT_STATS ? V_STATS : c == OPT_CONTEXTS ?
			       V_CONTEXTS : c == OPT_WATCH ? V_WATCH : V_EVENTS;
			break;
		case OPT_INTERVAL:
			if (!parse_num(optarg, 10, 3600000, &interval)) {
				snprintf(msg, sizeof(msg), "bad --interval '%s' (10..3600000 ms)", optarg);
				usage_err(msg);
				return VPUX_EXIT_USAGE;
			}
			break;
		case OPT_COUNT:
			if (!parse_num(optarg, 1, 1000000000, &count)) {
				snprintf(msg, sizeof(msg), "bad --count '%s' (a number >= 1)", optarg);
				usage_err(msg);
				return VPUX_EXIT_USAGE;
			}
			break;
		case OPT_TIMEOUT:
			if (!parse_num(optarg, 0, 86400000, &timeout)) {
				snprintf(msg, sizeof(msg), "bad --timeout '%s' (0..86400000 ms)", optarg);
				usage_err(msg);
				return VPUX_EXIT_USAGE;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'd': {
			char buf[32];
			const char *path = vpux_cli_device(optarg, buf, sizeof(buf));
			long n;

			if (!path || strncmp(path, "/dev/accel/accel", 16) ||
			    !parse_num(path + 16, 0, MAX_DEVS - 1, &n)) {
				snprintf(msg, sizeof(msg), "bad device '%s' (/dev/accel/accelN or N, N < %d)",
					 optarg, MAX_DEVS);
				usage_err(msg);
				return VPUX_EXIT_USAGE;
			}
			only = (int)n;
			break;
		}
		default:
			vpux_cli_bad_option(PROG, c, argv);
			fprintf(stderr, "Try 'vpux-info --help'.\n");
			return VPUX_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[optind]);
		usage_err(msg);
		return VPUX_EXIT_USAGE;
	}
	if ((interval != 1000 && view != V_WATCH) ||
	    (timeout >= 0 && view != V_EVENTS) ||
	    (count >= 0 && view != V_WATCH && view != V_EVENTS)) {
		usage_err("--interval goes with --watch, --timeout with --events, --count with either");
		return VPUX_EXIT_USAGE;
	}
	if (view == V_EVENTS && only >= 0) {
		usage_err("--events follows every device; -d does not apply");
		return VPUX_EXIT_USAGE;
	}

	ret = vnl_open(&nl);
	if (ret) {
		if (nl.sk)
			vnl_close(&nl);
		return ret;
	}
	switch (view) {
	case V_STATS:
		ret = view_stats(&nl, only, json);
		break;
	case V_CONTEXTS:
		ret = view_contexts(&nl, only, json);
		break;
	case V_WATCH:
		ret = view_watch(&nl, only, json, (unsigned int)interval, count);
		break;
	default:
		ret = view_events(&nl, json, count, timeout);
		break;
	}
	vnl_close(&nl);
	return ret;
}

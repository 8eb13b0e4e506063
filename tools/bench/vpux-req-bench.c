// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-req-bench: the request path through libvpux, for each backend in
 * one run (Documentation/benchmarks.rst).
 *
 * The network is examples/copy_1op.vasm: one DMA op copying a 4 KiB input
 * to the output, so what is measured is what a backend costs per request.
 * For every backend (the in-process one always; the kernel one, the ioctl
 * backend on /dev/accel/accelN, when a vpux_accel node exists, or those
 * named with --device):
 *  1. 1-op request latency, vpux_request_submit() + vpux_request_wait(),
 *     one at a time: median, p90, p99;
 *  2. requests/s with 1, 4 and 16 requests in flight (each with its own
 *     buffers; wait for the oldest, resubmit it) and the ratio 16/1;
 *  3. for the kernel backend, a bare DRM_IOCTL_VPUX_GET_PARAM round trip
 *     measured in the same run (as vpux-job-bench does) and the ratio of
 *     the request latency to it (DESIGN.md section 7: <= 10x);
 *  4. a pipe round trip between two processes (a byte ping-pong, as
 *     vpux-job-bench measures it) and each backend's request latency
 *     divided by it.
 * On a uapi 1.5 kernel libvpux puts requests in flight on queues of
 * their own (a queue runs one job at a time), so the 4 and 16 figures
 * are of requests that overlap on the NPU.
 * The phases run in interleaved rounds (every backend, every phase, then
 * the next round) so that a change of the host's load hits all alike.
 *
 * Prints figures, never pass/fail; but every request's result is checked
 * (the wait's status; each output against its input once per round, and
 * after every request of the latency phase): any failure exits 1.
 * The last line is machine readable ("reqbench: key=value ...").
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <drm/vpux_accel.h>

#include "vpux.h"
#include "bench_util.h"

#define MAX_K		16	/* most requests in flight */
#define MAX_DEVS	4
#define MAX_ROUNDS	64
#define NET_FILE	"copy_1op.vpux"
#define WAIT_MS		10000	/* a 1-op request that takes longer is a bug */

static const int ks[3] = { 1, 4, 16 };

struct slot {
	struct vpux_request *req;
	struct vpux_buffer *in, *out;
	unsigned char *pin, *pout;
};

struct bdev {
	char name[64];		/* what vpux_device_open() was given */
	char label[16];		/* "in-process", "kernel", "kernel1" ... */
	char key[16];		/* the same for the last line */
	int kernel;		/* ioctl backend */
	int fd;			/* kernel: a raw fd for GET_PARAM */
	struct vpux_device *dev;
	struct vpux_network *net;
	struct vpux_network *own[MAX_K];	/* --own-networks: one per slot */
	struct slot s[MAX_K];
	int accepted;		/* requests the backend takes in flight */
	int64_t *lat;		/* 1-op latencies, ns */
	int64_t *sub, *wt;	/* their submit and wait parts */
	int64_t *stat;		/* vpux_request_status() of a done request */
	long nlat;
	int64_t *gp;		/* GET_PARAM round trips, ns */
	long ngp;
	int64_t jps[3][MAX_ROUNDS];	/* milli-requests/s per round */
	int64_t r16[MAX_ROUNDS];	/* 16/1 per round, x 1e6 */
	long tput_done[3];
	uint64_t device_cycles;
	long checked;		/* outputs compared with their inputs */
};

static struct {
	long lat_iters;		/* sequential requests per backend */
	long gp_iters;		/* GET_PARAM round trips per kernel backend */
	long tput_jobs;		/* requests per throughput point */
	int rounds;
	double cap_s;		/* wall-clock cap per phase (all rounds) */
	int own_networks;	/* a loaded network per request */
	const char *net;
} opt = {
	.lat_iters = 2000,
	.gp_iters = 200000,
	.tput_jobs = 6000,
	.rounds = 5,
	.cap_s = 8.0,
};

static struct bdev devs[MAX_DEVS];
static int ndevs;
static int64_t *pipe_rtt;	/* pipe round trips, ns */
static long npipe;
static size_t tsize;		/* bytes of the input (and the output) */

static void fail(const struct bdev *b, const char *what, int err)
{
	fprintf(stderr, "vpux-req-bench: %s: %s: %s: %s\n",
		b ? b->label : "setup", what, vpux_strerror(err),
		vpux_last_error());
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	return bench_calloc("vpux-req-bench", n, size);
}

/* A pattern of its own for every (round, phase, slot). */
static void fill(unsigned char *p, size_t n, uint32_t seed)
{
	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*p++ = (unsigned char)(seed >> 16);
	}
}

static void check(struct bdev *b, int i, const char *phase)
{
	if (memcmp(b->s[i].pout, b->s[i].pin, tsize)) {
		fprintf(stderr, "vpux-req-bench: %s: %s: request %d: the output is not the input\n",
			b->label, phase, i);
		exit(1);
	}
	b->checked++;
}

static void submit(struct bdev *b, int i)
{
	int ret = vpux_request_submit(b->s[i].req);

	if (ret)
		fail(b, "submit", ret);
}

static void wait_req(struct bdev *b, int i)
{
	int ret = vpux_request_wait(b->s[i].req, WAIT_MS);

	if (ret)
		fail(b, "wait", ret);
}

static void make_req(struct bdev *b, int i)
{
	struct slot *s = &b->s[i];
	int ret = vpux_request_create(b->own[i] ? b->own[i] : b->net, &s->req);

	if (!ret)
		ret = vpux_request_bind_input(s->req, 0, s->in, 0);
	if (!ret)
		ret = vpux_request_bind_output(s->req, 0, s->out, 0);
	if (ret)
		fail(b, "request setup", ret);
}

/*
 * Before a phase, outside the timing: every idle request's last job has
 * a readable result, also when other requests ran more jobs since than
 * the kernel keeps numbers of (libvpux then reads it by WAIT on the
 * request's own scratch BO), and a failed one ends the benchmark.
 */
static void refresh(struct bdev *b, int i)
{
	struct vpux_request_status st;
	int ret = vpux_request_status(b->s[i].req, &st);

	if (ret)
		fail(b, "status of an idle request", ret);
	if (st.state == VPUX_REQ_FAILED)
		fail(b, "an idle request's last job", st.error ? st.error : -1);
}

/* ---- setup ---- */

/* The loadable: --net, or next to this program (the VM), or the build's. */
static void find_net(char *path, size_t len)
{
	char exe[4096], *dir;
	ssize_t n;

	if (opt.net) {
		snprintf(path, len, "%s", opt.net);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		dir = dirname(exe);
		snprintf(path, len, "%s/" NET_FILE, dir);
		if (!access(path, R_OK))
			return;
		snprintf(path, len, "%s/../examples/" NET_FILE, dir);
		if (!access(path, R_OK) && realpath(path, exe))
			snprintf(path, len, "%s", exe);
		if (!access(path, R_OK))
			return;
	}
	fprintf(stderr, "vpux-req-bench: no " NET_FILE " next to the program or in ../examples: use --net PATH\n");
	exit(2);
}

static void add_dev(const char *name)
{
	struct bdev *b;

	if (ndevs == MAX_DEVS) {
		fprintf(stderr, "vpux-req-bench: at most %d devices\n", MAX_DEVS);
		exit(2);
	}
	b = &devs[ndevs++];
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->label, sizeof(b->label), "%s", name);
	b->fd = -1;
}

/* The first /dev/accel node libvpux accepts as vpux_accel, or NULL. */
static const char *first_node(void)
{
	static char node[32];
	struct vpux_device *d;
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(node, sizeof(node), "/dev/accel/accel%d", i);
		if (access(node, F_OK))
			continue;
		if (!vpux_device_open(node, &d)) {
			vpux_device_close(d);
			return node;
		}
		printf("note: %s: %s\n", node, vpux_last_error());
	}
	return NULL;
}

static void open_dev(struct bdev *b, const char *net, int nkernel)
{
	struct vpux_device_info info;
	struct vpux_tensor_desc din, dout;
	int i, ret;

	ret = vpux_device_open(b->name, &b->dev);
	if (ret)
		fail(b, b->name, ret);
	ret = vpux_device_query(b->dev, &info);
	if (ret)
		fail(b, "query", ret);
	b->kernel = !strcmp(info.backend, "ioctl");
	if (b->kernel) {
		snprintf(b->label, sizeof(b->label), nkernel ? "kernel%d" : "kernel",
			 nkernel);
		snprintf(b->key, sizeof(b->key), nkernel ? "kernel%d" : "kernel",
			 nkernel);
		b->fd = open(b->name, O_RDWR | O_CLOEXEC);
		if (b->fd < 0) {
			fprintf(stderr, "vpux-req-bench: %s: %s\n", b->name,
				strerror(errno));
			exit(1);
		}
	} else {
		snprintf(b->label, sizeof(b->label), "in-process");
		snprintf(b->key, sizeof(b->key), "inproc");
	}
	ret = vpux_network_load_file(b->dev, net, &b->net);
	if (ret)
		fail(b, net, ret);
	if (vpux_network_num_inputs(b->net) != 1 ||
	    vpux_network_num_outputs(b->net) != 1 ||
	    vpux_network_input(b->net, 0, &din) ||
	    vpux_network_output(b->net, 0, &dout) || din.size != dout.size) {
		fprintf(stderr, "vpux-req-bench: %s: not a copy network (one input, one output of the same size)\n",
			net);
		exit(2);
	}
	tsize = din.size;
	for (i = 1; opt.own_networks && i < MAX_K; i++) {
		ret = vpux_network_load_file(b->dev, net, &b->own[i]);
		if (ret)
			fail(b, net, ret);
	}
	for (i = 0; i < MAX_K; i++) {
		struct slot *s = &b->s[i];

		ret = vpux_buffer_alloc(b->dev, tsize, &s->in);
		if (!ret)
			ret = vpux_buffer_alloc(b->dev, tsize, &s->out);
		if (ret)
			fail(b, "buffer setup", ret);
		make_req(b, i);
		s->pin = vpux_buffer_map(s->in);
		s->pout = vpux_buffer_map(s->out);
		if (!s->pin || !s->pout)
			fail(b, "buffer map", VPUX_E_NOMEM);
	}
	/*
	 * How many requests the backend takes in flight: submit all until
	 * one is refused as busy (the in-process backend has the engine
	 * core's task slots and no queue in front of them).
	 */
	for (i = 0; i < MAX_K; i++) {
		fill(b->s[i].pin, tsize, 0x5eed0000u + i);
		memset(b->s[i].pout, 0, tsize);
	}
	for (i = 0; i < MAX_K; i++) {
		ret = vpux_request_submit(b->s[i].req);
		if (ret == VPUX_E_BUSY && i)
			break;
		if (ret)
			fail(b, "submit", ret);
	}
	b->accepted = i;
	for (i = 0; i < b->accepted; i++) {
		wait_req(b, i);
		check(b, i, "setup");
	}
	b->lat = xcalloc(opt.lat_iters, sizeof(*b->lat));
	b->sub = xcalloc(opt.lat_iters, sizeof(*b->sub));
	b->wt = xcalloc(opt.lat_iters, sizeof(*b->wt));
	b->stat = xcalloc(opt.lat_iters, sizeof(*b->stat));
	if (b->kernel)
		b->gp = xcalloc(opt.gp_iters, sizeof(*b->gp));
}

static void close_dev(struct bdev *b)
{
	int i;

	for (i = 0; i < MAX_K; i++) {
		vpux_request_destroy(b->s[i].req);
		vpux_buffer_free(b->s[i].in);
		vpux_buffer_free(b->s[i].out);
	}
	for (i = 0; i < MAX_K; i++)
		vpux_network_unload(b->own[i]);
	vpux_network_unload(b->net);
	vpux_device_close(b->dev);
	if (b->fd >= 0)
		close(b->fd);
	free(b->lat);
	free(b->sub);
	free(b->wt);
	free(b->stat);
	free(b->gp);
}

/* ---- phases, one round's share each ---- */

/* The bare ioctl, on a fd of the same node. */
static void phase_getparam(struct bdev *b, long n, double cap_s)
{
	long got;

	if (n > opt.gp_iters - b->ngp)
		n = opt.gp_iters - b->ngp;
	got = time_getparam(b->fd, b->gp + b->ngp, n,
			    now_ns() + (int64_t)(cap_s * 1e9));
	if (got < 0) {
		fprintf(stderr, "vpux-req-bench: %s: GET_PARAM: %s\n",
			b->label, strerror((int)-got));
		exit(1);
	}
	b->ngp += got;
}

/* A pipe round trip between two processes, the other reference. */
static void phase_pipe(long n, double cap_s)
{
	long got;

	if (n > opt.gp_iters / 10 - npipe)
		n = opt.gp_iters / 10 - npipe;
	if (n <= 0)
		return;
	got = time_pipe_rtt(pipe_rtt + npipe, n, now_ns() + (int64_t)(cap_s * 1e9), -1);
	if (got < 0) {
		fprintf(stderr, "vpux-req-bench: pipe round trip: %s\n",
			strerror((int)-got));
		exit(1);
	}
	npipe += got;
}

/* One request at a time; every output checked (outside the timing). */
static void phase_latency(struct bdev *b, long n, double cap_s, int round)
{
	struct slot *s = &b->s[0];
	struct vpux_request_status st;
	int64_t end = now_ns() + (int64_t)(cap_s * 1e9);
	long i;

	refresh(b, 0);
	for (i = 0; i < 10; i++) {	/* warm up */
		submit(b, 0);
		wait_req(b, 0);
	}
	fill(s->pin, tsize, 0x1a700000u + round);
	for (i = 0; i < n && b->nlat < opt.lat_iters; i++) {
		int64_t t0, t1, t2, t3;
		int ret;

		memcpy(s->pin, &i, sizeof(i));	/* a new input every time */
		memset(s->pout, 0, tsize);
		t0 = now_ns();
		submit(b, 0);
		t1 = now_ns();
		wait_req(b, 0);
		t2 = now_ns();
		/* what submit and wait each do once more inside libvpux */
		ret = vpux_request_status(s->req, &st);
		t3 = now_ns();
		if (ret || st.state != VPUX_REQ_DONE)
			fail(b, "status", ret ? ret : VPUX_E_DEVICE);
		b->sub[b->nlat] = t1 - t0;
		b->wt[b->nlat] = t2 - t1;
		b->stat[b->nlat] = t3 - t2;
		b->lat[b->nlat++] = t2 - t0;
		b->device_cycles = st.device_cycles;
		check(b, 0, "latency");
		if (t2 > end)
			break;
	}
}

/* @k requests in flight: wait for the oldest, resubmit it. */
static double phase_tput(struct bdev *b, int k, long n, double cap_s,
			 int round, long *done)
{
	long submitted = 0, completed = 0;
	int64_t t0, end;
	int i;

	if (k > b->accepted)
		k = b->accepted;
	for (i = 0; i < k; i++)
		refresh(b, i);
	for (i = 0; i < k; i++)		/* warm up: every request once */
		submit(b, i);
	for (i = 0; i < k; i++)
		wait_req(b, i);
	for (i = 0; i < k; i++) {
		fill(b->s[i].pin, tsize, ((uint32_t)round << 16) ^ (k << 8) ^ i);
		memset(b->s[i].pout, 0, tsize);
	}

	t0 = now_ns();
	end = t0 + (int64_t)(cap_s * 1e9);
	for (i = 0; i < k && submitted < n; i++, submitted++)
		submit(b, i);
	for (i = 0; completed < submitted; i = (i + 1) % k) {
		wait_req(b, i);
		completed++;
		if (submitted < n && (completed & 63 || now_ns() < end)) {
			submit(b, i);
			submitted++;
		} else {
			n = submitted;	/* out of time: drain */
		}
	}
	t0 = now_ns() - t0;
	for (i = 0; i < k; i++)
		check(b, i, "throughput");
	*done = completed;
	return completed / (t0 / 1e9);
}

/* ---- report ---- */

struct fig {
	int64_t med, p90, p99, gp_med, gp_p99, sub, wt, stat;
	double jps[3], lo[3], hi[3], r16;
	int inflight16;
};

static void figures(struct bdev *b, struct fig *f)
{
	int i, r = opt.rounds;

	f->med = pctl(b->lat, b->nlat, 50.0);
	f->p90 = pctl(b->lat, b->nlat, 90.0);
	f->p99 = pctl(b->lat, b->nlat, 99.0);
	f->sub = pctl(b->sub, b->nlat, 50.0);
	f->wt = pctl(b->wt, b->nlat, 50.0);
	f->stat = pctl(b->stat, b->nlat, 50.0);
	f->gp_med = b->kernel ? pctl(b->gp, b->ngp, 50.0) : 0;
	f->gp_p99 = b->kernel ? pctl(b->gp, b->ngp, 99.0) : 0;
	for (i = 0; i < 3; i++) {
		f->jps[i] = pctl(b->jps[i], r, 50.0) / 1000.0;
		f->lo[i] = b->jps[i][0] / 1000.0;
		f->hi[i] = b->jps[i][r - 1] / 1000.0;
	}
	f->r16 = pctl(b->r16, r, 50.0) / 1e6;
	f->inflight16 = b->accepted < 16 ? b->accepted : 16;
}

static void usage(void)
{
	printf("usage: vpux-req-bench [options]\n"
	       "  --device NAME    a libvpux device: inproc, auto, /dev/accel/accelN\n"
	       "                   (repeatable; default: inproc, and the first\n"
	       "                   vpux_accel node if there is one)\n"
	       "  --net PATH       the 1-op loadable (default: " NET_FILE " next to\n"
	       "                   the program or in ../examples)\n"
	       "  --quick          small counts (a few seconds in the TCG VM)\n"
	       "  --iterations N   GET_PARAM round trips (default 200000); the request\n"
	       "                   phases use N/100 (latency) and 3N/100 (throughput)\n"
	       "  --rounds N       interleaved rounds (default 5)\n"
	       "  --cap SECONDS    wall-clock cap per phase and backend (default 8)\n"
	       "  --own-networks   load the network once per request, so that requests\n"
	       "                   share no buffer (the kernel syncs jobs implicitly on\n"
	       "                   shared BOs libvpux creates writable: task, weights)\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "net", required_argument, NULL, 'N' },
		{ "quick", no_argument, NULL, 'q' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "cap", required_argument, NULL, 'c' },
		{ "own-networks", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct fig f[MAX_DEVS];
	struct bdev *ip = NULL, *kd = NULL;
	char net[4096];
	int c, i, r, nk = 0;
	long total = 0;
	int64_t pmed;

	while ((c = getopt_long(argc, argv, "d:N:qn:r:c:oh", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (!strcmp(optarg, "auto")) {
				const char *node = first_node();

				if (!node) {
					fprintf(stderr, "vpux-req-bench: auto: no vpux_accel node in /dev/accel\n");
					return 1;
				}
				add_dev(node);
			} else {
				add_dev(optarg);
			}
			break;
		case 'N':
			opt.net = optarg;
			break;
		case 'q':
			opt.lat_iters = 200;
			opt.gp_iters = 20000;
			opt.tput_jobs = 600;
			opt.rounds = 3;
			opt.cap_s = 2.0;
			break;
		case 'n':
			opt.gp_iters = atol(optarg);
			opt.lat_iters = opt.gp_iters / 100;
			opt.tput_jobs = opt.gp_iters * 3 / 100;
			break;
		case 'r':
			opt.rounds = atoi(optarg);
			break;
		case 'c':
			opt.cap_s = atof(optarg);
			break;
		case 'o':
			opt.own_networks = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (optind < argc) {
		usage();
		return 2;
	}
	if (opt.rounds < 1)
		opt.rounds = 1;
	if (opt.rounds > MAX_ROUNDS)
		opt.rounds = MAX_ROUNDS;
	if (opt.gp_iters < 100)
		opt.gp_iters = 100;
	if (opt.lat_iters < 10 * opt.rounds)
		opt.lat_iters = 10 * opt.rounds;
	if (opt.tput_jobs < 2 * MAX_K * opt.rounds)
		opt.tput_jobs = 2 * MAX_K * opt.rounds;
	if (opt.cap_s <= 0)
		opt.cap_s = 8.0;

	/* the model's arena: a few MiB are enough, and the VM is small */
	setenv("VPUX_INPROC_MEM_MB", "64", 0);
	if (!ndevs) {
		const char *node = first_node();

		add_dev("inproc");
		if (node)
			add_dev(node);
		else
			printf("no vpux_accel node in /dev/accel: in-process backend only\n");
	}
	find_net(net, sizeof(net));
	for (i = 0; i < ndevs; i++) {
		open_dev(&devs[i], net, nk);
		nk += devs[i].kernel;
		if (devs[i].kernel && !kd)
			kd = &devs[i];
		if (!devs[i].kernel && !ip)
			ip = &devs[i];
	}
	printf("network %s: 1 DMA op, %zu-byte input copied to the output; %d rounds; %s\n",
	       net, tsize, opt.rounds, opt.own_networks ?
	       "a network loaded per request (--own-networks)" :
	       "one network shared by the requests");
	for (i = 0; i < ndevs; i++)
		printf("%-10s %s (%s backend); requests in flight accepted: %d of %d%s\n",
		       devs[i].label, devs[i].name,
		       devs[i].kernel ? "ioctl" : "inproc", devs[i].accepted, MAX_K,
		       devs[i].accepted < MAX_K ?
		       " (then VPUX_E_BUSY)" : "");

	pipe_rtt = xcalloc(opt.gp_iters / 10, sizeof(*pipe_rtt));
	for (r = 0; r < opt.rounds; r++) {
		double share = opt.cap_s / opt.rounds;

		phase_pipe(opt.gp_iters / 10 / opt.rounds, share);

		for (i = 0; i < ndevs; i++) {
			struct bdev *b = &devs[i];
			double jps1 = 0;
			int k;

			if (b->kernel)
				phase_getparam(b, opt.gp_iters / opt.rounds, share);
			phase_latency(b, opt.lat_iters / opt.rounds, share, r);
			for (k = 0; k < 3; k++) {
				long done;
				double v = phase_tput(b, ks[k],
						      opt.tput_jobs / opt.rounds,
						      share, r, &done);

				b->tput_done[k] += done;
				b->jps[k][r] = (int64_t)(v * 1000);
				if (!k)
					jps1 = v;
				else if (k == 2)
					b->r16[r] = (int64_t)(v / jps1 * 1e6);
			}
		}
	}

	printf("\n%-10s %9s %10s %10s %10s %6s %8s %8s %8s %6s\n", "backend",
	       "GET_PARAM", "1-op med", "p90", "p99", "n", "req/s 1", "4", "16",
	       "16/1");
	for (i = 0; i < ndevs; i++) {
		struct bdev *b = &devs[i];
		char gp[16] = "-";

		figures(b, &f[i]);
		if (b->kernel)
			snprintf(gp, sizeof(gp), "%.2f us", f[i].gp_med / 1e3);
		printf("%-10s %9s %7.1f us %7.1f us %7.1f us %6ld %8.0f %8.0f %8.0f %5.2fx\n",
		       b->label, gp, f[i].med / 1e3, f[i].p90 / 1e3,
		       f[i].p99 / 1e3, b->nlat, f[i].jps[0], f[i].jps[1],
		       f[i].jps[2], f[i].r16);
		total += b->checked;
	}
	for (i = 0; i < ndevs; i++)
		printf("  %s: req/s rounds 1: %.0f..%.0f, 4: %.0f..%.0f, 16: %.0f..%.0f; "
		       "%llu device cycles per request\n",
		       devs[i].label, f[i].lo[0], f[i].hi[0], f[i].lo[1], f[i].hi[1],
		       f[i].lo[2], f[i].hi[2],
		       (unsigned long long)devs[i].device_cycles);
	for (i = 0; i < ndevs; i++)
		printf("  %s: 1-op medians: submit %.1f us, wait %.1f us; "
		       "status of a done request %.2f us\n", devs[i].label,
		       f[i].sub / 1e3, f[i].wt / 1e3, f[i].stat / 1e3);
	for (i = 0; i < ndevs; i++)
		if (devs[i].kernel)
			printf("  %s: GET_PARAM p99 %.2f us over %ld round trips\n",
			       devs[i].label, f[i].gp_p99 / 1e3, devs[i].ngp);
	pmed = pctl(pipe_rtt, npipe, 50.0);
	printf("  pipe round trip between 2 processes (1 byte): median %.2f us, p99 %.2f us over %ld\n",
	       pmed / 1e3, pctl(pipe_rtt, npipe, 99.0) / 1e3, npipe);
	printf("\n");
	if (ip)
		printf("%-36s %9.1f us\n", "in-process 1-op latency",
		       f[ip - devs].med / 1e3);
	for (i = 0; i < ndevs; i++) {
		char what[64];

		snprintf(what, sizeof(what), "%s 1-op latency / pipe RTT",
			 devs[i].label);
		printf("%-36s %9.1fx\n", what,
		       pmed ? (double)f[i].med / pmed : 0.0);
	}
	if (kd) {
		struct fig *fk = &f[kd - devs];

		printf("%-36s %9.1fx    (target <= 10x)\n",
		       "kernel 1-op latency / GET_PARAM",
		       fk->gp_med ? (double)fk->med / fk->gp_med : 0.0);
		if (ip)
			printf("%-36s %9.2fx\n", "kernel / in-process latency",
			       f[ip - devs].med ?
			       (double)fk->med / f[ip - devs].med : 0.0);
	}
	for (i = 0; i < ndevs; i++) {
		char what[64];

		snprintf(what, sizeof(what), "jobs/s 16/1 %s", devs[i].label);
		printf("%-36s %9.2fx", what, f[i].r16);
		if (f[i].inflight16 < 16)
			printf("    (%d in flight at most: VPUX_E_BUSY beyond)",
			       f[i].inflight16);
		else if (devs[i].kernel)
			printf("    (target >= 3x)");
		printf("\n");
	}
	printf("requests checked: %ld, every output equal to its input\n", total);

	printf("reqbench: pipe_ns=%lld", (long long)pmed);
	for (i = 0; i < ndevs; i++)
		printf(" %s_ratio_pipe=%.1f", devs[i].key,
		       pmed ? (double)f[i].med / pmed : 0.0);
	for (i = 0; i < ndevs; i++)
		printf(" %s_ns=%lld %s_p90_ns=%lld %s_p99_ns=%lld %s_jps1=%.0f "
		       "%s_jps4=%.0f %s_jps16=%.0f %s_ratio16=%.2f %s_inflight=%d",
		       devs[i].key, (long long)f[i].med, devs[i].key,
		       (long long)f[i].p90, devs[i].key, (long long)f[i].p99,
		       devs[i].key, f[i].jps[0], devs[i].key, f[i].jps[1],
		       devs[i].key, f[i].jps[2], devs[i].key, f[i].r16,
		       devs[i].key, f[i].inflight16);
	if (kd) {
		struct fig *fk = &f[kd - devs];

		printf(" getparam_ns=%lld ratio_getparam=%.1f", (long long)fk->gp_med,
		       fk->gp_med ? (double)fk->med / fk->gp_med : 0.0);
		if (ip)
			printf(" ratio_kernel_inproc=%.2f", f[ip - devs].med ?
			       (double)fk->med / f[ip - devs].med : 0.0);
	}
	printf("\n");
	for (i = 0; i < ndevs; i++)
		close_dev(&devs[i]);
	free(pipe_rtt);
	return 0;
}

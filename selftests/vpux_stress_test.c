// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux stress: P processes x T threads x N jobs (default 4 x 4 x 500).
 * The threads of a process share its file (one address space, one job
 * ring); processes alternate between the devices present. Each thread
 * keeps up to DEPTH copies in flight, each between BOs of its own with
 * a fresh pattern, length and offsets, waits for each on its destination
 * BO (DRM_IOCTL_VPUX_BO_WAIT: the file's ring of the last 256 results moves on
 * with the other threads' jobs, a BO keeps its last job's result), and
 * checks every destination byte: the copied range holds the pattern,
 * the rest its sentinel. WAIT by job number must agree while the ring
 * still holds the job. Any status other than DONE, any wrong byte, or a
 * hang recovery during the run fails.
 *
 * Usage: vpux_stress_test [-p PROCS] [-t THREADS] [-n JOBS] [-s SEED]
 */
#include <getopt.h>
#include <pthread.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "vpux_job_util.h"

#define DEPTH		4
#define BUF_SIZE	(16 * 1024)
#define SENTINEL	0xa5

static unsigned int nprocs = 4, nthreads = 4, njobs = 500, seed = 1;

struct slot {
	struct bo task, src, dst;
	__u64 seqno;
	__u32 soff, doff, len;
	unsigned char fill;
};

struct worker {
	int fd;
	int id;
	__u32 q[3];		/* queues of LOW, NORMAL (0, the default), HIGH */
	unsigned int rnd;
	unsigned int done, wrong, bad_status, errors, ring_gone;
	char msg[160];
	struct slot s[DEPTH];
};

static unsigned int rnd(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

static void worker_fail(struct worker *w, const char *what, int err)
{
	if (!w->msg[0])
		snprintf(w->msg, sizeof(w->msg), "thread %d: %s: %s", w->id,
			 what, strerror(-err));
	w->errors++;
}

/* a fresh copy job in @s: pattern, range, priority */
static int slot_submit(struct worker *w, struct slot *s)
{
	struct drm_vpux_buf list[2];
	struct drm_vpux_submit sub;
	struct tb t;
	__u32 i;
	int ret;

	s->len = 1 + rnd(&w->rnd) % (BUF_SIZE / 2);
	s->soff = rnd(&w->rnd) % (BUF_SIZE - s->len);
	s->doff = rnd(&w->rnd) % (BUF_SIZE - s->len);
	s->fill = (unsigned char)rnd(&w->rnd);
	for (i = 0; i < s->len; i++)
		s->src.map[s->soff + i] = (unsigned char)(s->fill + i * 13);
	memset(s->dst.map, SENTINEL, BUF_SIZE);

	tb_init(&t, s->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, s->soff, 2, s->doff, s->len);
	list[0] = (struct drm_vpux_buf){ .handle = s->src.handle, .size = BUF_SIZE };
	list[1] = (struct drm_vpux_buf){ .handle = s->dst.handle, .size = BUF_SIZE };
	submit_args(&sub, &s->task, 0, t.size, list, 2);
	sub.queue_id = w->q[rnd(&w->rnd) % 3];
	ret = vpux_ioctl(w->fd, DRM_IOCTL_VPUX_SUBMIT, &sub);
	if (ret)
		return ret;
	s->seqno = sub.seqno;
	return 0;
}

static void slot_check(struct worker *w, struct slot *s)
{
	struct drm_vpux_wait wt, ws;
	__u32 i;
	int ret;

	ret = wait_bo(w->fd, s->dst.handle, 60000000000ll, &wt);
	if (ret) {
		worker_fail(w, "BO_WAIT", ret);
		return;
	}
	w->done++;
	ret = job_wait(w->fd, s->seqno, 0, &ws);
	if (ret == -ENOENT) {
		w->ring_gone++;
	} else if (ret || ws.status != wt.status ||
		   ws.device_cycles != wt.device_cycles) {
		if (!w->msg[0])
			snprintf(w->msg, sizeof(w->msg),
				 "thread %d: job %llu: WAIT by number %d status %u, by BO status %u",
				 w->id, (unsigned long long)s->seqno, ret,
				 ws.status, wt.status);
		w->bad_status++;
		return;
	}
	if (wt.status != DRM_VPUX_STATUS_DONE) {
		if (!w->msg[0])
			snprintf(w->msg, sizeof(w->msg),
				 "thread %d: job %llu: status %u error %d",
				 w->id, (unsigned long long)s->seqno, wt.status,
				 wait_error(&wt));
		w->bad_status++;
		return;
	}
	for (i = 0; i < BUF_SIZE; i++) {
		unsigned char want = SENTINEL;

		if (i >= s->doff && i < s->doff + s->len)
			want = (unsigned char)(s->fill + (i - s->doff) * 13);
		if (s->dst.map[i] != want) {
			if (!w->msg[0])
				snprintf(w->msg, sizeof(w->msg),
					 "thread %d: job %llu: byte %u is %#x, want %#x",
					 w->id, (unsigned long long)s->seqno, i,
					 s->dst.map[i], want);
			w->wrong++;
			return;
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int submitted = 0, next = 0, i;
	int ret;

	for (i = 0; i < DEPTH; i++) {
		struct slot *s = &w->s[i];

		if (bo_new(w->fd, 4096, 0, &s->task) ||
		    bo_new(w->fd, BUF_SIZE, 0, &s->src) ||
		    bo_new(w->fd, BUF_SIZE, 0, &s->dst)) {
			worker_fail(w, "BO_CREATE", -errno);
			return NULL;
		}
	}
	/* fill the pipeline, then wait for the oldest and refill its slot */
	for (i = 0; i < DEPTH && submitted < njobs; i++, submitted++) {
		ret = slot_submit(w, &w->s[i]);
		if (ret) {
			worker_fail(w, "SUBMIT", ret);
			return NULL;
		}
	}
	while (w->done + w->errors < submitted) {
		struct slot *s = &w->s[next];

		slot_check(w, s);
		if (w->errors)
			return NULL;
		if (submitted < njobs) {
			ret = slot_submit(w, s);
			if (ret) {
				worker_fail(w, "SUBMIT", ret);
				return NULL;
			}
			submitted++;
		}
		next = (next + 1) % DEPTH;
	}
	return NULL;
}

/* One process: its threads on one file; exit status 0 if all was well. */
static int process_main(int p, int minor_wanted)
{
	struct worker *w = calloc(nthreads, sizeof(*w));
	pthread_t *tid = calloc(nthreads, sizeof(*tid));
	unsigned int i, done = 0, bad = 0, gone = 0;
	int fd, ret = 0;
	__u32 q[3] = { 0 };

	fd = vpux_open_nth(minor_wanted, NULL);
	if (fd < 0 || !w || !tid) {
		printf("# process %d: open: %s\n", p, strerror(fd < 0 ? -fd : ENOMEM));
		return 1;
	}
	/* a job's priority is its queue's: HIGH needs CAP_SYS_NICE */
	if (queue_create(fd, DRM_VPUX_PRIORITY_LOW, &q[0]) ||
	    queue_create(fd, DRM_VPUX_PRIORITY_HIGH, &q[2]))
		q[0] = q[2] = 0;
	for (i = 0; i < nthreads; i++) {
		w[i].fd = fd;
		memcpy(w[i].q, q, sizeof(q));
		w[i].id = p * 100 + (int)i;
		w[i].rnd = seed * 7919u + (unsigned int)w[i].id;
		if (pthread_create(&tid[i], NULL, worker_main, &w[i])) {
			printf("# process %d: pthread_create failed\n", p);
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(tid[i], NULL);
		done += w[i].done;
		gone += w[i].ring_gone;
		bad += w[i].wrong + w[i].bad_status + w[i].errors;
		if (w[i].msg[0]) {
			printf("# %s\n", w[i].msg);
			ret = 1;
		}
	}
	if (done != nthreads * njobs || bad)
		ret = 1;
	printf("# process %d: %u jobs checked, %u bad, %u no longer in the ring\n",
	       p, done, bad, gone);
	fflush(stdout);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	long resets[VPUX_MAX_MINORS];
	int c, ndev, minors[VPUX_MAX_MINORS], i, failed = 0;
	unsigned int p;
	__s64 t0, ns;
	pid_t *pids;

	while ((c = getopt(argc, argv, "p:t:n:s:")) != -1) {
		switch (c) {
		case 'p': nprocs = strtoul(optarg, NULL, 0); break;
		case 't': nthreads = strtoul(optarg, NULL, 0); break;
		case 'n': njobs = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: %s [-p PROCS] [-t THREADS] [-n JOBS] [-s SEED]\n",
				argv[0]);
			return 2;
		}
	}
	ksft_print_header();
	ksft_set_plan(1);
	ndev = vpux_count_devices();
	if (ndev <= 0)
		ksft_exit_skip("no vpux device (is vpux_accel loaded?)\n");
	if (ndev > VPUX_MAX_MINORS)
		ndev = VPUX_MAX_MINORS;
	for (i = 0; i < ndev; i++) {
		int fd = vpux_open_nth(i, &minors[i]);

		if (fd < 0)
			ksft_exit_fail_msg("open device %d: %s\n", i, strerror(-fd));
		close(fd);
		resets[i] = dbg_read(minors[i], "resets");
	}
	ksft_print_msg("%u processes x %u threads x %u jobs on %d device(s), seed %u\n",
		       nprocs, nthreads, njobs, ndev, seed);

	pids = calloc(nprocs, sizeof(*pids));
	if (!pids)
		ksft_exit_fail_msg("out of memory\n");
	fflush(stdout);
	t0 = now_ns();
	for (p = 0; p < nprocs; p++) {
		pids[p] = fork();
		if (pids[p] < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!pids[p])
			_exit(process_main((int)p, (int)p % ndev));
	}
	for (p = 0; p < nprocs; p++) {
		int st;

		if (waitpid(pids[p], &st, 0) != pids[p] || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			ksft_print_msg("process %u failed\n", p);
			failed++;
		}
	}
	ns = now_ns() - t0;
	for (i = 0; i < ndev; i++) {
		long now = dbg_read(minors[i], "resets");

		if (resets[i] >= 0 && now != resets[i]) {
			ksft_print_msg("device %d: %ld hang recoveries during the run\n",
				       i, now - resets[i]);
			failed++;
		}
	}
	ksft_print_msg("%llu jobs in %.2f s: %.0f jobs/s\n",
		       (unsigned long long)nprocs * nthreads * njobs, ns / 1e9,
		       nprocs * nthreads * njobs / (ns / 1e9));
	ksft_test_result(!failed, "stress_%ux%ux%u_every_result_checked\n",
			 nprocs, nthreads, njobs);
	free(pids);
	ksft_finished();
}

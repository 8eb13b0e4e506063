/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What vpux-job-bench and vpux-req-bench share: the clock, percentiles
 * of a sample array, a checked allocation, and the two references both
 * of them measure a job's latency against: the bare GET_PARAM round trip
 * (the cheapest trip into the driver) and a pipe round trip between two
 * processes (the cheapest trip through the scheduler: a wakeup of
 * another task and back, as a job's completion needs).
 */
#ifndef VPUX_BENCH_UTIL_H
#define VPUX_BENCH_UTIL_H

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/vpux_accel.h>

static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static inline int bench_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Sort @v in place; the @pct percentile (nearest rank), 0 if empty. */
static inline int64_t pctl(int64_t *v, long n, double pct)
{
	long i;

	if (n <= 0)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_i64);
	i = (long)(pct / 100.0 * n + 0.5) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return v[i];
}

static inline int64_t median(int64_t *v, long n)
{
	return pctl(v, n, 50.0);
}

/* calloc() that never returns NULL: the benchmark @prog exits instead */
static inline void *bench_calloc(const char *prog, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(1);
	}
	return p;
}

/*
 * Time GET_PARAM(DEVICE_ID) round trips on @fd into @v (room for @n),
 * after 1000 untimed ones, until @n or until @end_ns passes (checked
 * every 1024). Returns how many were timed, or -errno of a failed call.
 */
static inline long time_getparam(int fd, int64_t *v, long n, int64_t end_ns)
{
	struct drm_vpux_get_param gp = { .param = DRM_VPUX_PARAM_DEVICE_ID };
	long i;

	for (i = 0; i < 1000; i++)	/* warm up */
		ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp);
	for (i = 0; i < n; i++) {
		int64_t t0 = now_ns();

		if (ioctl(fd, DRM_IOCTL_VPUX_GET_PARAM, &gp))
			return -errno;
		v[i] = now_ns() - t0;
		if (!(i & 1023) && t0 + v[i] > end_ns)
			return i + 1;
	}
	return n;
}

/*
 * Time one-byte ping-pongs with a child process over two pipes into @v
 * (room for @n): write a byte, the child reads it and writes it back,
 * read it; after 1000 untimed ones, until @n or until @end_ns passes
 * (checked every 256). With @cpu >= 0 both processes run on that CPU
 * only (each wakeup is then a switch on one CPU, never a wakeup of an
 * idle one). Returns how many were timed, or -errno.
 */
static inline long time_pipe_rtt(int64_t *v, long n, int64_t end_ns, int cpu)
{
	int to[2], from[2], err = 0;
	cpu_set_t old, one;
	char c = 'x';
	long i, done = 0;
	pid_t pid;

	if (cpu >= 0) {
		if (sched_getaffinity(0, sizeof(old), &old))
			return -errno;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			return -errno;
	}

	if (pipe(to))
		return -errno;
	if (pipe(from)) {
		err = -errno;
		close(to[0]);
		close(to[1]);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (!pid) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	to[0] = from[1] = -1;
	for (i = -1000; i < n; i++) {
		int64_t t0 = now_ns();

		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1) {
			err = -EPIPE;
			break;
		}
		if (i < 0)
			continue;
		v[done++] = now_ns() - t0;
		if (!(i & 255) && now_ns() > end_ns)
			break;
	}
out:
	if (to[1] >= 0)
		close(to[1]);	/* the child sees EOF and leaves */
	if (from[0] >= 0)
		close(from[0]);
	if (to[0] >= 0)
		close(to[0]);
	if (from[1] >= 0)
		close(from[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	if (cpu >= 0)
		sched_setaffinity(0, sizeof(old), &old);
	return err ? err : done;
}

#endif

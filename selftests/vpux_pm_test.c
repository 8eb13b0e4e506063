// SPDX-License-Identifier: GPL-2.0-only
/*
 * vpux power management: an idle NPU autosuspends after its delay and
 * its hardware says it is off; a submit wakes it and the job is right;
 * the MMU context of a file is restored (a job on BOs mapped before the
 * suspend runs); a stream of jobs from several processes across many
 * suspends and resumes has every result right; system suspend (through
 * /sys/power/pm_test "devices") under a stream of jobs, long ones among
 * them, loses none and cuts none short. The
 * model counts every register access to a powered-off NPU (debugfs
 * power "violations"): it must stay 0. Needs root and debugfs.
 */
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"

#define DELAY_MS	100
#define JOB_BYTES	(16 * 1024)

/* /sys/class/accel/accelN/device/@name */
static void dev_path(int minor, const char *name, char *path, size_t len)
{
	snprintf(path, len, "/sys/class/accel/accel%d/device/%s", minor, name);
}

static int dev_read(int minor, const char *name, char *buf, size_t len)
{
	char path[160];
	FILE *f;

	dev_path(minor, name, path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int dev_write(int minor, const char *name, const char *val)
{
	char path[160];

	dev_path(minor, name, path, sizeof(path));
	return file_write(path, val);
}

/* one "key value" line of debugfs power, or -1 */
static long power_field(int minor, const char *key)
{
	char path[200], line[80];
	long v = -1;
	FILE *f;

	if (dbg_path(minor, "power", path, sizeof(path)))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(key);

		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = strtol(line + n + 1, NULL, 0);
			break;
		}
	}
	fclose(f);
	return v;
}

/* wait up to @ms for power/runtime_status to read @want */
static int wait_status(int minor, const char *want, int ms)
{
	char st[32];
	int i;

	for (i = 0; i < ms / 10; i++) {
		if (!dev_read(minor, "power/runtime_status", st, sizeof(st)) &&
		    !strcmp(st, want))
			return 0;
		usleep(10000);
	}
	return -1;
}

struct copy_job {
	int fd;
	size_t task_size;
	struct bo task, a, b;
};

static int copy_job_init(struct copy_job *j, int fd)
{
	j->fd = fd;
	if (bo_new(fd, 4096, 0, &j->task) || bo_new(fd, JOB_BYTES, 0, &j->a) ||
	    bo_new(fd, JOB_BYTES, 0, &j->b))
		return -1;
	j->task_size = copy_task(&j->task, 0, JOB_BYTES);
	return 0;
}

/*
 * Copy a pattern of @seed from a to b: 0 if done and right; -2 SUBMIT
 * failed, -3 WAIT failed, -4 - 16 * status a job that did not complete,
 * -5 wrong data.
 */
static int copy_job_run(struct copy_job *j, unsigned int seed)
{
	struct drm_vpux_buf l[2] = {
		{ .handle = j->a.handle, .size = JOB_BYTES },
		{ .handle = j->b.handle, .size = JOB_BYTES },
	};
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	size_t i;

	for (i = 0; i < JOB_BYTES; i++)
		j->a.map[i] = (unsigned char)(seed * 31 + i * 7);
	memset(j->b.map, 0, JOB_BYTES);
	submit_args(&s, &j->task, 0, j->task_size, l, 2);
	if (vpux_ioctl(j->fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return -2;
	if (job_wait(j->fd, s.seqno, 30000000000ll, &w))
		return -3;
	if (w.status != DRM_VPUX_STATUS_DONE)
		return -4 - (int)w.status * 16;
	for (i = 0; i < JOB_BYTES; i++)
		if (j->b.map[i] != (unsigned char)(seed * 31 + i * 7))
			return -5;
	return 0;
}

FIXTURE(pm) {
	int fd;
	int minor;
	char delay[32];
	struct copy_job job;
};

FIXTURE_SETUP(pm)
{
	char st[32];

	self->fd = -1;
	if (geteuid())
		SKIP(return, "needs root");
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	if (dev_read(self->minor, "power/runtime_status", st, sizeof(st)) ||
	    !strcmp(st, "unsupported"))
		SKIP(return, "no runtime PM");
	if (power_field(self->minor, "violations") < 0)
		SKIP(return, "no debugfs power");
	ASSERT_EQ(0, dev_read(self->minor, "power/autosuspend_delay_ms",
			      self->delay, sizeof(self->delay)));
	ASSERT_EQ(0, dev_write(self->minor, "power/autosuspend_delay_ms", "100"));
	ASSERT_EQ(0, copy_job_init(&self->job, self->fd));
}

FIXTURE_TEARDOWN(pm)
{
	if (self->delay[0])
		dev_write(self->minor, "power/autosuspend_delay_ms", self->delay);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(pm, idle_suspends)
{
	long off0 = power_field(self->minor, "off_count");
	char ps[16];

	ASSERT_EQ(0, copy_job_run(&self->job, 1));
	ASSERT_EQ(0, wait_status(self->minor, "suspended", DELAY_MS + 3000));
	ASSERT_EQ(0, dev_read(self->minor, "power_state", ps, sizeof(ps)));
	EXPECT_STREQ("off", ps);
	EXPECT_LT(off0, power_field(self->minor, "off_count"));
	EXPECT_EQ(0, power_field(self->minor, "violations"));
}

TEST_F(pm, delay_keeps_it_on)
{
	char ps[16];

	/* negative delay: never autosuspend */
	ASSERT_EQ(0, dev_write(self->minor, "power/autosuspend_delay_ms", "-1"));
	ASSERT_EQ(0, copy_job_run(&self->job, 2));
	usleep((DELAY_MS + 400) * 1000);
	ASSERT_EQ(0, dev_read(self->minor, "power/runtime_status", ps, sizeof(ps)));
	EXPECT_STREQ("active", ps);
	ASSERT_EQ(0, dev_read(self->minor, "power_state", ps, sizeof(ps)));
	EXPECT_STREQ("on", ps);
	ASSERT_EQ(0, dev_write(self->minor, "power/autosuspend_delay_ms", "100"));
	EXPECT_EQ(0, wait_status(self->minor, "suspended", DELAY_MS + 3000));
}

/*
 * The file's address space is bound to an MMU slot by the first job; the
 * power-off loses the slot's registers; a job on the same BOs after the
 * resume finds them restored (else it faults with reason CTX).
 */
TEST_F(pm, submit_resumes_mmu_restored)
{
	long res0, i;

	ASSERT_EQ(0, copy_job_run(&self->job, 3));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, wait_status(self->minor, "suspended", DELAY_MS + 3000));
		res0 = power_field(self->minor, "resumes");
		EXPECT_EQ(0, copy_job_run(&self->job, 4 + i));
		EXPECT_LT(res0, power_field(self->minor, "resumes"));
	}
	EXPECT_EQ(0, power_field(self->minor, "violations"));
}

/* children submitting with pauses around the delay; every result checked */
static int stream(int seconds, unsigned int seed)
{
	struct copy_job j;
	__s64 end = now_ns() + seconds * 1000000000ll;
	int fd = vpux_open_nth(0, NULL), n = 0, ret;

	if (fd < 0 || copy_job_init(&j, fd))
		return 100;
	srand(seed);
	while (now_ns() < end) {
		/* vpux_ioctl() restarts what the freezer interrupts */
		ret = copy_job_run(&j, seed + n);
		if (ret) {
			fprintf(stderr, "# pid %d job %d: %d\n", getpid(), n, ret);
			return 1;
		}
		n++;
		usleep((rand() % (2 * DELAY_MS + 100)) * 1000);
	}
	close(fd);
	return n ? 0 : 2;
}

/*
 * Long jobs back to back (32 chained DMA ops of 1 MiB: a good part of a
 * second under TCG), so that a system suspend finds one on the NPU: it
 * must finish, not be cut by the power-off.
 */
static int stream_long(int seconds, unsigned int seed)
{
	const __u32 rows = 256, nops = 32, sz = rows * 4096;
	__s64 end = now_ns() + seconds * 1000000000ll;
	int fd = vpux_open_nth(0, NULL), n = 0;
	struct drm_vpux_buf l[2];
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct bo t, a, b;
	__u32 i;

	if (fd < 0 || bo_new(fd, 65536, 0, &t) || bo_new(fd, sz, 0, &a) ||
	    bo_new(fd, sz, 0, &b) || tb_bytes_chain(nops) > 65536)
		return 100;
	l[0] = (struct drm_vpux_buf){ .handle = a.handle, .size = sz };
	l[1] = (struct drm_vpux_buf){ .handle = b.handle, .size = sz };
	while (now_ns() < end) {
		for (i = 0; i < sz; i++)
			a.map[i] = (unsigned char)(seed + n + i * 13);
		memset(b.map, 0, sz);
		submit_args(&s, &t, 0, chain_task(t.map, nops, rows), l, 2);
		if (vpux_ioctl(fd, DRM_IOCTL_VPUX_SUBMIT, &s) ||
		    job_wait(fd, s.seqno, 60000000000ll, &w) ||
		    w.status != DRM_VPUX_STATUS_DONE) {
			fprintf(stderr, "# pid %d long job %d: status %u\n",
				getpid(), n, w.status);
			return 1;
		}
		for (i = 0; i < sz; i++)
			if (b.map[i] != (unsigned char)(seed + n + i * 13)) {
				fprintf(stderr, "# pid %d long job %d: byte %u wrong\n",
					getpid(), n, i);
				return 1;
			}
		n++;
	}
	close(fd);
	return n ? 0 : 2;
}

static int reap(pid_t *pids, int n)
{
	int i, st, bad = 0;

	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	return bad;
}

TEST_F(pm, stream_across_suspends)
{
	long s0 = power_field(self->minor, "suspends");
	pid_t pids[3];
	int i;

	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (!pids[i])
			_exit(stream(6, 1000 * (i + 1)));
	}
	EXPECT_EQ(0, reap(pids, 3));
	EXPECT_LE(s0 + 2, power_field(self->minor, "suspends"));
	EXPECT_EQ(0, power_field(self->minor, "violations"));
}

/*
 * System suspend to the "devices" test level: the devices' suspend and
 * resume callbacks run (the kernel waits pm_test_delay seconds between),
 * processes are frozen, jobs in flight finish or wait.
 */
TEST_F(pm, system_suspend_devices)
{
	char tests[160] = "", states[64] = "", delay[16] = "";
	const char *state;
	long ss0 = power_field(self->minor, "system_suspends");
	FILE *f;
	pid_t pids[3];
	int i, ret;

	f = fopen("/sys/power/pm_test", "r");
	if (!f)
		SKIP(return, "no /sys/power/pm_test (CONFIG_PM_DEBUG)");
	if (!fgets(tests, sizeof(tests), f))
		tests[0] = '\0';
	fclose(f);
	if (!strstr(tests, "devices"))
		SKIP(return, "pm_test has no devices level");
	f = fopen("/sys/power/state", "r");
	ASSERT_NE(NULL, f);
	if (!fgets(states, sizeof(states), f))
		states[0] = '\0';
	fclose(f);
	state = strstr(states, "mem") ? "mem" : "freeze";
	TH_LOG("state %s, pm_test %s", state, tests);
	f = fopen("/sys/module/suspend/parameters/pm_test_delay", "r");
	if (f) {
		if (!fgets(delay, sizeof(delay), f))
			delay[0] = '\0';
		fclose(f);
		file_write("/sys/module/suspend/parameters/pm_test_delay", "1");
	}

	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (!pids[i])
			_exit(i < 2 ? stream(8, 5000 * (i + 1)) : stream_long(8, 77));
	}
	ASSERT_EQ(0, file_write("/sys/power/pm_test", "devices"));
	for (i = 0; i < 2; i++) {
		usleep(1500000);
		ret = file_write("/sys/power/state", state);
		EXPECT_EQ(0, ret);
	}
	file_write("/sys/power/pm_test", "none");
	if (delay[0])
		file_write("/sys/module/suspend/parameters/pm_test_delay", delay);
	EXPECT_EQ(0, reap(pids, 3));
	EXPECT_LE(ss0 + 1, power_field(self->minor, "system_suspends"));
	EXPECT_EQ(0, power_field(self->minor, "violations"));
	/* and it still works */
	EXPECT_EQ(0, copy_job_run(&self->job, 77));
}

TEST_HARNESS_MAIN

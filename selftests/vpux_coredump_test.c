// SPDX-License-Identifier: GPL-2.0-only
/*
 * The devcoredump of a failed job and its offline replay: an injected
 * MMU fault, an injected hang and a corrupt op are dumped, and
 * vpux-replay (on PATH, or $VPUX_REPLAY) runs each dump again in-process
 * and reproduces the failure (the same faulting address, the same op
 * stuck, the same core error); a job holding a BO larger than the dump's
 * cap is truncated as documented and the replay says so; a job's dump
 * holds nothing of another file's BOs. Needs debugfs (the injections,
 * coredump_failed) and devcoredump.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_coredump.h"
#include "vpux_job_util.h"

#define SZ	4096
#define DUMP	"/tmp/vpux_coredump_test.dump"
#define OUT	"/tmp/vpux_coredump_test.out"

/* release every pending devcoredump */
static void dumps_drop(void)
{
	glob_t g;
	size_t i;

	if (glob("/sys/class/devcoredump/devcd*/data", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		int fd = open(g.gl_pathv[i], O_WRONLY);

		if (fd >= 0) {
			/* an error: gone already */
			if (write(fd, "1", 1) < 0)
				errno = 0;
			close(fd);
		}
	}
	globfree(&g);
}

/*
 * Wait for a vpux devcoredump (up to 5 s), save it to DUMP and release
 * it; returns its size in *@len and a malloc'd copy, or NULL.
 */
static char *dump_take(size_t *len)
{
	int tries;

	for (tries = 0; tries < 250; tries++) {
		glob_t g;
		size_t i;

		if (!glob("/sys/class/devcoredump/devcd*/data", 0, NULL, &g)) {
			for (i = 0; i < g.gl_pathc; i++) {
				size_t cap = 1 << 20, n = 0;
				char *b = malloc(cap);
				int fd = open(g.gl_pathv[i], O_RDWR);
				ssize_t r;
				FILE *f;

				if (fd < 0 || !b) {
					free(b);
					if (fd >= 0)
						close(fd);
					continue;
				}
				while ((r = read(fd, b + n, cap - n)) > 0) {
					n += (size_t)r;
					if (n == cap) {
						char *nb = realloc(b, cap * 2);

						if (!nb)
							break;
						b = nb;
						cap *= 2;
					}
				}
				if (write(fd, "1", 1) < 0)
					r = 0;
				close(fd);
				if (n < 4 || strncmp(b, "vpux", 4)) {
					free(b);
					continue;
				}
				f = fopen(DUMP, "wb");
				if (f) {
					fwrite(b, 1, n, f);
					fclose(f);
				}
				globfree(&g);
				*len = n;
				return b;
			}
			globfree(&g);
		}
		usleep(20000);
	}
	return NULL;
}

/* vpux-replay --json DUMP > OUT; its exit status, the output in @out */
static int replay(char *out, size_t size)
{
	const char *tool = getenv("VPUX_REPLAY") ? getenv("VPUX_REPLAY") :
			   "vpux-replay";
	char cmd[512];
	FILE *f;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s --json --timeout 1000 %s >%s 2>&1",
		 tool, DUMP, OUT);
	st = system(cmd);
	out[0] = 0;
	f = fopen(OUT, "r");
	if (f) {
		n = fread(out, 1, size - 1, f);
		out[n] = 0;
		fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the appendix's header, or NULL */
static const struct vpux_dump_header *dump_header(const char *b, size_t n)
{
	const char *nul = memchr(b, 0, n);
	size_t off;

	if (!nul)
		return NULL;
	off = ((size_t)(nul - b) + 1 + 7) & ~(size_t)7;
	if (off + sizeof(struct vpux_dump_header) > n ||
	    memcmp(b + off, VPUX_DUMP_MAGIC, 8))
		return NULL;
	return (const struct vpux_dump_header *)(b + off);
}

static int has(const char *hay, size_t n, const void *needle, size_t len)
{
	size_t i;

	for (i = 0; i + len <= n; i++)
		if (!memcmp(hay + i, needle, len))
			return 1;
	return 0;
}

FIXTURE(dump) {
	int fd, minor;
	long saved_timeout;
	struct bo task, a, b;
	struct drm_vpux_buf list[2];
	char out[8192];
};

FIXTURE_SETUP(dump)
{
	int i;

	self->saved_timeout = -1;
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	if (access("/sys/class/devcoredump", F_OK) ||
	    dbg_write(self->minor, "coredump_failed", "Y"))
		SKIP(return, "no devcoredump or no debugfs");
	dumps_drop();
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, SZ, 0, &self->b));
	for (i = 0; i < SZ; i++)
		self->a.map[i] = (unsigned char)(i * 7 + 3);
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = SZ };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = SZ };
}

FIXTURE_TEARDOWN(dump)
{
	if (self->fd < 0)
		return;
	dbg_write(self->minor, "inject", "none 0");
	dbg_write(self->minor, "coredump_failed", "N");
	if (self->saved_timeout > 0) {
		char v[24];

		snprintf(v, sizeof(v), "%ld", self->saved_timeout);
		dbg_write(self->minor, "job_timeout_ms", v);
	}
	dumps_drop();
	close(self->fd);
}

/* a -> b copy of @len bytes; WAIT's answer in *@w */
static int copy(FIXTURE_DATA(dump) *self, __u32 len, struct drm_vpux_wait *w)
{
	struct drm_vpux_submit s;

	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, len),
		    self->list, 2);
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return -1;
	return job_wait(self->fd, s.seqno, 30000000000ll, w);
}

TEST_F(dump, mmu_fault_replays_at_the_same_address)
{
	const struct vpux_dump_header *h;
	struct drm_vpux_wait w;
	char want[64];
	size_t n = 0;
	char *b;

	ASSERT_EQ(0, dbg_write(self->minor, "inject", "mmu_fault 0 1"));
	ASSERT_EQ(0, copy(self, SZ, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_MMU_FAULT, w.status);
	b = dump_take(&n);
	ASSERT_NE(NULL, b);
	/* the text report stays text; the appendix follows it */
	EXPECT_EQ(0, strncmp(b, "vpux job report", 15));
	EXPECT_NE(NULL, strstr(b, "status MMU_FAULT"));
	EXPECT_NE(NULL, strstr(b, "binary appendix: 3 entries"));
	h = dump_header(b, n);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(3u, h->n_entries);
	EXPECT_EQ(w.fault_addr, h->fault_addr);
	EXPECT_EQ(0u, h->flags & VPUX_DUMP_TRUNCATED);
	/* the source buffer's bytes are in it */
	EXPECT_TRUE(has(b, n, self->a.map, SZ));
	free(b);
	EXPECT_EQ(0, replay(self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"reproduced\":true"));
	/* json-c pretty: "key":value */
	snprintf(want, sizeof(want), "\"replay_fault_addr\":%llu",
		 (unsigned long long)w.fault_addr);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

TEST_F(dump, hang_replays_with_the_same_op_stuck)
{
	struct drm_vpux_wait w;
	size_t n = 0;
	char *b;

	self->saved_timeout = dbg_read(self->minor, "job_timeout_ms");
	ASSERT_EQ(0, dbg_write(self->minor, "job_timeout_ms", "300"));
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "hang 0 1"));
	ASSERT_EQ(0, copy(self, SZ, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_TIMEOUT, w.status);
	b = dump_take(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0, strncmp(b, "vpux hang report", 16));
	EXPECT_NE(NULL, strstr(b, "status TIMEOUT"));
	free(b);
	EXPECT_EQ(0, replay(self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"replay_stuck\":\"dma#0\""))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"dump_stuck\":\"dma#0\""));
}

TEST_F(dump, corrupt_op_replays_with_the_same_core_error)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct tb t;
	char want[64];
	size_t n = 0;
	char *b;

	/* the op names address-list entry 5 of a 3-entry list */
	tb_init(&t, self->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 5, 0, 64);
	submit_args(&s, &self->task, 0, t.size, self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 5000000000ll, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status);
	ASSERT_NE(0u, w.core_error);
	b = dump_take(&n);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, strstr(b, "status ERROR"));
	free(b);
	EXPECT_EQ(0, replay(self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	snprintf(want, sizeof(want), "\"replay_core_error\":%u", w.core_error);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
}

TEST_F(dump, a_bo_over_the_cap_is_truncated_and_replay_says_so)
{
	const size_t big = VPUX_DUMP_DATA_CAP + (1 << 20);
	const struct vpux_dump_header *h;
	struct drm_vpux_wait w;
	struct bo huge;
	size_t n = 0;
	char *b;

	ASSERT_EQ(0, bo_new(self->fd, big, 0, &huge));
	memset(huge.map, 0x5a, big);
	self->list[1] = (struct drm_vpux_buf){ .handle = huge.handle, .size = big };
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "mmu_fault 0 1"));
	ASSERT_EQ(0, copy(self, SZ, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_MMU_FAULT, w.status);
	b = dump_take(&n);
	ASSERT_NE(NULL, b);
	h = dump_header(b, n);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(VPUX_DUMP_TRUNCATED, h->flags & VPUX_DUMP_TRUNCATED);
	EXPECT_NE(NULL, strstr(b, "truncated"));
	/* the data is capped: the dump is not much larger than the cap */
	EXPECT_LT(n, (size_t)VPUX_DUMP_DATA_CAP + 65536);
	free(b);
	/* the fault does not depend on the cut bytes: it replays, and says so */
	EXPECT_EQ(0, replay(self->out, sizeof(self->out)))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "truncated at the dump's cap"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"truncated\":true"));
}

TEST_F(dump, holds_nothing_of_another_file)
{
	static const char secret[] = "another file's secret bytes 0123456789";
	struct drm_vpux_wait w;
	struct bo theirs;
	size_t n = 0, i;
	int other;
	char *b;

	other = vpux_open_nth(0, NULL);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, bo_new(other, SZ, 0, &theirs));
	for (i = 0; i + sizeof(secret) <= SZ; i += sizeof(secret))
		memcpy(theirs.map + i, secret, sizeof(secret));
	/* this file's job fails; the other file's BO is mapped meanwhile */
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "mmu_fault 0 1"));
	ASSERT_EQ(0, copy(self, SZ, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_MMU_FAULT, w.status);
	b = dump_take(&n);
	ASSERT_NE(NULL, b);
	EXPECT_TRUE(has(b, n, self->a.map, 256));
	EXPECT_FALSE(has(b, n, secret, sizeof(secret) - 1));
	free(b);
	close(other);
}

TEST_HARNESS_MAIN

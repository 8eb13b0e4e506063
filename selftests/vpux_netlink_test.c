// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "vpux" generic netlink family (Documentation/netlink.rst) over raw
 * netlink sockets, no library: dev-get (do and dump) against GET_PARAM,
 * sysfs and fdinfo after a known workload; ctx-get for the caller's own
 * files, another user's refused; malformed requests (missing, unknown,
 * short, long and unexpected attributes); the "events" group's hang,
 * reset, MMU fault and job error notifications for injected faults
 * (debugfs "inject"), and that only CAP_SYS_ADMIN may join it (a child
 * as uid NOBODY, or as uid 0 without the capability, is refused and
 * receives nothing of root's failing job).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/vpux_netlink.h>

#include "kselftest_harness.h"
#include "vpux_common.h"
#include "vpux_job_util.h"
#include "vpux_nl.h"

#define NOBODY		65534
#define BUF		16384

static long long sysfs_busy_us(int minor)
{
	char path[96];

	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/npu_busy_time_us", minor);
	return file_read_long(path);
}

/* 1 if sysfs says accel minor @minor is runtime-suspended, 0 if not, -1 */
static int rpm_suspended(int minor)
{
	char path[96], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/power/runtime_status", minor);
	f = fopen(path, "r");
	/* no power/ directory: a kernel without CONFIG_PM, never suspended */
	if (!f)
		return errno == ENOENT ? 0 : -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strncmp(buf, "suspended", 9);
}

static const struct nlattr *engine(const struct msg *m, __u32 kind)
{
	const struct nlattr *a;
	int len = 0;

	/* the nests are in the message's buffer: walk it for each one */
	for (a = (void *)m->buf; ; a = (void *)a + NLA_ALIGN(a->nla_len)) {
		struct nlattr *tb[VPUX_A_ENGINE_MAX + 1];

		if ((char *)a - m->buf >= (int)sizeof(m->buf) - NLA_HDRLEN ||
		    a->nla_len < NLA_HDRLEN)
			return NULL;
		len += NLA_ALIGN(a->nla_len);
		if ((a->nla_type & NLA_TYPE_MASK) != VPUX_A_DEV_ENGINE)
			continue;
		parse_attrs(tb, VPUX_A_ENGINE_MAX + 1, (char *)a + NLA_HDRLEN,
			    a->nla_len - NLA_HDRLEN);
		if (tb[VPUX_A_ENGINE_KIND] && a_u32(tb[VPUX_A_ENGINE_KIND]) == kind)
			return tb[VPUX_A_ENGINE_BUSY_NS] ? a : NULL;
	}
}

static __u64 engine_busy(const struct msg *m, __u32 kind, __u32 *count)
{
	const struct nlattr *a = engine(m, kind);
	struct nlattr *tb[VPUX_A_ENGINE_MAX + 1];

	if (!a)
		return ~0ull;
	parse_attrs(tb, VPUX_A_ENGINE_MAX + 1, (char *)a + NLA_HDRLEN,
		    a->nla_len - NLA_HDRLEN);
	if (count)
		*count = tb[VPUX_A_ENGINE_COUNT] ? a_u32(tb[VPUX_A_ENGINE_COUNT]) : ~0u;
	return a_u64(tb[VPUX_A_ENGINE_BUSY_NS]);
}

FIXTURE(nl) {
	int fd, minor;
	struct nl nl;
	struct bo task, a, b;
	struct drm_vpux_buf list[2];
	long saved_timeout;
	struct msg m[8];
};

FIXTURE_SETUP(nl)
{
	int ret;

	self->saved_timeout = -1;
	self->fd = vpux_open_nth(0, &self->minor);
	if (self->fd == -ENODEV)
		SKIP(return, "no vpux device (is vpux_accel loaded?)");
	ASSERT_GE(self->fd, 0);
	ret = nl_open(&self->nl);
	if (ret == -ENOENT)
		SKIP(return, "no vpux netlink family in this kernel");
	ASSERT_EQ(0, ret) TH_LOG("family lookup: %s", strerror(-ret));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->task));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->a));
	ASSERT_EQ(0, bo_new(self->fd, 4096, 0, &self->b));
	self->list[0] = (struct drm_vpux_buf){ .handle = self->a.handle, .size = 4096 };
	self->list[1] = (struct drm_vpux_buf){ .handle = self->b.handle, .size = 4096 };
}

FIXTURE_TEARDOWN(nl)
{
	if (self->fd < 0)
		return;
	dbg_write(self->minor, "inject", "none 0");
	if (self->saved_timeout > 0) {
		char v[24];

		snprintf(v, sizeof(v), "%ld", self->saved_timeout);
		dbg_write(self->minor, "job_timeout_ms", v);
	}
	close(self->nl.fd);
	close(self->fd);
}

/* a -> b copy of @len bytes; WAIT's answer in *@w, the seqno in *@seq */
static int copy(FIXTURE_DATA(nl) *self, __u32 len, struct drm_vpux_wait *w,
		__u64 *seq)
{
	struct drm_vpux_submit s;

	submit_args(&s, &self->task, 0, copy_task(&self->task, 0, len),
		    self->list, 2);
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s))
		return -1;
	if (seq)
		*seq = s.seqno;
	return job_wait(self->fd, s.seqno, 30000000000ll, w);
}

TEST_F(nl, family_has_the_events_group)
{
	EXPECT_NE(0, self->nl.family);
	EXPECT_NE(0u, self->nl.events_grp);
}

TEST_F(nl, dev_get_dump_lists_every_device_with_its_identity)
{
	int cnt, i, devs = vpux_count_devices();

	ASSERT_EQ(0, dev_get(&self->nl, -1, self->m, 8, &cnt));
	ASSERT_EQ(devs, cnt);
	for (i = 0; i < cnt; i++) {
		struct msg *m = &self->m[i];
		char path[64], name[128];
		__u32 c = 0;
		__u64 v;
		int a, fd;

		EXPECT_EQ(VPUX_CMD_DEV_GET, m->cmd);
		/* every attribute of the reply is there */
		for (a = VPUX_A_DEV_ID; a <= VPUX_A_DEV_OPEN_FILES; a++) {
			EXPECT_NE(NULL, m->tb[a]) TH_LOG("attribute %d missing", a);
		}
		if (!m->tb[VPUX_A_DEV_ID] || !m->tb[VPUX_A_DEV_OPEN_FILES])
			continue;
		snprintf(path, sizeof(path), "/dev/accel/accel%u",
			 a_u32(m->tb[VPUX_A_DEV_ID]));
		fd = open(path, O_RDWR | O_CLOEXEC);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(1, vpux_is_vpux(fd));
		ASSERT_EQ(0, vpux_dev_name(a_u32(m->tb[VPUX_A_DEV_ID]), name,
					   sizeof(name)));
		EXPECT_STREQ(name, a_str(m->tb[VPUX_A_DEV_NAME]));
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_DEVICE_ID, &v));
		EXPECT_EQ(v, a_u32(m->tb[VPUX_A_DEV_DEVICE_ID]));
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_DEVICE_REVISION, &v));
		EXPECT_EQ(v, a_u32(m->tb[VPUX_A_DEV_REVISION]));
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_SERIAL, &v));
		EXPECT_EQ(v, a_u32(m->tb[VPUX_A_DEV_SERIAL]));
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_BO_MEMORY_LIMIT, &v));
		EXPECT_EQ(v, a_u64(m->tb[VPUX_A_DEV_MEM_LIMIT]));
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_NUM_DMA_ENGINES, &v));
		engine_busy(m, VPUX_ENGINE_DMA, &c);
		EXPECT_EQ(v, c);
		ASSERT_EQ(0, vpux_get_param(fd, DRM_VPUX_PARAM_NUM_SHAVE_ENGINES, &v));
		engine_busy(m, VPUX_ENGINE_SHAVE, &c);
		EXPECT_EQ(v, c);
		EXPECT_GT(a_u64(m->tb[VPUX_A_DEV_UPTIME_NS]), 0ull);
		EXPECT_LE(a_u32(m->tb[VPUX_A_DEV_POWER_STATE]),
			  (__u32)VPUX_POWER_STATE_SUSPENDED);
		close(fd);
	}
}

/*
 * power-state is what sysfs runtime_status says: "suspended" or not
 * (without runtime PM it reads "unsupported", and without CONFIG_PM the
 * file does not exist: active). Sampled around
 * the request until both samples agree, for a device autosuspending
 * meanwhile.
 */
TEST_F(nl, dev_get_power_state_agrees_with_runtime_status)
{
	int tries, before, after = -2, cnt;
	__u32 state = ~0u;

	for (tries = 0; tries < 20; tries++) {
		before = rpm_suspended(self->minor);
		ASSERT_EQ(0, dev_get(&self->nl, self->minor, self->m, 1, &cnt));
		state = a_u32(self->m[0].tb[VPUX_A_DEV_POWER_STATE]);
		after = rpm_suspended(self->minor);
		if (before == after)
			break;
	}
	ASSERT_GE(after, 0);
	EXPECT_EQ(after ? (__u32)VPUX_POWER_STATE_SUSPENDED :
		  (__u32)VPUX_POWER_STATE_ACTIVE, state);
}

TEST_F(nl, dev_get_counts_open_files)
{
	int cnt, fd2;
	__u32 before;

	ASSERT_EQ(0, dev_get(&self->nl, self->minor, self->m, 1, &cnt));
	ASSERT_EQ(1, cnt);
	EXPECT_EQ((__u32)self->minor, a_u32(self->m[0].tb[VPUX_A_DEV_ID]));
	before = a_u32(self->m[0].tb[VPUX_A_DEV_OPEN_FILES]);
	EXPECT_GE(before, 1u);
	fd2 = vpux_open_nth(0, NULL);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, dev_get(&self->nl, self->minor, self->m, 1, &cnt));
	EXPECT_EQ(before + 1, a_u32(self->m[0].tb[VPUX_A_DEV_OPEN_FILES]));
	close(fd2);
}

TEST_F(nl, malformed_requests_are_refused)
{
	char req[512];
	struct nlmsghdr *n;
	__u64 v64 = self->minor;
	__u16 v16 = self->minor;
	__u32 v32 = self->minor;
	int cnt;

	/* do without the device id: the missing attribute is named */
	n = nl_req(req, self->nl.family, VPUX_CMD_DEV_GET, 0);
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	EXPECT_EQ(VPUX_A_DEV_ID, self->nl.miss_type);
	/* an id no device has */
	EXPECT_EQ(-ENODEV, dev_get(&self->nl, 4095, self->m, 1, &cnt));
	EXPECT_NE(NULL, strstr(self->nl.ext_msg, "no vpux device"))
		TH_LOG("extack: %s", self->nl.ext_msg);
	/* the id as a u16 and as a u64: wrong types */
	n = nl_req(req, self->nl.family, VPUX_CMD_DEV_GET, 0);
	put_attr(n, VPUX_A_DEV_ID, &v16, sizeof(v16));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	n = nl_req(req, self->nl.family, VPUX_CMD_DEV_GET, 0);
	put_attr(n, VPUX_A_DEV_ID, &v64, sizeof(v64));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	/* an attribute the request does not take (strict validation) */
	n = nl_req(req, self->nl.family, VPUX_CMD_DEV_GET, 0);
	put_attr(n, VPUX_A_DEV_ID, &v32, sizeof(v32));
	put_attr(n, VPUX_A_DEV_OPEN_FILES, &v32, sizeof(v32));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	/* ctx-get: a u32 context id, a missing one, a missing device */
	n = nl_req(req, self->nl.family, VPUX_CMD_CTX_GET, 0);
	put_attr(n, VPUX_A_CTX_DEV_ID, &v32, sizeof(v32));
	put_attr(n, VPUX_A_CTX_ID, &v32, sizeof(v32));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	n = nl_req(req, self->nl.family, VPUX_CMD_CTX_GET, 0);
	put_attr(n, VPUX_A_CTX_DEV_ID, &v32, sizeof(v32));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	EXPECT_EQ(VPUX_A_CTX_ID, self->nl.miss_type);
	n = nl_req(req, self->nl.family, VPUX_CMD_CTX_GET, 0);
	put_attr(n, VPUX_A_CTX_ID, &v64, sizeof(v64));
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EINVAL, nl_recv(&self->nl, self->m, 1, &cnt));
	EXPECT_EQ(VPUX_A_CTX_DEV_ID, self->nl.miss_type);
	/* a context no file has; a dump of a device that is not there */
	EXPECT_EQ(-ENOENT, ctx_get(&self->nl, self->minor, ~0ull, self->m, 1, &cnt));
	EXPECT_EQ(-ENODEV, ctx_get(&self->nl, 4095, 0, self->m, 1, &cnt));
	/* a command the family does not have */
	n = nl_req(req, self->nl.family, VPUX_CMD_MAX + 1, 0);
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EOPNOTSUPP, nl_recv(&self->nl, self->m, 1, &cnt));
	/* notifications are not requests */
	n = nl_req(req, self->nl.family, VPUX_CMD_HANG_NTF, 0);
	ASSERT_EQ(0, nl_send(&self->nl, n));
	EXPECT_EQ(-EOPNOTSUPP, nl_recv(&self->nl, self->m, 1, &cnt));
}

TEST_F(nl, counters_agree_with_sysfs_fdinfo_and_get_param)
{
	__u64 sub0, done0, fail0, to0, dma0, v, mem0;
	long long us0, us1, client;
	struct drm_vpux_wait w;
	int cnt, i, a;
	struct msg *m = &self->m[0];

	ASSERT_EQ(0, dev_get(&self->nl, self->minor, m, 1, &cnt));
	sub0 = a_u64(m->tb[VPUX_A_DEV_JOBS_SUBMITTED]);
	done0 = a_u64(m->tb[VPUX_A_DEV_JOBS_COMPLETED]);
	fail0 = a_u64(m->tb[VPUX_A_DEV_JOBS_FAILED]);
	to0 = a_u64(m->tb[VPUX_A_DEV_JOBS_TIMEDOUT]);
	dma0 = engine_busy(m, VPUX_ENGINE_DMA, NULL);
	/* the workload: 5 copies that complete, 1 refused op that fails */
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, copy(self, 4096, &w, NULL));
		ASSERT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	}
	{
		struct drm_vpux_submit s;
		struct tb t;

		tb_init(&t, self->task.map, 0, 1, 0, 0);
		dma_op(&t.dma[0], 1, 0, 5, 0, 64);
		submit_args(&s, &self->task, 0, t.size, self->list, 2);
		ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
		ASSERT_EQ(0, job_wait(self->fd, s.seqno, 5000000000ll, &w));
		ASSERT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status);
	}

	/*
	 * A finished job's memory is given back when the job is freed, on
	 * a workqueue, after its fence signalled: read the device's count
	 * before and after netlink's, which must lie between them
	 */
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &mem0));
	us0 = sysfs_busy_us(self->minor);
	ASSERT_EQ(0, dev_get(&self->nl, self->minor, m, 1, &cnt));
	us1 = sysfs_busy_us(self->minor);
	/* other tests' files may run jobs too, but not at the same time */
	EXPECT_EQ(sub0 + 6, a_u64(m->tb[VPUX_A_DEV_JOBS_SUBMITTED]));
	EXPECT_EQ(done0 + 5, a_u64(m->tb[VPUX_A_DEV_JOBS_COMPLETED]));
	EXPECT_EQ(fail0 + 1, a_u64(m->tb[VPUX_A_DEV_JOBS_FAILED]));
	EXPECT_EQ(to0, a_u64(m->tb[VPUX_A_DEV_JOBS_TIMEDOUT]));
	EXPECT_GT(engine_busy(m, VPUX_ENGINE_DMA, NULL), dma0);
	/* idle: sysfs and netlink read the same busy time */
	EXPECT_LE(us0, (long long)(a_u64(m->tb[VPUX_A_DEV_BUSY_NS]) / 1000));
	EXPECT_GE(us1, (long long)(a_u64(m->tb[VPUX_A_DEV_BUSY_NS]) / 1000));
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_BO_MEMORY_USED, &v));
	EXPECT_GE(mem0, a_u64(m->tb[VPUX_A_DEV_MEM_USED]));
	EXPECT_LE(v, a_u64(m->tb[VPUX_A_DEV_MEM_USED]));

	/* the file's context: fdinfo's client id and busy time */
	client = fdinfo(self->fd, "drm-client-id");
	ASSERT_GT(client, 0);
	ASSERT_EQ(0, ctx_get(&self->nl, self->minor, client, m, 1, &cnt));
	ASSERT_EQ(1, cnt);
	for (a = VPUX_A_CTX_DEV_ID; a <= VPUX_A_CTX_BANNED; a++) {
		EXPECT_NE(NULL, m->tb[a]) TH_LOG("attribute %d missing", a);
	}
	EXPECT_EQ((__u64)client, a_u64(m->tb[VPUX_A_CTX_ID]));
	EXPECT_EQ((__u32)self->minor, a_u32(m->tb[VPUX_A_CTX_DEV_ID]));
	EXPECT_EQ((__u32)getpid(), a_u32(m->tb[VPUX_A_CTX_PID]));
	EXPECT_EQ(0u, a_u32(m->tb[VPUX_A_CTX_UID]));
	EXPECT_EQ(0, strncmp(a_str(m->tb[VPUX_A_CTX_COMM]), "vpux_netlink_te", 15))
		TH_LOG("comm %s", a_str(m->tb[VPUX_A_CTX_COMM]));
	EXPECT_EQ(6ull, a_u64(m->tb[VPUX_A_CTX_JOBS_SUBMITTED]));
	EXPECT_EQ(5ull, a_u64(m->tb[VPUX_A_CTX_JOBS_COMPLETED]));
	EXPECT_EQ(1ull, a_u64(m->tb[VPUX_A_CTX_JOBS_FAILED]));
	EXPECT_EQ((__u32)DRM_VPUX_PRIORITY_NORMAL, a_u32(m->tb[VPUX_A_CTX_PRIORITY]));
	EXPECT_EQ((__u64)fdinfo(self->fd, "drm-engine-npu"),
		  a_u64(m->tb[VPUX_A_CTX_BUSY_NS]));
	EXPECT_GT(a_u64(m->tb[VPUX_A_CTX_BUSY_NS]), 0ull);
	ASSERT_EQ(0, vpux_get_param(self->fd, DRM_VPUX_PARAM_FILE_BO_MEMORY_USED, &v));
	EXPECT_EQ(v, a_u64(m->tb[VPUX_A_CTX_MEM_USED]));
	EXPECT_EQ(0, *((__u8 *)m->tb[VPUX_A_CTX_BANNED] + NLA_HDRLEN));
}

/*
 * As uid NOBODY: a file of its own is reported, root's is refused (do)
 * and left out (dump). Root sees both.
 */
TEST_F(nl, another_users_context_is_refused)
{
	char node[64];
	struct stat st;
	long long root_id = fdinfo(self->fd, "drm-client-id");
	int pipefd[2], back[2], status, cnt, i;
	long long child_id = 0;
	pid_t pid;

	snprintf(node, sizeof(node), "/dev/accel/accel%d", self->minor);
	ASSERT_EQ(0, stat(node, &st));
	ASSERT_EQ(0, chmod(node, 0666));
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, pipe(back));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct nl nl;
		struct msg m[16];
		int fd, ret, own = 0, other = 0, rc = 0;
		long long id;
		char c;

		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(10);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(11);
		id = fdinfo(fd, "drm-client-id");
		if (write(pipefd[1], &id, sizeof(id)) != sizeof(id))
			_exit(12);
		if (nl_open(&nl))
			_exit(13);
		ret = ctx_get(&nl, self->minor, id, m, 1, &cnt);
		if (ret || cnt != 1 || a_u32(m[0].tb[VPUX_A_CTX_UID]) != NOBODY)
			rc |= 1;
		ret = ctx_get(&nl, self->minor, root_id, m, 1, &cnt);
		if (ret != -EPERM || !strstr(nl.ext_msg, "another user"))
			rc |= 2;
		ret = ctx_get(&nl, -1, 0, m, 16, &cnt);
		for (i = 0; !ret && i < cnt; i++) {
			if (a_u64(m[i].tb[VPUX_A_CTX_ID]) == (__u64)id)
				own++;
			if (a_u32(m[i].tb[VPUX_A_CTX_UID]) != NOBODY)
				other++;
		}
		if (ret || own != 1 || other)
			rc |= 4;
		/* dev-get needs no privilege */
		if (dev_get(&nl, self->minor, m, 1, &cnt) || cnt != 1)
			rc |= 8;
		/* stay open until the parent looked */
		if (read(back[0], &c, 1) != 1)
			rc |= 16;
		_exit(rc);
	}
	ASSERT_EQ((ssize_t)sizeof(child_id), read(pipefd[0], &child_id, sizeof(child_id)));
	chmod(node, st.st_mode & 07777);
	/* root sees the child's file and its own */
	{
		int found = 0;

		ASSERT_EQ(0, ctx_get(&self->nl, self->minor, 0, self->m, 8, &cnt));
		for (i = 0; i < cnt; i++) {
			__u64 id = a_u64(self->m[i].tb[VPUX_A_CTX_ID]);

			if (id == (__u64)child_id) {
				found++;
				EXPECT_EQ((__u32)NOBODY, a_u32(self->m[i].tb[VPUX_A_CTX_UID]));
			}
			if (id == (__u64)root_id)
				found++;
		}
		EXPECT_EQ(2, found);
	}
	ASSERT_EQ(1, write(back[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child: 1 own refused, 2 other's not refused, 4 dump wrong, 8 dev-get, 1x setup");
	close(pipefd[0]);
	close(pipefd[1]);
	close(back[0]);
	close(back[1]);
}

/*
 * Wait up to 10 s for notification @cmd of device @minor; its attributes
 * in *@m. Other notifications are skipped.
 */
static int wait_event(struct nl *nl, int minor, __u8 cmd, struct msg *m)
{
	static char buf[BUF];
	__s64 end = now_ns() + 10000000000ll;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };

	setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while (now_ns() < end) {
		ssize_t len = recv(nl->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0)
			continue;
		for (h = (void *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct genlmsghdr *g = NLMSG_DATA(h);
			int plen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

			if (h->nlmsg_type != nl->family || g->cmd != cmd)
				continue;
			if (plen > (int)sizeof(m->buf))
				plen = sizeof(m->buf);
			memcpy(m->buf, (char *)g + GENL_HDRLEN, plen);
			parse_attrs(m->tb, 32, m->buf, plen);
			m->cmd = g->cmd;
			if (m->tb[VPUX_A_EVENT_DEV_ID] &&
			    a_u32(m->tb[VPUX_A_EVENT_DEV_ID]) == (__u32)minor)
				return 0;
		}
	}
	return -ETIMEDOUT;
}

static int join_events(struct nl *nl)
{
	return setsockopt(nl->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			  &nl->events_grp, sizeof(nl->events_grp)) ? -errno : 0;
}

TEST_F(nl, events_of_an_injected_hang_and_its_reset)
{
	struct drm_vpux_wait w;
	struct msg *m = &self->m[0];
	__u64 seq;
	long long client = fdinfo(self->fd, "drm-client-id");
	__u32 resets;
	int cnt;

	if (dbg_read(self->minor, "job_timeout_ms") < 0)
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, join_events(&self->nl));
	self->saved_timeout = dbg_read(self->minor, "job_timeout_ms");
	ASSERT_EQ(0, dbg_write(self->minor, "job_timeout_ms", "300"));
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "hang 0 1"));
	ASSERT_EQ(0, copy(self, 4096, &w, &seq));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_TIMEOUT, w.status);

	ASSERT_EQ(0, wait_event(&self->nl, self->minor, VPUX_CMD_HANG_NTF, m));
	EXPECT_EQ((__u64)client, a_u64(m->tb[VPUX_A_EVENT_CTX_ID]));
	EXPECT_EQ(seq, a_u64(m->tb[VPUX_A_EVENT_SEQNO]));
	ASSERT_EQ(0, wait_event(&self->nl, self->minor, VPUX_CMD_RESET_NTF, m));
	resets = a_u32(m->tb[VPUX_A_EVENT_RESETS]);
	ASSERT_EQ(0, dev_get(&self->nl, self->minor, self->m + 1, 1, &cnt));
	EXPECT_EQ(resets, a_u32(self->m[1].tb[VPUX_A_DEV_RESETS]));
	EXPECT_GE(a_u64(self->m[1].tb[VPUX_A_DEV_JOBS_TIMEDOUT]), 1ull);
	/* the file is banned now, and says so */
	ASSERT_EQ(0, ctx_get(&self->nl, self->minor, client, self->m + 1, 1, &cnt));
	EXPECT_EQ(1, *((__u8 *)self->m[1].tb[VPUX_A_CTX_BANNED] + NLA_HDRLEN));
}

TEST_F(nl, event_of_an_injected_mmu_fault)
{
	struct drm_vpux_wait w;
	struct msg *m = &self->m[0];
	long long client = fdinfo(self->fd, "drm-client-id");
	__u64 seq;

	if (dbg_write(self->minor, "inject", "none 0"))
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, join_events(&self->nl));
	ASSERT_EQ(0, dbg_write(self->minor, "inject", "mmu_fault 0 1"));
	ASSERT_EQ(0, copy(self, 4096, &w, &seq));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_MMU_FAULT, w.status);
	ASSERT_EQ(0, wait_event(&self->nl, self->minor, VPUX_CMD_MMU_FAULT_NTF, m));
	EXPECT_EQ((__u64)client, a_u64(m->tb[VPUX_A_EVENT_CTX_ID]));
	EXPECT_EQ(seq, a_u64(m->tb[VPUX_A_EVENT_SEQNO]));
	ASSERT_NE(NULL, m->tb[VPUX_A_EVENT_ADDR]);
	EXPECT_EQ(w.fault_addr, a_u64(m->tb[VPUX_A_EVENT_ADDR]));
}

TEST_F(nl, event_of_a_job_error)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct msg *m = &self->m[0];
	struct tb t;

	ASSERT_EQ(0, join_events(&self->nl));
	/* the op names address-list entry 5 of a 3-entry list */
	tb_init(&t, self->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 5, 0, 64);
	submit_args(&s, &self->task, 0, t.size, self->list, 2);
	ASSERT_EQ(0, vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s));
	ASSERT_EQ(0, job_wait(self->fd, s.seqno, 5000000000ll, &w));
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_ERROR, w.status);
	ASSERT_EQ(0, wait_event(&self->nl, self->minor, VPUX_CMD_JOB_ERROR_NTF, m));
	EXPECT_EQ(s.seqno, a_u64(m->tb[VPUX_A_EVENT_SEQNO]));
	EXPECT_EQ((__u32)VPUX_JOB_STATUS_ERROR, a_u32(m->tb[VPUX_A_EVENT_STATUS]));
	EXPECT_EQ(-(__s32)w.core_error, (__s32)a_u32(m->tb[VPUX_A_EVENT_ERROR]));
}

/*
 * Drop CAP_SYS_ADMIN from every set of this process (its uid stays):
 * 0 or -1.
 */
static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	__u32 bit = CAP_TO_MASK(CAP_SYS_ADMIN);
	int i = CAP_TO_INDEX(CAP_SYS_ADMIN);

	if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) ||
	    syscall(SYS_capget, &h, d))
		return -1;
	d[i].effective &= ~bit;
	d[i].permitted &= ~bit;
	d[i].inheritable &= ~bit;
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/*
 * A job of root's file that fails (its DMA names address-list entry 5 of
 * a 3-entry list): the privileged listener @nl gets its job-error
 * notification. Returns 0 or -1.
 */
static int failing_job(struct __test_metadata *_metadata,
		       FIXTURE_DATA(nl) *self, struct nl *nl)
{
	struct drm_vpux_submit s;
	struct drm_vpux_wait w;
	struct msg *m = &self->m[0];
	struct tb t;

	tb_init(&t, self->task.map, 0, 1, 0, 0);
	dma_op(&t.dma[0], 1, 0, 5, 0, 64);
	submit_args(&s, &self->task, 0, t.size, self->list, 2);
	if (vpux_ioctl(self->fd, DRM_IOCTL_VPUX_SUBMIT, &s) ||
	    job_wait(self->fd, s.seqno, 5000000000ll, &w) ||
	    w.status != DRM_VPUX_STATUS_ERROR)
		return -1;
	if (wait_event(nl, self->minor, VPUX_CMD_JOB_ERROR_NTF, m))
		return -1;
	EXPECT_EQ(s.seqno, a_u64(m->tb[VPUX_A_EVENT_SEQNO]));
	EXPECT_EQ((__u64)fdinfo(self->fd, "drm-client-id"),
		  a_u64(m->tb[VPUX_A_EVENT_CTX_ID]));
	return 0;
}

/*
 * The child of events_need_cap_sys_admin(): drop to uid NOBODY (@nobody)
 * or to uid 0 without CAP_SYS_ADMIN, then try to join "events" (setsockopt
 * and, for a group below 32, bind() of another socket): both must fail
 * with EPERM. Tell the parent (@ready), which makes a job of root's fail
 * and sees its event, and wait (@done): nothing may have arrived on
 * either socket. Exit status: the bits of what went wrong.
 */
static int unprivileged_listener(int nobody, int ready, int done,
				 __u64 root_ctx)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[BUF], c = 'r';
	struct msg m[16];
	struct nl nl;
	int rc = 0, bound = -1, ret, cnt, i;

	if (nobody ? setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		     setresuid(NOBODY, NOBODY, NOBODY) :
		     drop_cap_sys_admin())
		return 64;
	if (nl_open(&nl) || !nl.events_grp)
		return 65;
	ret = join_events(&nl);
	if (ret != -EPERM)
		rc |= 1;
	/* a group below 32 can also be joined by bind() of a new socket */
	if (nl.events_grp < 32) {
		bound = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
			       NETLINK_GENERIC);
		sa.nl_groups = 1u << (nl.events_grp - 1);
		if (bound < 0)
			return 66;
		if (!bind(bound, (struct sockaddr *)&sa, sizeof(sa)) ||
		    errno != EPERM)
			rc |= 2;
	}
	/* nor does a dump show root's context */
	if (nobody) {
		ret = ctx_get(&nl, -1, 0, m, 16, &cnt);
		for (i = 0; !ret && i < cnt; i++)
			if (a_u64(m[i].tb[VPUX_A_CTX_ID]) == root_ctx)
				rc |= 4;
		if (ret)
			rc |= 4;
	}
	/* what is left of the requests' answers (nl_open's ack) */
	while (recv(nl.fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
	if (write(ready, &c, 1) != 1 || read(done, &c, 1) != 1)
		return rc | 32;
	/* root's job failed and root's listener saw it: these did not */
	if (recv(nl.fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0 ||
	    errno != EAGAIN)
		rc |= 8;
	if (bound >= 0 &&
	    (recv(bound, buf, sizeof(buf), MSG_DONTWAIT) >= 0 ||
	     errno != EAGAIN))
		rc |= 16;
	close(nl.fd);
	if (bound >= 0)
		close(bound);
	return rc;
}

/*
 * Joining "events" needs CAP_SYS_ADMIN: a child as uid NOBODY and one as
 * uid 0 without the capability are refused with EPERM and receive nothing
 * of root's failing job, whose notification the privileged listener (this
 * process, root) still gets.
 */
TEST_F(nl, events_need_cap_sys_admin)
{
	__u64 root_ctx = fdinfo(self->fd, "drm-client-id");
	int ready[2], done[2], status, k;
	pid_t pid[2];
	char c;

	ASSERT_NE(0u, self->nl.events_grp);
	ASSERT_EQ(0, join_events(&self->nl));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		ASSERT_GE(pid[k], 0);
		if (!pid[k])
			_exit(unprivileged_listener(k == 0, ready[1], done[0],
						    root_ctx));
	}
	for (k = 0; k < 2; k++)
		ASSERT_EQ(1, read(ready[0], &c, 1));
	EXPECT_EQ(0, failing_job(_metadata, self, &self->nl));
	ASSERT_EQ(2, write(done[1], "xx", 2));
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(pid[k], waitpid(pid[k], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("%s: 1 joined, 2 bound, 4 saw root's context, "
			       "8/16 received, 32 pipe, 64+ setup",
			       k ? "uid 0 without CAP_SYS_ADMIN" : "uid NOBODY");
	}
	close(ready[0]);
	close(ready[1]);
	close(done[0]);
	close(done[1]);
}

/* the next power-state notification of the device: its state, or -1 */
static int next_power_event(FIXTURE_DATA(nl) *self)
{
	struct msg *m = &self->m[0];

	if (wait_event(&self->nl, self->minor, VPUX_CMD_POWER_NTF, m) ||
	    !m->tb[VPUX_A_EVENT_POWER_STATE])
		return -1;
	return a_u32(m->tb[VPUX_A_EVENT_POWER_STATE]);
}

TEST_F(nl, events_of_autosuspend_and_of_the_resume_a_submit_causes)
{
	char path[128], saved[24] = "";
	struct drm_vpux_wait w;
	int state = -1, i, ret;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/accel/accel%d/device/power/autosuspend_delay_ms",
		 self->minor);
	f = fopen(path, "r");
	if (!f)
		SKIP(return, "no runtime PM in this kernel");
	if (!fgets(saved, sizeof(saved), f))
		saved[0] = 0;
	fclose(f);
	ASSERT_EQ(0, join_events(&self->nl));
	ASSERT_EQ(0, file_write(path, "50"));
	/* powered by this job, then idle: suspended 50 ms after it */
	ret = copy(self, 4096, &w, NULL);
	for (i = 0; i < 4 && state != VPUX_POWER_STATE_SUSPENDED; i++)
		state = next_power_event(self);
	ASSERT_EQ(0, ret);
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(VPUX_POWER_STATE_SUSPENDED, state);
	/*
	 * The driver notifies from its runtime_suspend callback; the PM
	 * core records "suspended" once the callback returned, which a
	 * listener may see a little later (seen on the debug kernel).
	 */
	for (i = 0; i < 100 && rpm_suspended(self->minor) != 1; i++)
		usleep(10000);
	EXPECT_EQ(1, rpm_suspended(self->minor));
	/* a submit wakes it: the next notification says so */
	ret = copy(self, 4096, &w, NULL);
	state = next_power_event(self);
	file_write(path, saved);
	ASSERT_EQ(0, ret);
	ASSERT_EQ((__u32)DRM_VPUX_STATUS_DONE, w.status);
	EXPECT_EQ(VPUX_POWER_STATE_ACTIVE, state);
}

TEST_HARNESS_MAIN

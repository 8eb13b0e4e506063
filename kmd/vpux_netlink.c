// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "vpux" generic netlink family (Documentation/netlink.rst): the
 * devices' counters (dev-get), the open files' contexts (ctx-get) and
 * the "events" multicast group. The ops table, the policies and the
 * family are generated from Documentation/netlink/specs/vpux.yaml into
 * vpux_nl_gen.c; this file has the handlers and the counters' hooks.
 *
 * One family serves every device: a device is named by its accel minor
 * (VPUX_A_DEV_ID), looked up in vpux_nl_devs under vpux_nl_lock, which
 * also hands out a drm_dev_get() reference so that a device removed
 * meanwhile stays readable until the handler is done with it.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pm_runtime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_job.h"
#include "vpux_netlink.h"
#include "vpux_nl_gen.h"

/* the bound devices by accel minor, under vpux_nl_lock */
static DEFINE_XARRAY(vpux_nl_devs);
static DEFINE_MUTEX(vpux_nl_lock);

static u32 vpux_nl_dev_id(struct vpux_device *vdev)
{
	return vdev->drm.accel->index;
}

/* The device with accel minor *@id or the next one; a reference. */
static struct vpux_device *vpux_nl_dev_find(unsigned long *id, bool next)
{
	struct vpux_device *vdev;

	guard(mutex)(&vpux_nl_lock);
	if (next)
		vdev = xa_find(&vpux_nl_devs, id, ULONG_MAX, XA_PRESENT);
	else
		vdev = xa_load(&vpux_nl_devs, *id);
	if (vdev)
		drm_dev_get(&vdev->drm);
	return vdev;
}

static void vpux_nl_dev_put(struct vpux_device *vdev)
{
	drm_dev_put(&vdev->drm);
}

/*
 * Runtime-suspended, with runtime PM enabled: a device whose driver never
 * enabled runtime PM keeps the initial RPM_SUSPENDED status while it is
 * powered all along. No register is read: asking does not wake it.
 */
static u32 vpux_nl_power_state(struct vpux_device *vdev)
{
	return pm_runtime_suspended(vdev->drm.dev) ?
	       VPUX_POWER_STATE_SUSPENDED : VPUX_POWER_STATE_ACTIVE;
}

static u64 vpux_nl_cycles_ns(struct vpux_device *vdev, u64 cycles)
{
	/* kHz: cycles * 10^6 / kHz ns */
	return vdev->hw.clock_khz ?
	       mul_u64_u32_div(cycles, 1000000, vdev->hw.clock_khz) : 0;
}

static int vpux_nl_put_engine(struct sk_buff *skb, struct vpux_device *vdev,
			      u32 kind, u32 count)
{
	struct nlattr *nest;
	u64 cycles = atomic64_read(&vdev->nl.engine_cycles[kind]);

	nest = nla_nest_start(skb, VPUX_A_DEV_ENGINE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VPUX_A_ENGINE_KIND, kind) ||
	    nla_put_u32(skb, VPUX_A_ENGINE_COUNT, count) ||
	    nla_put_u64_64bit(skb, VPUX_A_ENGINE_BUSY_NS,
			      vpux_nl_cycles_ns(vdev, cycles),
			      VPUX_A_ENGINE_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static u32 vpux_nl_open_files(struct vpux_device *vdev)
{
	struct drm_file *file;
	u32 n = 0;

	guard(mutex)(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead)
		n++;
	return n;
}

static int vpux_nl_dev_fill(struct sk_buff *skb, struct vpux_device *vdev,
			    u32 portid, u32 seq, int flags)
{
	struct vpux_nl_dev *nl = &vdev->nl;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &vpux_nl_family, flags,
			  VPUX_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VPUX_A_DEV_ID, vpux_nl_dev_id(vdev)) ||
	    nla_put_string(skb, VPUX_A_DEV_NAME, dev_name(vdev->drm.dev)) ||
	    nla_put_u32(skb, VPUX_A_DEV_DEVICE_ID, vdev->hw.device_id) ||
	    nla_put_u32(skb, VPUX_A_DEV_REVISION, vdev->hw.revision) ||
	    nla_put_u32(skb, VPUX_A_DEV_SERIAL, vdev->hw.serial) ||
	    nla_put_u32(skb, VPUX_A_DEV_POWER_STATE, vpux_nl_power_state(vdev)) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_UPTIME_NS,
			      ktime_get_boottime_ns() - nl->probe_ns,
			      VPUX_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_JOBS_SUBMITTED,
			      atomic64_read(&nl->jobs_submitted), VPUX_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_JOBS_COMPLETED,
			      atomic64_read(&nl->jobs_completed), VPUX_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_JOBS_FAILED,
			      atomic64_read(&nl->jobs_failed), VPUX_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_JOBS_TIMEDOUT,
			      atomic64_read(&nl->jobs_timedout), VPUX_A_DEV_PAD) ||
	    nla_put_u32(skb, VPUX_A_DEV_RESETS, atomic_read(&vdev->resets)) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_BUSY_NS, vpux_busy_time_ns(vdev),
			      VPUX_A_DEV_PAD) ||
	    vpux_nl_put_engine(skb, vdev, VPUX_ENGINE_DMA, vdev->hw.n_dma) ||
	    vpux_nl_put_engine(skb, vdev, VPUX_ENGINE_DPU, vdev->hw.n_dpu) ||
	    vpux_nl_put_engine(skb, vdev, VPUX_ENGINE_SHAVE, vdev->hw.n_shave) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_MEM_USED,
			      atomic64_read(&vdev->bo_pinned), VPUX_A_DEV_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_DEV_MEM_LIMIT, vpux_bo_memory_limit(),
			      VPUX_A_DEV_PAD) ||
	    nla_put_u32(skb, VPUX_A_DEV_OPEN_FILES, vpux_nl_open_files(vdev))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The device VPUX_A_DEV_ID (attribute @attr) names; a reference. */
static struct vpux_device *vpux_nl_info_dev(struct genl_info *info, int attr)
{
	struct vpux_device *vdev;
	unsigned long id;

	if (GENL_REQ_ATTR_CHECK(info, attr))
		return ERR_PTR(-EINVAL);
	id = nla_get_u32(info->attrs[attr]);
	vdev = vpux_nl_dev_find(&id, false);
	if (!vdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[attr],
				    "no vpux device has this id");
		return ERR_PTR(-ENODEV);
	}
	return vdev;
}

int vpux_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct vpux_device *vdev;
	struct sk_buff *msg;
	int ret;

	vdev = vpux_nl_info_dev(info, VPUX_A_DEV_ID);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out_put;
	}
	ret = vpux_nl_dev_fill(msg, vdev, info->snd_portid, info->snd_seq, 0);
	if (ret) {
		nlmsg_free(msg);
		goto out_put;
	}
	ret = genlmsg_reply(msg, info);
out_put:
	vpux_nl_dev_put(vdev);
	return ret;
}

/* dump state: the next device's accel minor */
struct vpux_nl_dump_dev {
	unsigned long next;
};

int vpux_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct vpux_nl_dump_dev *st = (void *)cb->ctx;
	struct vpux_device *vdev;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*st) > sizeof(cb->ctx));
	while ((vdev = vpux_nl_dev_find(&st->next, true))) {
		ret = vpux_nl_dev_fill(skb, vdev, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI);
		vpux_nl_dev_put(vdev);
		if (ret)
			break;
		st->next++;
	}
	/* a full skb ends this part of the dump, not the dump */
	return ret == -EMSGSIZE && skb->len ? skb->len : ret;
}

/*
 * May the sender of request @skb see @file's context? Root (CAP_SYS_ADMIN
 * in the initial user namespace, of the socket's opener and of the
 * caller, netlink_capable()) sees every one; others only those of files
 * opened with their effective uid, which must also be the sending
 * socket's opener's (NETLINK_CB(skb).sk: skb->sk is the kernel's socket
 * by now).
 */
static bool vpux_nl_ctx_visible(const struct sk_buff *skb,
				struct drm_file *file)
{
	const struct sock *sk = NETLINK_CB(skb).sk;
	const struct file *sock_file;

	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	sock_file = sk && sk->sk_socket ? sk->sk_socket->file : NULL;
	return file->filp && sock_file &&
	       uid_eq(file->filp->f_cred->euid, sock_file->f_cred->euid) &&
	       uid_eq(file->filp->f_cred->euid, current_euid());
}

static u32 vpux_nl_ctx_priority(struct vpux_file_priv *fpriv)
{
	struct vpux_queue *q;
	unsigned long id;
	u32 prio = 0;

	guard(mutex)(&fpriv->job_lock);
	if (fpriv->defq)
		prio = fpriv->defq->priority;
	xa_for_each(&fpriv->queues, id, q)
		prio = max(prio, q->priority);
	return prio;
}

static int vpux_nl_ctx_fill(struct sk_buff *skb, struct vpux_device *vdev,
			    struct drm_file *file, u32 portid, u32 seq,
			    int flags)
{
	struct vpux_file_priv *fpriv = file->driver_priv;
	char comm[TASK_COMM_LEN] = "";
	struct task_struct *task;
	u32 pid = 0, uid = 0;
	void *hdr;

	lockdep_assert_held(&vdev->drm.filelist_mutex);
	rcu_read_lock();
	task = pid_task(rcu_dereference(file->pid), PIDTYPE_TGID);
	if (task) {
		pid = task_tgid_nr(task);
		strscpy(comm, task->comm, sizeof(comm));
	}
	rcu_read_unlock();
	if (file->filp)
		uid = from_kuid_munged(&init_user_ns,
				       file->filp->f_cred->euid);

	hdr = genlmsg_put(skb, portid, seq, &vpux_nl_family, flags,
			  VPUX_CMD_CTX_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VPUX_A_CTX_DEV_ID, vpux_nl_dev_id(vdev)) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_ID, file->client_id,
			      VPUX_A_CTX_PAD) ||
	    nla_put_u32(skb, VPUX_A_CTX_PID, pid) ||
	    nla_put_string(skb, VPUX_A_CTX_COMM, comm) ||
	    nla_put_u32(skb, VPUX_A_CTX_UID, uid) ||
	    nla_put_u32(skb, VPUX_A_CTX_PRIORITY, vpux_nl_ctx_priority(fpriv)) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_JOBS_SUBMITTED,
			      atomic64_read(&fpriv->nl.jobs_submitted),
			      VPUX_A_CTX_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_JOBS_COMPLETED,
			      atomic64_read(&fpriv->nl.jobs_completed),
			      VPUX_A_CTX_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_JOBS_FAILED,
			      atomic64_read(&fpriv->nl.jobs_failed),
			      VPUX_A_CTX_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_BUSY_NS,
			      atomic64_read(&fpriv->busy_ns), VPUX_A_CTX_PAD) ||
	    nla_put_u64_64bit(skb, VPUX_A_CTX_MEM_USED,
			      atomic64_read(&fpriv->ctx.pinned), VPUX_A_CTX_PAD) ||
	    nla_put_u8(skb, VPUX_A_CTX_BANNED, READ_ONCE(fpriv->banned))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int vpux_nl_ctx_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct drm_file *file, *found = NULL;
	struct vpux_device *vdev;
	struct sk_buff *msg;
	u64 id;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, VPUX_A_CTX_ID))
		return -EINVAL;
	vdev = vpux_nl_info_dev(info, VPUX_A_CTX_DEV_ID);
	if (IS_ERR(vdev))
		return PTR_ERR(vdev);
	id = nla_get_u64(info->attrs[VPUX_A_CTX_ID]);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out_put;
	}

	mutex_lock(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead)
		if (file->client_id == id)
			found = file;
	if (!found) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[VPUX_A_CTX_ID],
				    "no open file of the device has this id");
		ret = -ENOENT;
	} else if (!vpux_nl_ctx_visible(skb, found)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[VPUX_A_CTX_ID],
				    "the context belongs to another user");
		ret = -EPERM;
	} else {
		ret = vpux_nl_ctx_fill(msg, vdev, found, info->snd_portid,
				       info->snd_seq, 0);
	}
	mutex_unlock(&vdev->drm.filelist_mutex);
	if (ret) {
		nlmsg_free(msg);
		goto out_put;
	}
	ret = genlmsg_reply(msg, info);
out_put:
	vpux_nl_dev_put(vdev);
	return ret;
}

/* dump state: the device, then the last client id reported of it */
struct vpux_nl_dump_ctx {
	unsigned long dev;
	u64 last_id;
	bool one_dev;
};

/*
 * The visible file of @vdev with the smallest client id above @after, or
 * NULL: files are reported in client-id order, so that a dump resumed
 * after a full skb neither repeats nor skips one (files opened meanwhile
 * have larger ids).
 */
static struct drm_file *vpux_nl_ctx_next(struct vpux_device *vdev,
					 const struct sk_buff *skb, u64 after)
{
	struct drm_file *file, *best = NULL;

	lockdep_assert_held(&vdev->drm.filelist_mutex);
	list_for_each_entry(file, &vdev->drm.filelist, lhead)
		if (file->client_id > after &&
		    (!best || file->client_id < best->client_id) &&
		    vpux_nl_ctx_visible(skb, file))
			best = file;
	return best;
}

int vpux_nl_ctx_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct vpux_nl_dump_ctx *st = (void *)cb->ctx;
	struct vpux_device *vdev;
	struct drm_file *file;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*st) > sizeof(cb->ctx));
	if (!st->dev && !st->last_id && info->attrs[VPUX_A_CTX_DEV_ID]) {
		st->dev = nla_get_u32(info->attrs[VPUX_A_CTX_DEV_ID]);
		st->one_dev = true;
		vdev = vpux_nl_dev_find(&st->dev, false);
		if (!vdev) {
			NL_SET_ERR_MSG_ATTR(cb->extack,
					    info->attrs[VPUX_A_CTX_DEV_ID],
					    "no vpux device has this id");
			return -ENODEV;
		}
		vpux_nl_dev_put(vdev);
	}

	for (;;) {
		unsigned long want = st->dev;

		vdev = vpux_nl_dev_find(&st->dev, !st->one_dev);
		if (!vdev)
			break;
		/* the device the dump was in went away: start the next one */
		if (st->dev != want)
			st->last_id = 0;
		mutex_lock(&vdev->drm.filelist_mutex);
		while ((file = vpux_nl_ctx_next(vdev, cb->skb, st->last_id))) {
			ret = vpux_nl_ctx_fill(skb, vdev, file,
					       NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (ret)
				break;
			st->last_id = file->client_id;
		}
		mutex_unlock(&vdev->drm.filelist_mutex);
		vpux_nl_dev_put(vdev);
		if (ret || st->one_dev)
			break;
		st->dev++;
		st->last_id = 0;
	}
	return ret == -EMSGSIZE && skb->len ? skb->len : ret;
}

/* ---- counters ---- */

/**
 * vpux_nl_job_submitted() - SUBMIT pushed a job of @fpriv
 * @fpriv: the file
 */
void vpux_nl_job_submitted(struct vpux_file_priv *fpriv)
{
	atomic64_inc(&fpriv->nl.jobs_submitted);
	atomic64_inc(&fpriv->vdev->nl.jobs_submitted);
}

/**
 * vpux_nl_job_cycles_locked() - count a job's op cycles per engine kind
 * @vdev: the device, fw.lock held
 * @job: a job that left the engine core
 *
 * Any context: O(ops of the task), no allocation.
 */
void vpux_nl_job_cycles_locked(struct vpux_device *vdev, struct vpux_job *job)
{
	const u32 *fw_cycles = NULL;
	u32 count[DLA_OP_KINDS], k, i, n = 0, c;
	u64 sum;

	lockdep_assert_held(&vdev->fw.lock);
	BUILD_BUG_ON(DLA_OP_KINDS != VPUX_ENGINE_KINDS);
	if (!job->task || dla_task_op_cycles(job->task, count, NULL, 0) < 0)
		return;
	/* headed: the kernel's copy never ran; the firmware's did */
	if (job->stage.cpu)
		fw_cycles = job->stage.cpu + job->stage.cycles_offset;
	for (k = 0; k < DLA_OP_KINDS; k++) {
		sum = 0;
		for (i = 0; i < count[k]; i++, n++) {
			if (fw_cycles)
				c = n < job->stage.cycles_count ?
				    READ_ONCE(fw_cycles[n]) : 0;
			else if (dla_op_cycles(job->task, k, i, &c))
				c = 0;
			sum += c;
		}
		if (sum)
			atomic64_add(sum, &vdev->nl.engine_cycles[k]);
	}
}

/* ---- events ---- */

static void vpux_nl_queue_event(struct vpux_device *vdev,
				const struct vpux_nl_event *ev)
{
	struct vpux_nl_dev *nl = &vdev->nl;
	unsigned long flags;

	spin_lock_irqsave(&nl->ev_lock, flags);
	if (nl->ev_off) {
		spin_unlock_irqrestore(&nl->ev_lock, flags);
		return;
	}
	if (nl->ev_count == VPUX_NL_EVENTS) {
		atomic_inc(&nl->ev_dropped);
	} else {
		nl->ev[(nl->ev_head + nl->ev_count) % VPUX_NL_EVENTS] = *ev;
		nl->ev_count++;
	}
	/*
	 * Multicast takes locks a hard-IRQ or fence path must not: defer.
	 * Queued under ev_lock, so that vpux_nl_device_remove()'s flush
	 * waits for any work queued before it set ev_off.
	 */
	queue_work(system_wq, &nl->ev_work);
	spin_unlock_irqrestore(&nl->ev_lock, flags);
}

/**
 * vpux_nl_job_done_locked() - count a job's end and report its error
 * @vdev: the device, fw.lock held
 * @job: the job, its result decided
 * @res: the result
 *
 * Any context (hard IRQ included).
 */
void vpux_nl_job_done_locked(struct vpux_device *vdev, struct vpux_job *job,
			     const struct vpux_job_result *res)
{
	struct vpux_nl_event ev = {
		.ctx_id = job->fpriv->id,
		.seqno = job->slot->seqno,
		.status = res->status,
		.error = res->core_error ? -(s32)res->core_error : res->sys_error,
	};

	lockdep_assert_held(&vdev->fw.lock);
	if (res->status == DRM_VPUX_STATUS_DONE) {
		atomic64_inc(&vdev->nl.jobs_completed);
		atomic64_inc(&job->fpriv->nl.jobs_completed);
		return;
	}
	if (res->status == DRM_VPUX_STATUS_TIMEOUT)
		atomic64_inc(&vdev->nl.jobs_timedout);
	else
		atomic64_inc(&vdev->nl.jobs_failed);
	atomic64_inc(&job->fpriv->nl.jobs_failed);

	/* a hang is reported by vpux_nl_notify_hang() */
	if (res->status == DRM_VPUX_STATUS_TIMEOUT &&
	    res->sys_error == -ETIMEDOUT)
		return;
	if (res->status == DRM_VPUX_STATUS_MMU_FAULT) {
		ev.cmd = VPUX_CMD_MMU_FAULT_NTF;
		ev.addr = res->fault_addr;
	} else {
		ev.cmd = VPUX_CMD_JOB_ERROR_NTF;
	}
	vpux_nl_queue_event(vdev, &ev);
}

/**
 * vpux_nl_notify_hang() - the watchdog aborts a job that hung
 * @vdev: the device
 * @job: the job
 */
void vpux_nl_notify_hang(struct vpux_device *vdev, struct vpux_job *job)
{
	struct vpux_nl_event ev = {
		.cmd = VPUX_CMD_HANG_NTF,
		.ctx_id = job->fpriv->id,
		.seqno = job->slot->seqno,
	};

	vpux_nl_queue_event(vdev, &ev);
}

/**
 * vpux_nl_notify_reset() - the device's engines were reset
 * @vdev: the device
 * @resets: its reset count, this one included
 */
void vpux_nl_notify_reset(struct vpux_device *vdev, u32 resets)
{
	struct vpux_nl_event ev = {
		.cmd = VPUX_CMD_RESET_NTF,
		.value = resets,
	};

	vpux_nl_queue_event(vdev, &ev);
}

/**
 * vpux_nl_notify_power() - the device changed its power state
 * @vdev: the device
 * @active: it is powered (resumed) now; false: it is suspended
 *
 * Any context; the notification is sent from a work item.
 */
void vpux_nl_notify_power(struct vpux_device *vdev, bool active)
{
	struct vpux_nl_event ev = {
		.cmd = VPUX_CMD_POWER_NTF,
		.value = active ? VPUX_POWER_STATE_ACTIVE :
				  VPUX_POWER_STATE_SUSPENDED,
	};

	vpux_nl_queue_event(vdev, &ev);
}

static int vpux_nl_event_fill(struct sk_buff *skb, struct vpux_device *vdev,
			      const struct vpux_nl_event *ev)
{
	void *hdr;

	hdr = genlmsg_put(skb, 0, 0, &vpux_nl_family, 0, ev->cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, VPUX_A_EVENT_DEV_ID, vpux_nl_dev_id(vdev)))
		goto err;
	switch (ev->cmd) {
	case VPUX_CMD_RESET_NTF:
		if (nla_put_u32(skb, VPUX_A_EVENT_RESETS, ev->value))
			goto err;
		break;
	case VPUX_CMD_POWER_NTF:
		if (nla_put_u32(skb, VPUX_A_EVENT_POWER_STATE, ev->value))
			goto err;
		break;
	default:
		if (nla_put_u64_64bit(skb, VPUX_A_EVENT_CTX_ID, ev->ctx_id,
				      VPUX_A_EVENT_PAD) ||
		    nla_put_u64_64bit(skb, VPUX_A_EVENT_SEQNO, ev->seqno,
				      VPUX_A_EVENT_PAD))
			goto err;
		if (ev->cmd == VPUX_CMD_MMU_FAULT_NTF &&
		    nla_put_u64_64bit(skb, VPUX_A_EVENT_ADDR, ev->addr,
				      VPUX_A_EVENT_PAD))
			goto err;
		if (ev->cmd == VPUX_CMD_JOB_ERROR_NTF &&
		    (nla_put_u32(skb, VPUX_A_EVENT_STATUS, ev->status) ||
		     nla_put_s32(skb, VPUX_A_EVENT_ERROR, ev->error)))
			goto err;
		break;
	}
	genlmsg_end(skb, hdr);
	return 0;
err:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void vpux_nl_event_work(struct work_struct *work)
{
	struct vpux_device *vdev = container_of(work, struct vpux_device,
						nl.ev_work);
	struct vpux_nl_dev *nl = &vdev->nl;
	struct vpux_nl_event ev;
	struct sk_buff *skb;

	for (;;) {
		scoped_guard(spinlock_irqsave, &nl->ev_lock) {
			if (!nl->ev_count)
				return;
			ev = nl->ev[nl->ev_head];
			nl->ev_head = (nl->ev_head + 1) % VPUX_NL_EVENTS;
			nl->ev_count--;
		}
		if (!genl_has_listeners(&vpux_nl_family, &init_net,
					VPUX_NLGRP_EVENTS))
			continue;
		skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
		if (!skb)
			continue;
		if (vpux_nl_event_fill(skb, vdev, &ev)) {
			nlmsg_free(skb);
			continue;
		}
		/* -ESRCH: the last listener went away meanwhile */
		genlmsg_multicast(&vpux_nl_family, skb, 0, VPUX_NLGRP_EVENTS,
				  GFP_KERNEL);
	}
}

/* ---- devices and the family ---- */

/**
 * vpux_nl_device_add() - a device is bound and registered: report it
 * @vdev: the device; its accel minor exists
 *
 * Return: 0 or a negative errno.
 */
int vpux_nl_device_add(struct vpux_device *vdev)
{
	struct vpux_nl_dev *nl = &vdev->nl;

	nl->probe_ns = ktime_get_boottime_ns();
	spin_lock_init(&nl->ev_lock);
	INIT_WORK(&nl->ev_work, vpux_nl_event_work);
	guard(mutex)(&vpux_nl_lock);
	return xa_insert(&vpux_nl_devs, vpux_nl_dev_id(vdev), vdev,
			 GFP_KERNEL);
}

/**
 * vpux_nl_device_remove() - the device is going away
 * @vdev: the device vpux_nl_device_add() added
 *
 * Requests no longer find it (those that hold it finish with their
 * reference); events are no longer queued and those queued are sent
 * before this returns.
 */
void vpux_nl_device_remove(struct vpux_device *vdev)
{
	scoped_guard(mutex, &vpux_nl_lock)
		xa_erase(&vpux_nl_devs, vpux_nl_dev_id(vdev));
	scoped_guard(spinlock_irqsave, &vdev->nl.ev_lock)
		vdev->nl.ev_off = true;
	flush_work(&vdev->nl.ev_work);
}

/*
 * The generated groups with the flags the spec gives them. ynl-gen-c.py
 * of 6.12 validates a group's "flags" but does not render them, so the
 * generated vpux_nl_mcgrps[] has none and anyone could join "events":
 * every user's job errors, MMU-fault addresses, client ids and seqnos.
 * Joining needs CAP_SYS_ADMIN (genl_bind() checks it in the user
 * namespace owning the socket's network namespace; events are sent in
 * the initial one only), the capability ctx-get asks to see another
 * user's contexts.
 */
static const struct genl_multicast_group vpux_nl_mcgrps_cap[] = {
	[VPUX_NLGRP_EVENTS] = {
		.name = VPUX_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_SYS_ADMIN,
	},
};

/**
 * vpux_nl_module_init() - register the family (module init)
 *
 * Return: 0 or a negative errno.
 */
int vpux_nl_module_init(void)
{
	const struct genl_multicast_group *gen = vpux_nl_family.mcgrps;
	unsigned int i;

	/* the same groups in the same order, or the spec changed */
	if (WARN_ON(vpux_nl_family.n_mcgrps != ARRAY_SIZE(vpux_nl_mcgrps_cap)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(vpux_nl_mcgrps_cap); i++)
		if (WARN_ON(strcmp(gen[i].name, vpux_nl_mcgrps_cap[i].name)))
			return -EINVAL;
	/* __ro_after_init: writable until module init returns */
	vpux_nl_family.mcgrps = vpux_nl_mcgrps_cap;
	return genl_register_family(&vpux_nl_family);
}

/**
 * vpux_nl_module_exit() - unregister the family (module exit, after
 *	every device was removed)
 */
void vpux_nl_module_exit(void)
{
	genl_unregister_family(&vpux_nl_family);
}

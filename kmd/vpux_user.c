// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pinned memory per user. A file's BOs, page tables and unfinished jobs
 * pin memory that cannot be reclaimed (vpux_mem_charge()); the file and
 * device limits alone let one user open several files, or both NPUs,
 * and pin everything the driver allows, so that no other user gets a
 * BO. Each user (the real uid of the task that opened the file, as
 * RLIMIT_MEMLOCK accounting uses) therefore has one counter across all
 * the driver's devices, capped by user_memory_limit_mb: by default half
 * of one device's limit, so whatever one user holds, the others find at
 * least half of every device.
 *
 * A record lives while a file of its user is open or its address space
 * still holds memory (the last job or BO of a closed file); records are
 * kept in an xarray indexed by the uid in the initial namespace.
 */

#include <linux/cred.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include "vpux_drv.h"
#include "vpux_gem.h"
#include "vpux_mmu.h"

static unsigned int user_memory_limit_mb;
module_param(user_memory_limit_mb, uint, 0644);
MODULE_PARM_DESC(user_memory_limit_mb,
		 "MiB one user may pin on all NPUs together (0: half of one device's limit, the default)");

/**
 * struct vpux_user - one user's pinned memory on all devices
 * @uid: the user (real uid of the opener)
 * @ref: address spaces (files) of the user that are alive
 * @pinned: bytes charged, all devices
 */
struct vpux_user {
	kuid_t uid;
	refcount_t ref;
	atomic64_t pinned;
};

static DEFINE_XARRAY(vpux_users);
static DEFINE_MUTEX(vpux_users_lock);

/**
 * vpux_user_memory_limit() - bytes one user may pin on all devices
 *
 * Return: user_memory_limit_mb in bytes, or half of a device's limit
 * when it is 0.
 */
u64 vpux_user_memory_limit(void)
{
	u64 mb = READ_ONCE(user_memory_limit_mb);

	return mb ? mb << 20 : vpux_bo_memory_limit() / 2;
}

/**
 * vpux_user_get() - the record of the user that opens a file
 * @cred: the opener's credentials
 *
 * Process context (open, as the opener: current_cred()); allocates.
 *
 * Return: a referenced record, or NULL on allocation failure.
 */
struct vpux_user *vpux_user_get(const struct cred *cred)
{
	unsigned long idx = from_kuid(&init_user_ns, cred->uid);
	struct vpux_user *u;

	guard(mutex)(&vpux_users_lock);
	u = xa_load(&vpux_users, idx);
	if (u) {
		refcount_inc(&u->ref);
		return u;
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u)
		return NULL;
	u->uid = cred->uid;
	refcount_set(&u->ref, 1);
	atomic64_set(&u->pinned, 0);
	if (xa_err(xa_store(&vpux_users, idx, u, GFP_KERNEL))) {
		kfree(u);
		return NULL;
	}
	return u;
}

/**
 * vpux_user_put() - drop a reference from vpux_user_get()
 * @u: the record; its address space gave back all it charged
 *
 * Process context; the last reference frees the record.
 */
void vpux_user_put(struct vpux_user *u)
{
	guard(mutex)(&vpux_users_lock);
	if (!refcount_dec_and_test(&u->ref))
		return;
	WARN_ON(atomic64_read(&u->pinned));
	xa_erase(&vpux_users, from_kuid(&init_user_ns, u->uid));
	kfree(u);
}

/**
 * vpux_user_charge() - count @size pinned bytes against the user's limit
 * @u: the user
 * @size: bytes
 *
 * Return: 0, or -ENOMEM (nothing counted) over the limit.
 */
int vpux_user_charge(struct vpux_user *u, u64 size)
{
	if (atomic64_add_return(size, &u->pinned) > vpux_user_memory_limit()) {
		atomic64_sub(size, &u->pinned);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vpux_user_uncharge() - give back what vpux_user_charge() counted
 * @u: the user
 * @size: bytes
 */
void vpux_user_uncharge(struct vpux_user *u, u64 size)
{
	atomic64_sub(size, &u->pinned);
}

/**
 * vpux_user_pinned() - what the user pins on all devices now
 * @u: the user
 *
 * Return: bytes.
 */
u64 vpux_user_pinned(struct vpux_user *u)
{
	return atomic64_read(&u->pinned);
}

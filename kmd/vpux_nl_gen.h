/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/vpux.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_VPUX_GEN_H
#define _LINUX_VPUX_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/drm/vpux_netlink.h>

int vpux_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int vpux_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int vpux_nl_ctx_get_doit(struct sk_buff *skb, struct genl_info *info);
int vpux_nl_ctx_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

enum {
	VPUX_NLGRP_EVENTS,
};

extern struct genl_family vpux_nl_family;

#endif /* _LINUX_VPUX_GEN_H */

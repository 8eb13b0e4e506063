// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/vpux.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "vpux_nl_gen.h"

#include <uapi/drm/vpux_netlink.h>

/* VPUX_CMD_DEV_GET - do */
static const struct nla_policy vpux_dev_get_nl_policy[VPUX_A_DEV_ID + 1] = {
	[VPUX_A_DEV_ID] = { .type = NLA_U32, },
};

/* VPUX_CMD_CTX_GET - do */
static const struct nla_policy vpux_ctx_get_do_nl_policy[VPUX_A_CTX_ID + 1] = {
	[VPUX_A_CTX_DEV_ID] = { .type = NLA_U32, },
	[VPUX_A_CTX_ID] = { .type = NLA_U64, },
};

/* VPUX_CMD_CTX_GET - dump */
static const struct nla_policy vpux_ctx_get_dump_nl_policy[VPUX_A_CTX_DEV_ID + 1] = {
	[VPUX_A_CTX_DEV_ID] = { .type = NLA_U32, },
};

/* Ops table for vpux */
static const struct genl_split_ops vpux_nl_ops[] = {
	{
		.cmd		= VPUX_CMD_DEV_GET,
		.doit		= vpux_nl_dev_get_doit,
		.policy		= vpux_dev_get_nl_policy,
		.maxattr	= VPUX_A_DEV_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= VPUX_CMD_DEV_GET,
		.dumpit	= vpux_nl_dev_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= VPUX_CMD_CTX_GET,
		.doit		= vpux_nl_ctx_get_doit,
		.policy		= vpux_ctx_get_do_nl_policy,
		.maxattr	= VPUX_A_CTX_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= VPUX_CMD_CTX_GET,
		.dumpit		= vpux_nl_ctx_get_dumpit,
		.policy		= vpux_ctx_get_dump_nl_policy,
		.maxattr	= VPUX_A_CTX_DEV_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
};

static const struct genl_multicast_group vpux_nl_mcgrps[] = {
	[VPUX_NLGRP_EVENTS] = { "events", },
};

struct genl_family vpux_nl_family __ro_after_init = {
	.name		= VPUX_FAMILY_NAME,
	.version	= VPUX_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= vpux_nl_ops,
	.n_split_ops	= ARRAY_SIZE(vpux_nl_ops),
	.mcgrps		= vpux_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(vpux_nl_mcgrps),
};

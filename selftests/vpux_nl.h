/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The "vpux" generic netlink family over a raw netlink socket, no
 * library (Documentation/netlink.rst): resolve the family and its
 * "events" group, build requests, receive answers with the kernel's
 * extack. Shared by vpux_netlink_test and vpux_fuzz; one struct nl per
 * thread (it holds the receive buffer).
 */
#ifndef VPUX_NL_H
#define VPUX_NL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <drm/vpux_netlink.h>

#define VPUX_NL_BUF	16384


struct nl {
	int fd;
	__u16 family;
	__u32 events_grp;
	__u32 seq;
	char ext_msg[256];	/* the kernel's extack message */
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	char buf[VPUX_NL_BUF];	/* what nl_recv() receives into */
};

/* one received message's attributes, by type */
struct msg {
	__u8 cmd;
	struct nlattr *tb[32];
	char buf[1024];
};

static inline void put_attr(struct nlmsghdr *n, __u16 type, const void *data,
		     __u16 len)
{
	struct nlattr *a = (void *)n + NLMSG_ALIGN(n->nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static inline void parse_attrs(struct nlattr **tb, int max, void *p, int len)
{
	struct nlattr *a;

	memset(tb, 0, sizeof(*tb) * max);
	for (a = p; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	     a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len),
	     a = (void *)a + NLA_ALIGN(a->nla_len))
		if ((a->nla_type & NLA_TYPE_MASK) < max)
			tb[a->nla_type & NLA_TYPE_MASK] = a;
}

static inline __u32 a_u32(const struct nlattr *a) { return *(__u32 *)((char *)a + NLA_HDRLEN); }
static inline __u64 a_u64(const struct nlattr *a)
{
	__u64 v;

	memcpy(&v, (char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}
static inline const char *a_str(const struct nlattr *a) { return (char *)a + NLA_HDRLEN; }

static inline int nl_send(struct nl *nl, struct nlmsghdr *n)
{
	n->nlmsg_seq = ++nl->seq;
	return send(nl->fd, n, n->nlmsg_len, 0) < 0 ? -errno : 0;
}

/*
 * Receive the answer to the last request: each data message is copied
 * into @out (up to @max), the count in *@n. Returns 0 or the kernel's
 * -errno (its extack in @nl).
 */
static inline int nl_recv(struct nl *nl, struct msg *out, int max, int *n)
{
	char *buf = nl->buf;

	*n = 0;
	nl->ext_msg[0] = 0;
	nl->miss_type = -1;
	for (;;) {
		ssize_t len = recv(nl->fd, buf, sizeof(nl->buf), 0);
		struct nlmsghdr *h;

		if (len < 0)
			return -errno;
		for (h = (void *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != nl->seq)
				continue;	/* a notification */
			if (h->nlmsg_type == NLMSG_DONE)	/* a dump's status */
				return h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)) ?
				       *(int *)NLMSG_DATA(h) : 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);
				struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
				int off = sizeof(*e);

				if (!(h->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len - NLMSG_HDRLEN;
				if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
					parse_attrs(tb, NLMSGERR_ATTR_MAX + 1,
						    (char *)e + off,
						    h->nlmsg_len - NLMSG_HDRLEN - off);
					if (tb[NLMSGERR_ATTR_MSG])
						snprintf(nl->ext_msg, sizeof(nl->ext_msg),
							 "%s", a_str(tb[NLMSGERR_ATTR_MSG]));
					if (tb[NLMSGERR_ATTR_MISS_TYPE])
						nl->miss_type = a_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
				}
				return e->error;
			}
			if (h->nlmsg_type == nl->family && *n < max) {
				struct genlmsghdr *g = NLMSG_DATA(h);
				int plen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
				struct msg *m = &out[(*n)++];

				if (plen > (int)sizeof(m->buf))
					plen = sizeof(m->buf);
				m->cmd = g->cmd;
				memcpy(m->buf, (char *)g + GENL_HDRLEN, plen);
				parse_attrs(m->tb, 32, m->buf, plen);
				if (!(h->nlmsg_flags & NLM_F_MULTI))
					return 0;
			}
		}
	}
}

/* a request of @cmd; attributes are added with put_attr() */
static inline struct nlmsghdr *nl_req(char *buf, __u16 family, __u8 cmd, int dump)
{
	struct nlmsghdr *n = (void *)buf;
	struct genlmsghdr *g;

	memset(buf, 0, 512);
	n->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	n->nlmsg_type = family;
	n->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	g = NLMSG_DATA(n);
	g->cmd = cmd;
	g->version = 1;
	return n;
}

static inline int nl_open(struct nl *nl)
{
	char req[512];
	struct msg m;
	struct nlmsghdr *n;
	struct nlattr *grp, *tb[8];
	int one = 1, cnt, ret, left;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->family = GENL_ID_CTRL;
	n = nl_req(req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	put_attr(n, CTRL_ATTR_FAMILY_NAME, VPUX_FAMILY_NAME,
		 sizeof(VPUX_FAMILY_NAME));
	ret = nl_send(nl, n);
	if (!ret)
		ret = nl_recv(nl, &m, 1, &cnt);
	if (ret)
		return ret;
	if (cnt != 1 || !m.tb[CTRL_ATTR_FAMILY_ID])
		return -EPROTO;
	nl->family = *(__u16 *)((char *)m.tb[CTRL_ATTR_FAMILY_ID] + NLA_HDRLEN);
	grp = m.tb[CTRL_ATTR_MCAST_GROUPS];
	if (!grp)
		return 0;
	left = grp->nla_len - NLA_HDRLEN;
	for (grp = (void *)grp + NLA_HDRLEN; left >= NLA_HDRLEN;
	     left -= NLA_ALIGN(grp->nla_len), grp = (void *)grp + NLA_ALIGN(grp->nla_len)) {
		parse_attrs(tb, 8, (char *)grp + NLA_HDRLEN, grp->nla_len - NLA_HDRLEN);
		if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(a_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), VPUX_MCGRP_EVENTS))
			nl->events_grp = a_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return 0;
}

/* dev-get of accel minor @id (do), or of every device (@id < 0: dump) */
static inline int dev_get(struct nl *nl, int id, struct msg *out, int max, int *cnt)
{
	char req[512];
	struct nlmsghdr *n = nl_req(req, nl->family, VPUX_CMD_DEV_GET, id < 0);
	__u32 v = id;
	int ret;

	if (id >= 0)
		put_attr(n, VPUX_A_DEV_ID, &v, sizeof(v));
	ret = nl_send(nl, n);
	return ret ? ret : nl_recv(nl, out, max, cnt);
}

/* ctx-get of client @id on @dev (do), or a dump (@id 0; @dev < 0: all) */
static inline int ctx_get(struct nl *nl, int dev, __u64 id, struct msg *out, int max,
		   int *cnt)
{
	char req[512];
	struct nlmsghdr *n = nl_req(req, nl->family, VPUX_CMD_CTX_GET, !id);
	__u32 d = dev;
	int ret;

	if (dev >= 0)
		put_attr(n, VPUX_A_CTX_DEV_ID, &d, sizeof(d));
	if (id)
		put_attr(n, VPUX_A_CTX_ID, &id, sizeof(id));
	ret = nl_send(nl, n);
	return ret ? ret : nl_recv(nl, out, max, cnt);
}

/* a "key:\tvalue" number of /proc/self/fdinfo/@fd, or -1 */
static inline long long fdinfo(int fd, const char *key)
{
	char path[64], line[256];
	long long v = -1;
	size_t kl = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':')
			v = strtoll(line + kl + 1, NULL, 0);
	fclose(f);
	return v;
}

#endif /* VPUX_NL_H */

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * API 1.8: a pollable file descriptor per request, and several requests
 * submitted in one call (NVDLA's NvDlaSubmit(tasks, num_tasks)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "priv.h"

int vpux_request_poll_fd(struct vpux_request *r, int *fd)
{
	struct vpux_device *dev;

	if (fd)
		*fd = -1;
	if (!r || !fd)
		return vpux_err(VPUX_E_INVAL, "poll fd: NULL argument");
	if (!r->has_job)
		return vpux_err(VPUX_E_STATE, "poll fd: request not submitted");
	dev = r->net->dev;
	return dev->ops->job_fd(dev->priv, &r->job, fd);
}

/*
 * What vpux_request_submit() would refuse before it reaches the device:
 * a binding or symbol missing, or the last run still going
 */
static int precheck(struct vpux_request *r, unsigned int k)
{
	const struct vpux_network *net = r->net;
	struct vpux_request_status st;
	unsigned int s, ni = net->img.hdr.num_inputs;

	for (s = SLOT_IO; s < net->n_slots; s++)
		if (!r->list[s].bo)
			return vpux_err(VPUX_E_UNBOUND,
					"submit many: request %u: %s %u is not bound",
					k, s - SLOT_IO < ni ? "input" : "output",
					s - SLOT_IO < ni ? s - SLOT_IO :
					s - SLOT_IO - ni);
	for (s = 0; s < net->img.n_symbols; s++)
		if (!(r->sym_bound & (1u << s)))
			return vpux_err(VPUX_E_UNBOUND,
					"submit many: request %u: symbol '%s' is not bound",
					k, net->img.symbols[s].name);
	if (r->has_job &&
	    (net->dev->ops->status(net->dev->priv, &r->job, &st) ||
	     st.state == VPUX_REQ_RUNNING))
		return vpux_err(VPUX_E_STATE,
				"submit many: request %u is still running", k);
	return 0;
}

int vpux_request_submit_many(struct vpux_request *const *reqs, unsigned int n,
			     unsigned int *submitted)
{
	struct vpux_device *dev;
	unsigned int k, j;
	int ret;

	if (submitted)
		*submitted = 0;
	if (!reqs || !n)
		return vpux_err(VPUX_E_INVAL, "submit many: %s",
				reqs ? "no requests (n is 0)" : "NULL array");
	for (k = 0; k < n; k++)
		if (!reqs[k])
			return vpux_err(VPUX_E_INVAL,
					"submit many: request %u is NULL", k);
	dev = reqs[0]->net->dev;
	for (k = 0; k < n; k++) {
		if (reqs[k]->net->dev != dev)
			return vpux_err(VPUX_E_INVAL,
					"submit many: request %u is of another device than request 0",
					k);
		for (j = 0; j < k; j++)
			if (reqs[j] == reqs[k])
				return vpux_err(VPUX_E_INVAL,
						"submit many: request %u is request %u again",
						k, j);
	}
	for (k = 0; k < n; k++) {
		ret = precheck(reqs[k], k);
		if (ret)
			return ret;
	}
	for (k = 0; k < n; k++) {
		ret = vpux_request_submit(reqs[k]);
		if (ret) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%s", vpux_last_error());
			return vpux_err(ret,
					"submit many: request %u (%u of %u submitted): %s",
					k, k, n, msg);
		}
		if (submitted)
			*submitted = k + 1;
	}
	return 0;
}

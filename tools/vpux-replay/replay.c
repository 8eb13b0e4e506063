// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpux-replay: run a failed job again from its devcoredump, in-process.
 *
 *	vpux-replay [--json] [--timeout MS] [--width N] COREDUMP
 *
 * The dump's appendix (uapi/vpux/vpux_coredump.h) holds the job's
 * address list, the contents of its buffers (up to a cap), the ops'
 * cycles and the model's fault injection. vpux-replay maps every entry
 * at the device address it had, in a model of its own (the engine core
 * and the NPU model in this process, as libvpux's in-process backend
 * runs them), arms the same injection, submits the task memory and
 * compares the outcome with the dump's: the same core error for a task
 * or op the core refuses, the same faulting address for an MMU fault,
 * the same ops stuck for a hang. It prints both timelines up to the
 * failure. Exit status: 0 reproduced, 1 not reproduced, 2 the dump
 * cannot be replayed (unreadable, not a vpux dump, task memory cut).
 * Documentation/profiling.rst.
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dla_user.h"
#include "dump.h"
#include "hostconv.h"
#include "timeline.h"
#include "vpux_cli.h"
#include "vpux_hw_host.h"
#include "vpux_regs.h"

#define PAGE		4096ull

static const char *const status_name[] = {
	"?", "DONE", "ERROR", "MMU_FAULT", "TIMEOUT", "ABORTED",
};
static const char *const kinds[3] = { "dma", "dpu", "shave" };

static const char *st_name(uint32_t s)
{
	return s < 6 ? status_name[s] : "?";
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vpux-replay [-j] [-t MS] [-w N] COREDUMP\n"
		"Run the job of a vpux_accel devcoredump (/sys/class/devcoredump/devcdN/data,\n"
		"saved to a file) again in-process and check that it fails the same way.\n"
		"  -j, --json        print the outcome as JSON\n"
		"  -t, --timeout MS  how long the replayed job may run before it counts as hung (2000)\n"
		"  -w, --width N     columns of the timelines (64)\n"
		"  -h, --help        print this help and exit\n"
		"      --version     print the version and exit\n"
		"Exit status: 0 reproduced, 1 not reproduced, 2 usage error, 3 cannot replay.\n");
}

/* a page range of the device's address space */
struct range {
	uint64_t lo, hi;	/* page aligned, [lo, hi) */
	uint64_t pa;
	int writable;
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* op @i (DMA, DPU, SHAVE order) as "dpu#0" */
static void op_name(const uint32_t count[3], uint32_t i, char *b, size_t n)
{
	uint32_t k;

	for (k = 0; k < 3 && i >= count[k]; k++)
		i -= count[k];
	snprintf(b, n, "%s#%u", k < 3 ? kinds[k] : "op", i);
}

/* the ops that started and did not complete, as a string */
static void stuck_ops(const struct dla_op_time *t, uint32_t n,
		      const uint32_t count[3], char *b, size_t size)
{
	size_t len = 0;
	uint32_t i;

	b[0] = 0;
	for (i = 0; i < n && len + 16 < size; i++) {
		char nm[24];

		if (t[i].engine == DLA_OP_NOT_RUN || t[i].done)
			continue;
		op_name(count, i, nm, sizeof(nm));
		len += (size_t)snprintf(b + len, size - len, "%s%s",
					len ? "," : "", nm);
	}
}

static void fill_run(struct tl_run *r, const char *name,
		     const struct dla_op_time *t, const uint32_t *cyc,
		     const uint32_t count[3])
{
	uint32_t k, i, at = 0;

	snprintf(r->name, sizeof(r->name), "%s", name);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < count[k]; i++, at++) {
			struct tl_op *o = &r->ops[at];

			memset(o, 0, sizeof(*o));
			o->kind = k;
			o->index = i;
			o->cycles = cyc[at];
			o->t.engine = t[at].engine;
			o->t.done = t[at].done;
			o->t.start = t[at].start;
			o->t.end = t[at].end;
		}
	}
	r->n = at;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, VPUX_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int json = 0, timeout = 2000, width = 64, c, ret = 3, h = -1, hung = 0;
	int reproduced = 0;
	struct dla_user_buf list[VPUX_DUMP_MAX_ENTRIES];
	struct range rg[VPUX_DUMP_MAX_ENTRIES];
	struct dla_op_time *rt = NULL, *ot = NULL;
	struct dla_task_status st;
	struct vpux_host_dev *hw = NULL;
	struct vpux_host_vm *vm = NULL;
	struct dla_user_dev *dev = NULL;
	uint32_t *rcyc = NULL, *ocyc = NULL, count[3], i, n_rg = 0, e, engines;
	uint64_t need = 16ull << 20;
	char err[256], what[256] = "", stuck_o[512] = "", stuck_r[512] = "";
	struct vpux_dump *d = NULL;
	void *buf = NULL;
	size_t size = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jt:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 't':
			timeout = atoi(optarg);
			break;
		case 'w':
			width = atoi(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case VPUX_OPT_VERSION:
			vpux_cli_version("vpux-replay");
			return VPUX_EXIT_OK;
		default:
			vpux_cli_bad_option("vpux-replay", c, argv);
			usage(stderr);
			return VPUX_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || timeout < 1 || width < 8) {
		vpux_cli_err("vpux-replay", optind != argc - 1 ?
			     "one devcoredump file needed" :
			     "--timeout must be >= 1 and --width >= 8");
		usage(stderr);
		return VPUX_EXIT_USAGE;
	}
	/* a devcoredump's data file reports size 0: read to the end */
	if (hc_read_file(argv[optind], SIZE_MAX / 2, &buf, &size)) {
		fprintf(stderr, "vpux-replay: %s\n", vpux_last_error());
		goto out;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		fprintf(stderr, "vpux-replay: out of memory\n");
		goto out;
	}
	if (vpux_dump_parse(buf, size, d, err, sizeof(err))) {
		fprintf(stderr, "vpux-replay: %s: %s\n", argv[optind], err);
		goto out;
	}
	memcpy(count, d->h.op_count, sizeof(count));
	if (d->ent[0].dumped < d->ent[0].size) {
		fprintf(stderr, "vpux-replay: cannot replay: the task memory (entry 0) holds %llu of its %llu bytes in the dump (the dump's cap is %u bytes)\n",
			(unsigned long long)d->ent[0].dumped,
			(unsigned long long)d->ent[0].size, d->h.cap);
		goto out;
	}
	if (!json)
		printf("dump: job %llu %s, sys_error %d, core_error %u, fail_op %#x, fault_addr %#llx, %u entries\n",
		       (unsigned long long)d->h.seqno, st_name(d->h.status),
		       d->h.sys_error, d->h.core_error, d->h.fail_op,
		       (unsigned long long)d->h.fault_addr, d->n);
	for (e = 0; e < d->n; e++)
		if (d->ent[e].flags & VPUX_DUMP_ENTRY_TRUNCATED)
			fprintf(json ? stderr : stdout,
				"dump: entry %u holds %llu of its %llu bytes: truncated at the dump's cap of %u bytes; the replay runs with the rest zero, so a failure that depends on those bytes may not reproduce\n",
				e, (unsigned long long)d->ent[e].dumped,
				(unsigned long long)d->ent[e].size, d->h.cap);

	/* the entries' pages, merged, mapped at the addresses they had */
	for (e = 0; e < d->n; e++) {
		rg[e].lo = d->ent[e].addr & ~(PAGE - 1);
		rg[e].hi = (d->ent[e].addr + d->ent[e].size + PAGE - 1) &
			   ~(PAGE - 1);
		rg[e].writable = !(d->ent[e].flags & VPUX_DUMP_ENTRY_READONLY);
	}
	qsort(rg, d->n, sizeof(rg[0]), cmp_range);
	for (e = 0; e < d->n; e++) {
		if (n_rg && rg[e].lo <= rg[n_rg - 1].hi) {
			if (rg[e].hi > rg[n_rg - 1].hi)
				rg[n_rg - 1].hi = rg[e].hi;
			rg[n_rg - 1].writable |= rg[e].writable;
		} else {
			rg[n_rg++] = rg[e];
		}
	}
	for (i = 0; i < n_rg; i++)
		need += rg[i].hi - rg[i].lo;
	if (need > (8ull << 30)) {
		fprintf(stderr, "vpux-replay: the job's buffers span %llu MiB: too much to replay here\n",
			(unsigned long long)(need >> 20));
		goto out;
	}
	hw = vpux_host_dev_create((size_t)need);
	vm = hw ? vpux_host_vm_create(hw, 0) : NULL;
	if (!vm) {
		fprintf(stderr, "vpux-replay: cannot create the model device\n");
		goto out;
	}
	engines = vpux_host_reg_read(hw, VPUX_REG_ENGINES);
	if ((engines & 0xff) != d->h.engines[0] ||
	    (engines >> 8 & 0xff) != d->h.engines[1] ||
	    (engines >> 16 & 0xff) != d->h.engines[2])
		fprintf(stderr, "vpux-replay: warning: the dump's device has %u/%u/%u DMA/DPU/SHAVE engines, the model here %u/%u/%u\n",
			d->h.engines[0], d->h.engines[1], d->h.engines[2],
			engines & 0xff, engines >> 8 & 0xff, engines >> 16 & 0xff);
	for (i = 0; i < n_rg; i++) {
		if (vpux_host_phys_alloc(hw, (size_t)(rg[i].hi - rg[i].lo),
					 &rg[i].pa) ||
		    vpux_host_vm_map(vm, rg[i].lo, rg[i].pa,
				     (size_t)(rg[i].hi - rg[i].lo),
				     rg[i].writable)) {
			fprintf(stderr, "vpux-replay: cannot map %#llx..%#llx in the model\n",
				(unsigned long long)rg[i].lo,
				(unsigned long long)rg[i].hi);
			goto out;
		}
	}
	for (e = 0; e < d->n; e++) {
		for (i = 0; i < n_rg; i++)
			if (d->ent[e].addr >= rg[i].lo &&
			    d->ent[e].addr < rg[i].hi)
				break;
		list[e].va = d->ent[e].addr;
		list[e].size = d->ent[e].size;
		/* as the kernel told the core: a read-only BO stays one */
		list[e].flags = d->ent[e].flags & VPUX_DUMP_ENTRY_READONLY ?
				DLA_USER_BUF_READONLY : 0;
		list[e].cpu = (char *)vpux_host_phys_ptr(hw, rg[i].pa,
				(size_t)(rg[i].hi - rg[i].lo)) +
			      (d->ent[e].addr - rg[i].lo);
		memcpy(list[e].cpu, d->data[e], (size_t)d->ent[e].dumped);
	}
	dev = dla_user_create_host(hw, 0);
	if (!dev) {
		fprintf(stderr, "vpux-replay: cannot start the engine core\n");
		goto out;
	}
	/* the model's fault state as the job started */
	if (d->h.inject) {
		vpux_host_reg_write(hw, VPUX_REG_INJECT_ARG, d->h.inject_arg);
		vpux_host_reg_write(hw, VPUX_REG_INJECT, d->h.inject);
	}
	h = dla_user_submit(dev, list, d->n, 0,
			    d->h.priority < 4 ? d->h.priority : 1);
	memset(&st, 0, sizeof(st));
	if (h < 0) {
		snprintf(what, sizeof(what), "the engine core refused the task: core error %d", -h);
		reproduced = (d->h.flags & VPUX_DUMP_REFUSED) &&
			     d->h.status == 2 && d->h.core_error == (uint32_t)-h;
		ret = reproduced ? 0 : 1;
		goto report;
	}
	hung = dla_user_wait(dev, h, timeout) == -DLA_ERR_RUNNING;
	dla_user_status(dev, h, &st);
	if (count[0] + count[1] + count[2] != st.ops_total) {
		/* a refused task has no counts in the dump: ask the core */
		for (i = 0; i < 3; i++) {
			uint32_t cyc;

			count[i] = 0;
			while (!dla_user_op_cycles(dev, h, i, count[i], &cyc))
				count[i]++;
		}
	}
	{
		uint32_t n = count[0] + count[1] + count[2], at = 0, k, j;

		rt = calloc(n + 1, sizeof(*rt));
		ot = calloc(n + 1, sizeof(*ot));
		rcyc = calloc(n + 1, sizeof(*rcyc));
		ocyc = calloc(n + 1, sizeof(*ocyc));
		if (!rt || !ot || !rcyc || !ocyc)
			goto out;
		for (k = 0; k < 3; k++)
			for (j = 0; j < count[k]; j++)
				dla_user_op_cycles(dev, h, k, j, &rcyc[at++]);
		/* aborts a hung job: its stuck ops stay stuck */
		if (dla_user_op_times(dev, h, rt, n) < 0)
			goto out;
		for (i = 0; i < n && i < d->n_ops; i++)
			ocyc[i] = vpux_dump_op_cycles(d, i);
		if (d->n_ops == n)
			dla_user_op_times_with(dev, h, ocyc, ot, n);
		stuck_ops(rt, n, count, stuck_r, sizeof(stuck_r));
		stuck_ops(ot, n, count, stuck_o, sizeof(stuck_o));
		if (hung) {
			snprintf(what, sizeof(what), "hung: %s did not complete within %d ms (the dump's job: %s)",
				 stuck_r[0] ? stuck_r : "no op", timeout,
				 stuck_o[0] ? stuck_o : "no op");
			reproduced = d->h.status == 4 && stuck_r[0] &&
				     (d->n_ops != n || !strcmp(stuck_r, stuck_o));
		} else if (st.state == DLA_TASK_FAILED &&
			   st.error == -DLA_ERR_MMU_FAULT) {
			char nm[24];

			op_name(count, st.fail_index + (st.fail_kind > 0 ? count[0] : 0) +
				(st.fail_kind > 1 ? count[1] : 0), nm, sizeof(nm));
			snprintf(what, sizeof(what), "MMU fault at %#llx (%s)",
				 (unsigned long long)st.fault_addr, nm);
			reproduced = d->h.status == 3 &&
				     st.fault_addr == d->h.fault_addr;
		} else if (st.state == DLA_TASK_FAILED) {
			snprintf(what, sizeof(what), "failed: core error %d, op %s#%u",
				 -st.error, st.fail_kind < 3 ? kinds[st.fail_kind] : "?",
				 st.fail_index);
			reproduced = d->h.status == 2 &&
				     d->h.core_error == (uint32_t)-st.error &&
				     d->h.fail_op == (st.fail_kind << 24 |
						      (st.fail_index & 0xffffff));
		} else {
			snprintf(what, sizeof(what), "completed (%u ops)", st.ops_done);
			reproduced = d->h.status == 1;
		}
		ret = reproduced ? 0 : 1;
		if (!json) {
			struct tl_run r;

			r.ops = calloc(n + 1, sizeof(*r.ops));
			if (r.ops && d->n_ops == n) {
				fill_run(&r, "the dump's run", ot, ocyc, count);
				tl_print(stdout, &r, d->h.engines, (unsigned int)width);
			}
			if (r.ops) {
				fill_run(&r, "the replay", rt, rcyc, count);
				tl_print(stdout, &r, d->h.engines, (unsigned int)width);
			}
			free(r.ops);
		}
	}
report:
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "dump_status", json_object_new_string(st_name(d->h.status)));
		json_object_object_add(o, "dump_core_error", json_object_new_int64(d->h.core_error));
		json_object_object_add(o, "dump_fault_addr", json_object_new_int64((int64_t)d->h.fault_addr));
		json_object_object_add(o, "dump_stuck", json_object_new_string(stuck_o));
		json_object_object_add(o, "truncated", json_object_new_boolean(d->h.flags & VPUX_DUMP_TRUNCATED));
		json_object_object_add(o, "replay", json_object_new_string(what));
		json_object_object_add(o, "replay_fault_addr", json_object_new_int64((int64_t)st.fault_addr));
		json_object_object_add(o, "replay_core_error", json_object_new_int64(h < 0 ? -h : -st.error));
		json_object_object_add(o, "replay_stuck", json_object_new_string(stuck_r));
		json_object_object_add(o, "reproduced", json_object_new_boolean(reproduced));
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	} else {
		printf("replay: %s: %s\n", what,
		       reproduced ? "reproduced" : "NOT reproduced");
	}
out:
	if (dev) {
		if (h >= 0)
			dla_user_release(dev, h);
		dla_user_destroy(dev);
	}
	if (vm)
		vpux_host_vm_destroy(vm);
	if (hw)
		vpux_host_dev_destroy(hw);
	free(rt);
	free(ot);
	free(rcyc);
	free(ocyc);
	free(d);
	free(buf);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Timelines of a request's run: the Chrome trace-event JSON file and the
 * terminal bar chart (timeline.h, Documentation/profiling.rst).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

static const char *const kind_name[3] = { "dma", "dpu", "shave" };

/* the name of the tensor @o writes (struct tl_op's @output) */
static const char *tl_output(const struct tl_op *o)
{
	return o->output ? o->output : o->info.output;
}
static const char *const kind_upper[3] = { "DMA", "DPU", "SHAVE" };

/*
 * The full name of the tensor @short names when it is an output or an
 * input (found by its full or short name), else @short itself.
 */
static const char *full_name(const struct vpux_network *net,
			     const char *short_name)
{
	unsigned int n, i;
	struct vpux_tensor_desc d;
	const char *full;
	int out;

	/* walk the descriptors: a failed lookup would set the last error */
	for (out = 1; out >= 0; out--) {
		n = out ? vpux_network_num_outputs(net) :
			  vpux_network_num_inputs(net);
		for (i = 0; short_name[0] && i < n; i++) {
			if (out ? vpux_network_output(net, i, &d) :
				  vpux_network_input(net, i, &d))
				continue;
			if (!strcmp(d.name, short_name) &&
			    !vpux_network_io_name(net, out, i, &full))
				return full;
		}
	}
	return short_name;
}

int tl_collect(struct vpux_network *net, struct vpux_request *req,
	       const char *name, struct tl_run *run)
{
	struct vpux_op_time *t;
	unsigned int k, i, n = 0, at = 0;
	int ret;

	memset(run, 0, sizeof(*run));
	snprintf(run->name, sizeof(run->name), "%s", name);
	for (k = 0; k < 3; k++)
		n += vpux_network_num_ops(net, k);
	run->ops = calloc(n ? n : 1, sizeof(*run->ops));
	t = calloc(n ? n : 1, sizeof(*t));
	if (!run->ops || !t) {
		free(t);
		tl_run_free(run);
		return VPUX_E_NOMEM;
	}
	run->n = n;
	ret = vpux_request_op_times(req, t, n);
	for (k = 0; !ret && k < 3; k++) {
		for (i = 0; !ret && i < vpux_network_num_ops(net, k); i++, at++) {
			struct tl_op *o = &run->ops[at];

			o->kind = k;
			o->index = i;
			o->t = t[at];
			ret = vpux_network_op_info(net, k, i, &o->info);
			if (!ret)
				o->output = full_name(net, o->info.output);
			if (!ret)
				ret = vpux_request_op_cycles(req, k, i,
							     &o->cycles);
		}
	}
	free(t);
	if (ret)
		tl_run_free(run);
	return ret;
}

void tl_run_free(struct tl_run *run)
{
	free(run->ops);
	run->ops = NULL;
	run->n = 0;
}

void tl_engine_name(const uint32_t engines[3], uint32_t g, char *buf,
		    size_t size)
{
	uint32_t k;

	for (k = 0; k < 3; k++) {
		if (g < engines[k]) {
			snprintf(buf, size, "%s%u", kind_upper[k], g);
			return;
		}
		g -= engines[k];
	}
	snprintf(buf, size, "ENGINE%u", g);
}

/* "dpu#1 conv c1": kind, index, type and the tensor it writes */
static void op_label(const struct tl_op *o, char *buf, size_t size)
{
	snprintf(buf, size, "%s#%u %s%s%s", kind_name[o->kind], o->index,
		 o->info.type, tl_output(o)[0] ? " " : "", tl_output(o));
}

/* microseconds for a cycle count: 1 cycle is 1 ns on the trace's axis */
static json_object *us(uint64_t cycles)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu.%03u", (unsigned long long)(cycles / 1000),
		 (unsigned int)(cycles % 1000));
	return json_object_new_double_s((double)cycles / 1000.0, b);
}

static json_object *meta(const char *what, int pid, int tid, const char *key,
			 json_object *val)
{
	json_object *e = json_object_new_object(), *a = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(what));
	json_object_object_add(e, "ph", json_object_new_string("M"));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(a, key, val);
	json_object_object_add(e, "args", a);
	return e;
}

/* the end of the chart/trace: the last cycle any op reached */
static uint64_t run_span(const struct tl_run *r)
{
	uint64_t span = 0;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		if (r->ops[i].t.engine == VPUX_OP_NOT_RUN)
			continue;
		if (r->ops[i].t.end > span)
			span = r->ops[i].t.end;
		if (!r->ops[i].t.done && r->ops[i].t.start + 1 > span)
			span = r->ops[i].t.start + 1;
	}
	return span ? span : 1;
}

static json_object *flow(const char *ph, const char *name, unsigned long id,
			 int pid, int tid, uint64_t ts)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "cat", json_object_new_string("barrier"));
	json_object_object_add(e, "ph", json_object_new_string(ph));
	if (ph[0] == 'f')
		json_object_object_add(e, "bp", json_object_new_string("e"));
	json_object_object_add(e, "id", json_object_new_int64((int64_t)id));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_object_add(e, "ts", us(ts));
	return e;
}

/* producer -> consumer arrows for every barrier edge between started ops */
static void add_flows(json_object *ev, const struct tl_run *r, int pid,
		      unsigned long *flow_id)
{
	unsigned int *first, *cons, p, w, u, j;
	const unsigned int nb = 65536;

	first = calloc(nb + 1, sizeof(*first));
	cons = calloc(r->n * 8 + 1, sizeof(*cons));
	if (!first || !cons)
		goto out;
	/* the consumers of each barrier, by barrier (counting sort) */
	for (p = 0; p < r->n; p++)
		for (w = 0; w < r->ops[p].info.num_waits && w < 8; w++)
			first[r->ops[p].info.waits[w] + 1]++;
	for (j = 0; j < nb; j++)
		first[j + 1] += first[j];
	for (p = 0; p < r->n; p++)
		for (w = 0; w < r->ops[p].info.num_waits && w < 8; w++)
			cons[first[r->ops[p].info.waits[w]]++] = p;
	for (j = nb; j > 0; j--)
		first[j] = first[j - 1];
	first[0] = 0;
	for (p = 0; p < r->n; p++) {
		const struct tl_op *po = &r->ops[p];

		if (po->t.engine == VPUX_OP_NOT_RUN || !po->t.done)
			continue;
		for (u = 0; u < po->info.num_updates && u < 8; u++) {
			uint16_t b = po->info.updates[u];

			for (j = first[b]; j < first[b + 1]; j++) {
				const struct tl_op *co = &r->ops[cons[j]];
				char name[32];

				if (co->t.engine == VPUX_OP_NOT_RUN)
					continue;
				if (*flow_id > 200000)
					goto out;	/* enough arrows to see */
				snprintf(name, sizeof(name), "barrier %u", b);
				json_object_array_add(ev, flow("s", name, *flow_id, pid,
							       (int)po->t.engine + 1,
							       po->t.start));
				json_object_array_add(ev, flow("f", name, *flow_id, pid,
							       (int)co->t.engine + 1,
							       co->t.start));
				(*flow_id)++;
			}
		}
	}
out:
	free(first);
	free(cons);
}

int tl_write_trace(FILE *f, const struct tl_run *runs, unsigned int n,
		   const uint32_t engines[3])
{
	json_object *doc = json_object_new_object(), *ev = json_object_new_array();
	json_object *other = json_object_new_object();
	uint32_t n_eng = engines[0] + engines[1] + engines[2], g;
	unsigned long flow_id = 1;
	unsigned int r, i;
	const char *s;
	int ret = 0;

	for (r = 0; r < n; r++) {
		const struct tl_run *run = &runs[r];
		int pid = (int)r + 1;
		uint64_t span = run_span(run);

		json_object_array_add(ev, meta("process_name", pid, 0, "name",
					       json_object_new_string(run->name)));
		json_object_array_add(ev, meta("process_sort_index", pid, 0,
					       "sort_index",
					       json_object_new_int(pid)));
		for (g = 0; g < n_eng; g++) {
			char en[16];

			tl_engine_name(engines, g, en, sizeof(en));
			json_object_array_add(ev, meta("thread_name", pid,
						       (int)g + 1, "name",
						       json_object_new_string(en)));
			json_object_array_add(ev, meta("thread_sort_index", pid,
						       (int)g + 1, "sort_index",
						       json_object_new_int((int)g)));
		}
		for (i = 0; i < run->n; i++) {
			const struct tl_op *o = &run->ops[i];
			json_object *e, *a;
			char label[96];

			if (o->t.engine == VPUX_OP_NOT_RUN)
				continue;
			op_label(o, label, sizeof(label));
			if (!o->t.done)
				strncat(label, " (did not complete)",
					sizeof(label) - strlen(label) - 1);
			e = json_object_new_object();
			a = json_object_new_object();
			json_object_object_add(e, "name", json_object_new_string(label));
			json_object_object_add(e, "cat", json_object_new_string(kind_name[o->kind]));
			json_object_object_add(e, "ph", json_object_new_string("X"));
			json_object_object_add(e, "pid", json_object_new_int(pid));
			json_object_object_add(e, "tid", json_object_new_int((int)o->t.engine + 1));
			json_object_object_add(e, "ts", us(o->t.start));
			json_object_object_add(e, "dur", us(o->t.done ?
							    o->t.end - o->t.start :
							    span - o->t.start));
			json_object_object_add(a, "kind", json_object_new_string(kind_name[o->kind]));
			json_object_object_add(a, "index", json_object_new_int((int)o->index));
			json_object_object_add(a, "type", json_object_new_string(o->info.type));
			json_object_object_add(a, "output", json_object_new_string(tl_output(o)));
			json_object_object_add(a, "bytes", json_object_new_int64((int64_t)o->info.bytes));
			json_object_object_add(a, "macs", json_object_new_int64((int64_t)o->info.macs));
			json_object_object_add(a, "cycles", json_object_new_int64(o->cycles));
			json_object_object_add(a, "start_cycle", json_object_new_int64((int64_t)o->t.start));
			json_object_object_add(a, "end_cycle", json_object_new_int64((int64_t)o->t.end));
			json_object_object_add(a, "completed", json_object_new_boolean(o->t.done));
			json_object_object_add(e, "args", a);
			json_object_array_add(ev, e);
		}
		add_flows(ev, run, pid, &flow_id);
	}
	json_object_object_add(doc, "traceEvents", ev);
	json_object_object_add(doc, "displayTimeUnit", json_object_new_string("ns"));
	json_object_object_add(other, "time_unit",
			       json_object_new_string("1 ns on the time axis = 1 device cycle"));
	json_object_object_add(other, "generator", json_object_new_string("vpux"));
	json_object_object_add(doc, "otherData", other);
	s = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	if (fputs(s, f) < 0 || fputc('\n', f) < 0)
		ret = -1;
	json_object_put(doc);
	if (!ret && fflush(f))
		ret = -1;
	if (ret && !errno)
		errno = EIO;
	return ret;
}

static char op_char(const struct tl_op *o)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	if (!o->t.done)
		return '!';
	return digits[o->index % 36];
}

void tl_print(FILE *f, const struct tl_run *run, const uint32_t engines[3],
	      unsigned int width)
{
	uint32_t n_eng = engines[0] + engines[1] + engines[2], g;
	uint64_t span = run_span(run);
	char *row;
	unsigned int c, i;

	if (width < 8)
		width = 8;
	row = malloc(width + 1);
	if (!row)
		return;
	fprintf(f, "%s: %llu cycles, 1 column = %.1f cycles\n", run->name,
		(unsigned long long)span, (double)span / width);
	for (g = 0; g < n_eng; g++) {
		uint64_t busy = 0;
		char en[16];

		tl_engine_name(engines, g, en, sizeof(en));
		for (c = 0; c < width; c++) {
			uint64_t lo = span * c / width, hi = span * (c + 1) / width;
			uint64_t best = 0;

			if (hi <= lo)
				hi = lo + 1;
			row[c] = '.';
			for (i = 0; i < run->n; i++) {
				const struct tl_op *o = &run->ops[i];
				uint64_t s = o->t.start;
				uint64_t e = o->t.done ? o->t.end : span;
				uint64_t ov;

				if (o->t.engine != g || e <= lo || s >= hi)
					continue;
				ov = (e < hi ? e : hi) - (s > lo ? s : lo);
				if (ov > best) {
					best = ov;
					row[c] = op_char(o);
				}
			}
		}
		row[width] = 0;
		for (i = 0; i < run->n; i++)
			if (run->ops[i].t.engine == g)
				busy += (run->ops[i].t.done ? run->ops[i].t.end :
					 span) - run->ops[i].t.start;
		fprintf(f, "%-7s|%s| %3u%% busy\n", en, row,
			(unsigned int)(busy * 100 / span));
	}
	free(row);
	fprintf(f, "ops (column letters are the op's index in its kind, base 36; '!' did not complete):\n");
	for (i = 0; i < run->n && i < 48; i++) {
		const struct tl_op *o = &run->ops[i];
		char label[96], en[16];

		op_label(o, label, sizeof(label));
		if (o->t.engine == VPUX_OP_NOT_RUN) {
			fprintf(f, "  %-28s not run\n", label);
			continue;
		}
		tl_engine_name(engines, o->t.engine, en, sizeof(en));
		if (o->t.done)
			fprintf(f, "  %-28s %-6s %8llu .. %8llu  (%u cycles)\n",
				label, en, (unsigned long long)o->t.start,
				(unsigned long long)o->t.end, o->cycles);
		else
			fprintf(f, "  %-28s %-6s %8llu .. (did not complete)\n",
				label, en, (unsigned long long)o->t.start);
	}
	if (run->n > 48)
		fprintf(f, "  ... %u more ops\n", run->n - 48);
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The devcoredump parser of vpux-replay (dump.h). Untrusted input: a
 * dump file may be anything, so every field is checked before it is used
 * (fuzzed by umd/tests/fuzz/fuzz_coredump.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* @n rounded up to 8, or 0 on overflow */
static uint64_t pad8(uint64_t n)
{
	return n > UINT64_MAX - 7 ? 0 : (n + 7) & ~7ull;
}

uint32_t vpux_dump_op_cycles(const struct vpux_dump *d, uint32_t i)
{
	return i < d->n_ops ? le32(d->cycles + 4ull * i) : 0;
}

int vpux_dump_parse(const void *buf, size_t size, struct vpux_dump *d,
		    char *err, size_t errlen)
{
	const uint8_t *b = buf, *nul, *p;
	uint64_t off, hsize, esize, ops;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	nul = memchr(b, 0, size);
	if (!nul)
		return bad(err, errlen, "no binary appendix: the dump is text only (a kernel before vpux-replay, or not a vpux_accel dump)");
	d->text = (const char *)b;
	d->text_len = (size_t)(nul - b);
	off = pad8(d->text_len + 1);
	if (off > size || size - off < 32)
		return bad(err, errlen, "binary appendix: %zu bytes, too short for its header",
			   off > size ? 0 : (size_t)(size - off));
	p = b + off;
	if (memcmp(p, VPUX_DUMP_MAGIC, 8))
		return bad(err, errlen, "binary appendix at offset %llu: magic is not \"%s\"",
			   (unsigned long long)off, VPUX_DUMP_MAGIC);
	d->h.version = le32(p + 8);
	hsize = le32(p + 12);
	esize = le32(p + 16);
	d->n = le32(p + 20);
	if (d->h.version != VPUX_DUMP_VERSION)
		return bad(err, errlen, "appendix version %u, this reader knows %u",
			   d->h.version, VPUX_DUMP_VERSION);
	if (hsize < sizeof(struct vpux_dump_header) || hsize % 8 ||
	    esize < sizeof(struct vpux_dump_entry) || esize % 8)
		return bad(err, errlen, "appendix header size %llu or entry size %llu too small or not a multiple of 8",
			   (unsigned long long)hsize, (unsigned long long)esize);
	if (!d->n || d->n > VPUX_DUMP_MAX_ENTRIES)
		return bad(err, errlen, "%u address-list entries (1..%u)", d->n,
			   VPUX_DUMP_MAX_ENTRIES);
	if (hsize > size - off)
		return bad(err, errlen, "appendix header of %llu bytes past the end",
			   (unsigned long long)hsize);
	memcpy(d->h.magic, p, 8);
	d->h.header_size = (uint32_t)hsize;
	d->h.entry_size = (uint32_t)esize;
	d->h.n_entries = d->n;
	d->h.flags = le32(p + 24);
	d->h.cap = le32(p + 28);
	d->h.status = le32(p + 32);
	d->h.sys_error = (int32_t)le32(p + 36);
	d->h.core_error = le32(p + 40);
	d->h.fail_op = le32(p + 44);
	d->h.fault_addr = le64(p + 48);
	d->h.inject = le32(p + 56);
	d->h.inject_arg = le32(p + 60);
	d->h.priority = le32(p + 64);
	for (i = 0; i < 3; i++)
		d->h.engines[i] = le32(p + 68 + 4 * i);
	d->h.seqno = le64(p + 80);
	d->h.ops_done = le32(p + 88);
	d->h.ops_total = le32(p + 92);
	ops = 0;
	for (i = 0; i < 3; i++) {
		d->h.op_count[i] = le32(p + 96 + 4 * i);
		ops += d->h.op_count[i];
	}
	if (ops > VPUX_DUMP_MAX_OPS)
		return bad(err, errlen, "%llu ops (at most %u)",
			   (unsigned long long)ops, VPUX_DUMP_MAX_OPS);
	d->n_ops = (uint32_t)ops;
	off += hsize;
	if ((uint64_t)d->n * esize > size - off)
		return bad(err, errlen, "entry table of %u entries past the end", d->n);
	for (i = 0; i < d->n; i++, off += esize) {
		struct vpux_dump_entry *e = &d->ent[i];

		p = b + off;
		e->addr = le64(p);
		e->size = le64(p + 8);
		e->dumped = le64(p + 16);
		e->flags = le32(p + 24);
		if (!e->size || e->dumped > e->size ||
		    e->addr + e->size < e->addr ||
		    !!(e->flags & VPUX_DUMP_ENTRY_TRUNCATED) !=
		    (e->dumped < e->size))
			return bad(err, errlen, "entry %u: addr %#llx size %llu dumped %llu flags %#x inconsistent",
				   i, (unsigned long long)e->addr,
				   (unsigned long long)e->size,
				   (unsigned long long)e->dumped, e->flags);
	}
	if (4ull * d->n_ops > size - off)
		return bad(err, errlen, "op cycles of %u ops past the end", d->n_ops);
	d->cycles = b + off;
	off += pad8(4ull * d->n_ops);
	for (i = 0; i < d->n; i++) {
		uint64_t len = pad8(d->ent[i].dumped);

		if (off > size || d->ent[i].dumped > size - off ||
		    (d->ent[i].dumped && !len))
			return bad(err, errlen, "entry %u: %llu dumped bytes past the end of the dump",
				   i, (unsigned long long)d->ent[i].dumped);
		d->data[i] = b + off;
		off += len;
	}
	return 0;
}

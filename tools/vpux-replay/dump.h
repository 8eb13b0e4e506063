/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Reading a vpux_accel devcoredump (uapi/vpux/vpux_coredump.h): the text
 * report and the binary appendix vpux-replay runs the job again from.
 */
#ifndef VPUX_REPLAY_DUMP_H
#define VPUX_REPLAY_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "vpux_coredump.h"

#define VPUX_DUMP_MAX_ENTRIES	64u
#define VPUX_DUMP_MAX_OPS	(1u << 20)

struct vpux_dump {
	const char *text;		/* the text report, NUL-terminated */
	size_t text_len;
	struct vpux_dump_header h;	/* the fields this reader knows */
	uint32_t n;			/* entries */
	struct vpux_dump_entry ent[VPUX_DUMP_MAX_ENTRIES];
	const uint8_t *data[VPUX_DUMP_MAX_ENTRIES];	/* ent[i].dumped bytes */
	uint32_t n_ops;			/* op_count[0] + [1] + [2] */
	const uint8_t *cycles;		/* n_ops little-endian u32 */
};

/*
 * Parse a dump of @size bytes at @buf (which must outlive @d): every
 * size, count and offset is checked against the buffer before use.
 * Return: 0, or -1 with a message naming the problem in @err.
 */
int vpux_dump_parse(const void *buf, size_t size, struct vpux_dump *d,
		    char *err, size_t errlen);

/* op @i's cycles from the dump (0 <= @i < d->n_ops) */
uint32_t vpux_dump_op_cycles(const struct vpux_dump *d, uint32_t i);

#endif /* VPUX_REPLAY_DUMP_H */

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of vpux-replay's devcoredump parser
 * (tools/vpux-replay/dump.c): whatever the bytes, the parser either
 * refuses them or hands back entries whose data lies inside the input.
 * The seed (written into the first corpus directory by
 * LLVMFuzzerInitialize) is a well-formed dump of a three-entry job, so
 * mutations start past the magic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

static size_t seed(uint8_t *b, size_t cap)
{
	static const char text[] = "vpux job report\nstatus MMU_FAULT\n";
	struct vpux_dump_header h;
	struct vpux_dump_entry e;
	size_t off = (sizeof(text) + 7) & ~(size_t)7, i;

	if (cap < 1024)
		return 0;
	memset(b, 0, cap);
	memcpy(b, text, sizeof(text));
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, VPUX_DUMP_MAGIC, 8);
	h.version = VPUX_DUMP_VERSION;
	h.header_size = sizeof(h);
	h.entry_size = sizeof(e);
	h.n_entries = 3;
	h.cap = VPUX_DUMP_DATA_CAP;
	h.status = 3;
	h.fault_addr = 0x100000000ull;
	h.op_count[0] = 1;
	h.engines[0] = h.engines[1] = h.engines[2] = 2;
	memcpy(b + off, &h, sizeof(h));
	off += sizeof(h);
	for (i = 0; i < 3; i++) {
		memset(&e, 0, sizeof(e));
		e.addr = 0x100000000ull + i * 0x10000;
		e.size = 64;
		e.dumped = i == 2 ? 32 : 64;
		e.flags = i == 2 ? VPUX_DUMP_ENTRY_TRUNCATED : 0;
		memcpy(b + off, &e, sizeof(e));
		off += sizeof(e);
	}
	off += 8;	/* one op's cycles, padded */
	return off + 64 + 64 + 32;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uint8_t b[1024];
	size_t n = seed(b, sizeof(b));
	int i;

	for (i = 1; i < *argc; i++) {
		char path[4096];
		FILE *f;

		if ((*argv)[i][0] == '-')
			continue;
		snprintf(path, sizeof(path), "%s/seed-dump", (*argv)[i]);
		f = fopen(path, "wb");
		if (f) {
			fwrite(b, 1, n, f);
			fclose(f);
		}
		break;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpux_dump *d = malloc(sizeof(*d));
	uint8_t *copy = malloc(size ? size : 1);
	char err[256];
	uint32_t i;

	if (!d || !copy)
		goto out;
	/* an exact-size heap copy: ASan sees any read past the end */
	memcpy(copy, data, size);
	if (!vpux_dump_parse(copy, size, d, err, sizeof(err))) {
		volatile uint8_t x = 0;

		for (i = 0; i < d->n; i++)
			if (d->ent[i].dumped)
				x ^= d->data[i][0] ^ d->data[i][d->ent[i].dumped - 1];
		for (i = 0; i < d->n_ops; i++)
			x ^= (uint8_t)vpux_dump_op_cycles(d, i);
		(void)x;
	} else if (!err[0]) {
		abort();	/* a refusal always says why */
	}
out:
	free(copy);
	free(d);
	return 0;
}

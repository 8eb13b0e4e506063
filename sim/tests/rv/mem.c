// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Loads and stores of every width and sign at every aligned offset, with
 * positive and negative displacements, then a dump of the memory written.
 */
#include "rvlib.h"

static u8 buf[256] __attribute__((aligned(16)));
static u32 words[64];

#define LD(op, off) ({ \
	u32 _r; \
	asm volatile(#op " %0, %2(%1)" : "=r"(_r) : "r"(p), "i"(off) \
		     : "memory"); \
	_r; })

#define ST(op, off, v) \
	asm volatile(#op " %0, %2(%1)" : : "r"(v), "r"(p), "i"(off) : "memory")

int main(void)
{
	u8 *p;
	u32 i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 37 + 0x81);

	/* every load at every offset of the middle, displacement +-16 */
	for (i = 32; i < 224; i++) {
		p = OPAQUE(buf + i);
		mix(LD(lb, 0));
		mix(LD(lbu, 0));
		mix(LD(lb, -16));
		mix(LD(lbu, 16));
		if (!(i & 1)) {
			mix(LD(lh, 0));
			mix(LD(lhu, 0));
			mix(LD(lh, -16));
			mix(LD(lhu, 16));
		}
		if (!(i & 3)) {
			mix(LD(lw, 0));
			mix(LD(lw, -32));
			mix(LD(lw, 28));
		}
	}
	out_kv("loads", sum);

	/* sign extension, explicitly */
	p = OPAQUE(buf);
	buf[0] = 0x80;
	buf[1] = 0xff;
	buf[2] = 0x7f;
	buf[3] = 0x00;
	out_kv("lb80", LD(lb, 0));
	out_kv("lbu80", LD(lbu, 0));
	out_kv("lhff80", LD(lh, 0));
	out_kv("lhuff80", LD(lhu, 0));
	out_kv("lw", LD(lw, 0));
	out_kv("lh7f", LD(lh, 2));

	/* stores of every width, then the words */
	for (i = 0; i < 64; i++) {
		p = OPAQUE((u8 *)words + (i & ~3u));
		switch (i & 3) {
		case 0:
			ST(sw, 0, i * 0x01010101u + 0x80000001u);
			break;
		case 1:
			ST(sb, 1, 0xabcd00u + i);
			ST(sb, -3, 0x5a);
			break;
		case 2:
			ST(sh, 2, 0xffff8000u + i);
			break;
		default:
			ST(sh, 0, 0x1234);
			ST(sb, 3, 0xfe);
			break;
		}
	}
	for (i = 0; i < 64; i++) {
		out_hex(words[i]);
		out_str((i & 7) == 7 ? "\n" : " ");
	}
	/* byte-granular stores leave the neighbours alone */
	p = OPAQUE(buf + 64);
	for (i = 0; i < 16; i++)
		buf[64 + i] = 0;
	ST(sb, 5, 0xfffffff1u);
	ST(sh, 10, 0x12345678u);
	ST(sw, 12, 0xdeadbeefu);
	for (i = 0; i < 16; i++)
		mix(buf[64 + i] << (i & 24));
	out_kv("stores", sum);
	return 0;
}

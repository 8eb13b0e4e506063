// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scratch placement: every tensor of the NPU program that lives in the
 * per-request scratch gets an offset. Views share their root's bytes.
 * A root lives from the first op that touches it to the last; roots whose
 * lifetimes do not overlap may share bytes (first fit over the live
 * blocks, 64-byte aligned). Reuse adds write-after-read dependencies,
 * which the assembler's implicit barriers derive from the byte ranges
 * (Documentation/vpux-asm.rst), so the schedule stays correct.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lower.h"

struct blk {
	uint64_t off, end;
	int last;
};

static int root_of(const struct qprog *p, int t)
{
	while (p->t[t].alias >= 0)
		t = p->t[t].alias;
	return t;
}

int vc_place(struct qprog *p)
{
	struct blk *live;
	unsigned int nlive = 0, i, k, j;
	int *order;

	for (i = 0; i < p->nt; i++) {
		p->t[i].def = -1;
		p->t[i].last = -1;
	}
	for (k = 0; k < p->nop; k++)
		for (j = 0; j < p->op[k].nt; j++) {
			struct qt *r = &p->t[root_of(p, p->op[k].t[j])];

			if (r->def < 0)
				r->def = (int)k;
			r->last = (int)k;
		}
	live = calloc(p->nt + 1, sizeof(*live));
	order = calloc(p->nt + 1, sizeof(*order));
	if (!live || !order) {
		free(live);
		free(order);
		return vpux_err(VPUX_E_NOMEM, "compiler: out of memory");
	}
	/* roots in scratch, by first use (stable: by index within an op) */
	for (i = 0, j = 0; i < p->nt; i++)
		if (p->t[i].alias < 0 && p->t[i].region == QR_SCRATCH &&
		    p->t[i].def >= 0)
			order[j++] = (int)i;
	for (i = 1; i < j; i++) {
		int x = order[i];

		for (k = i; k > 0 && p->t[order[k - 1]].def > p->t[x].def; k--)
			order[k] = order[k - 1];
		order[k] = x;
	}
	p->scratch_size = 0;
	for (i = 0; i < j; i++) {
		struct qt *t = &p->t[order[i]];
		uint64_t off = 0, size = (t->size + 63) & ~63ull;
		int moved = 1;

		/*
		 * drop the blocks whose last use is before this one's start;
		 * not in a plan, whose tiles of different ops run in any order
		 */
		for (k = 0; k < nlive;)
			if (live[k].last < t->def && !p->syms.n)
				live[k] = live[--nlive];
			else
				k++;
		/* first fit: lowest offset that overlaps no live block */
		while (moved) {
			moved = 0;
			for (k = 0; k < nlive; k++)
				if (off < live[k].end && live[k].off < off + size) {
					off = live[k].end;
					moved = 1;
				}
		}
		t->offset = off;
		live[nlive].off = off;
		live[nlive].end = off + size;
		live[nlive].last = t->last;
		nlive++;
		if (off + size > p->scratch_size)
			p->scratch_size = off + size;
	}
	/* views: the root's placement */
	for (i = 0; i < p->nt; i++) {
		int r = root_of(p, (int)i), a;
		uint64_t voff = 0;

		if (r == (int)i)
			continue;
		for (a = (int)i; a != r; a = p->t[a].alias)
			voff += p->t[a].voff;
		p->t[i].offset = p->t[r].offset + voff;
		p->t[i].region = p->t[r].region;
		p->t[i].index = p->t[r].index;
		p->t[i].blob = p->t[r].blob + voff;
	}
	free(live);
	free(order);
	return 0;
}

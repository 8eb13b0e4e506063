/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Running the interpreter's test programs (sim/tests/rv/, static rv32imac
 * ELFs for Linux user mode) on struct vpux_rv: loads the ELF's PT_LOAD
 * segments into RAM and serves the two system calls the programs make,
 * write (64) and exit (93).
 *
 * The ecall traps to a two-instruction handler at the top of RAM,
 * "wfi; mret": the WFI stops vpux_rv_run() (no interrupt is enabled), the
 * host serves the call, advances mepc past the ecall and resumes at the
 * mret. The stack sits just below the handler.
 */
#ifndef SIM_RV_HOST_H
#define SIM_RV_HOST_H

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpux_rv.h"

#define RVH_RAM_BASE	0x10000u	/* sim/tests/rv/link.ld */
#define RVH_RAM_SIZE	(4u << 20)
#define RVH_HANDLER(h)	((h)->base + RVH_RAM_SIZE - 16)
#define RVH_OUT_MAX	(64u << 10)

struct rvh {
	struct vpux_rv rv;
	u8 *ram;
	u32 base;
	char out[RVH_OUT_MAX];
	size_t out_len;
	int exit_code;
	u64 retired;
};

/* Read @path into a malloc()ed buffer; NULL on error. */
static inline u8 *rvh_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

static inline void rvh_wr32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * Load @path into a fresh RAM at @base and reset the hart at its entry.
 * 0 or -1 with a message in @err.
 */
static inline int rvh_load(struct rvh *h, const char *path, u32 base,
			   char *err, size_t errlen)
{
	const Elf32_Ehdr *eh;
	size_t len = 0, i;
	u8 *img;

	memset(h, 0, sizeof(*h));
	h->base = base;
	img = rvh_read_file(path, &len);
	if (!img) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	eh = (const Elf32_Ehdr *)img;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_RISCV ||
	    eh->e_phentsize != sizeof(Elf32_Phdr) ||
	    eh->e_phoff > len ||
	    (size_t)eh->e_phnum * sizeof(Elf32_Phdr) > len - eh->e_phoff) {
		snprintf(err, errlen, "%s: not an rv32 ELF", path);
		free(img);
		return -1;
	}
	h->ram = calloc(1, RVH_RAM_SIZE);
	if (!h->ram) {
		free(img);
		return -1;
	}
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf32_Phdr *ph = (const Elf32_Phdr *)(img + eh->e_phoff) +
				       i;
		u32 off = ph->p_vaddr - h->base;

		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_filesz > ph->p_memsz || ph->p_offset > len ||
		    ph->p_filesz > len - ph->p_offset ||
		    ph->p_vaddr < h->base ||
		    off > RVH_RAM_SIZE - 4096 ||
		    ph->p_memsz > RVH_RAM_SIZE - 4096 - off) {
			snprintf(err, errlen, "%s: segment %zu outside RAM",
				 path, i);
			free(img);
			free(h->ram);
			h->ram = NULL;
			return -1;
		}
		memcpy(h->ram + off, img + ph->p_offset, ph->p_filesz);
	}
	h->rv.ram = h->ram;
	h->rv.ram_base = h->base;
	h->rv.ram_size = RVH_RAM_SIZE;
	vpux_rv_reset(&h->rv, eh->e_entry);
	free(img);

	rvh_wr32(h->ram + RVH_RAM_SIZE - 16, 0x10500073u);	/* wfi */
	rvh_wr32(h->ram + RVH_RAM_SIZE - 12, 0x30200073u);	/* mret */
	h->rv.mtvec = RVH_HANDLER(h);
	h->rv.x[2] = RVH_HANDLER(h) - 64;	/* sp */
	h->exit_code = -1;
	return 0;
}

static inline void rvh_free(struct rvh *h)
{
	free(h->ram);
	h->ram = NULL;
}

/*
 * Run until the program exits or @limit instructions retired, in slices
 * of @slice. 0 on exit, -1 with a message in @err otherwise.
 */
static inline int rvh_run(struct rvh *h, u64 limit, u32 slice, char *err,
			  size_t errlen)
{
	struct vpux_rv *rv = &h->rv;

	while (h->retired < limit) {
		u32 a0, a1, a2;

		h->retired += vpux_rv_run(rv, slice);
		if (!rv->wfi)
			continue;
		if (rv->pc != RVH_HANDLER(h) + 4 ||
		    rv->mcause != VPUX_RV_CAUSE_ECALL_M) {
			snprintf(err, errlen,
				 "unexpected trap: mcause %#x mepc %#x mtval %#x",
				 rv->mcause, rv->mepc, rv->mtval);
			return -1;
		}
		a0 = rv->x[10];
		a1 = rv->x[11];
		a2 = rv->x[12];
		switch (rv->x[17]) {
		case 93:	/* exit */
			h->exit_code = (int)(a0 & 0xff);
			return 0;
		case 64:	/* write(fd, buf, len) */
			if (a0 != 1 || a1 - h->base > RVH_RAM_SIZE ||
			    a2 > RVH_RAM_SIZE - (a1 - h->base) ||
			    a2 > sizeof(h->out) - h->out_len) {
				rv->x[10] = (u32)-14;	/* -EFAULT */
				break;
			}
			memcpy(h->out + h->out_len,
			       h->ram + (a1 - h->base), a2);
			h->out_len += a2;
			rv->x[10] = a2;
			break;
		default:
			rv->x[10] = (u32)-38;	/* -ENOSYS */
			break;
		}
		rv->mepc += 4;
		rv->wfi = false;
	}
	snprintf(err, errlen, "no exit after %llu instructions",
		 (unsigned long long)h->retired);
	return -1;
}

#endif /* SIM_RV_HOST_H */

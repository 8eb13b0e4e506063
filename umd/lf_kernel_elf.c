// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A SHAVE kernel from the kernel SDK (kernels/, a linked RV32 ET_EXEC ELF)
 * as the WIN_D image a loadable carries: its loadable segments, checked
 * to lie in WIN_D and to be read-only, and its entry point. The SDK's
 * linker resolved every relocation against the window bases.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "lf_kernels.h"
#include "vpux_shave_rt.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

int lf_kernel_from_elf(const void *data, size_t size, const char *what,
		       uint8_t **image, uint32_t *image_size, uint32_t *entry)
{
	return lf_kernel_from_elf_at(data, size, what, 0, image, image_size,
				     entry);
}

int lf_kernel_from_elf_at(const void *data, size_t size, const char *what,
			  int runtime, uint8_t **image, uint32_t *image_size,
			  uint32_t *entry)
{
	const uint64_t lo = runtime ? VPUX_SHAVE_WIN_R : VPUX_SHAVE_WIN_D;
	const uint64_t hi = lo + (runtime ? VPUX_SHAVE_RT_CODE_MAX :
				  VPUX_SHAVE_CODE_MAX);
	const char *win = runtime ? "WIN_R" : "WIN_D";
	uint64_t end = lo, base = hi;
	char *copy = NULL;
	uint8_t *img = NULL;
	Elf *e = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t n, i;
	int ret = 0, pass;

	*image = NULL;
	if (size < EI_NIDENT || memcmp(data, ELFMAG, SELFMAG))
		return vpux_err(VPUX_E_FORMAT, "%s: not an ELF file", what);
	elf_version(EV_CURRENT);
	copy = malloc(size);
	if (!copy)
		return vpux_err(VPUX_E_NOMEM, "%s: out of memory", what);
	memcpy(copy, data, size);
	e = elf_memory(copy, size);
	if (!e || !gelf_getehdr(e, &eh)) {
		ret = vpux_err(VPUX_E_FORMAT, "%s: unreadable ELF header (%s)",
			       what, elf_errmsg(-1));
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_RISCV) {
		ret = vpux_err(VPUX_E_FORMAT,
			       "%s: not a 32-bit little-endian RISC-V ELF (class %u, machine %u)",
			       what, eh.e_ident[EI_CLASS], eh.e_machine);
		goto out;
	}
	if (eh.e_type != ET_EXEC) {
		ret = vpux_err(VPUX_E_FORMAT,
			       "%s: e_type %u: a kernel is a linked executable (ET_EXEC, relocations resolved by the SDK's link.ld)",
			       what, eh.e_type);
		goto out;
	}
	if (elf_getphdrnum(e, &n) || !n) {
		ret = vpux_err(VPUX_E_FORMAT, "%s: no program headers", what);
		goto out;
	}
	/* pass 0: check and find the extent; pass 1: copy */
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; i < n && !ret; i++) {
			if (!gelf_getphdr(e, (int)i, &ph)) {
				ret = vpux_err(VPUX_E_FORMAT,
					       "%s: program header %zu unreadable",
					       what, i);
				break;
			}
			if (ph.p_type != PT_LOAD || !ph.p_memsz)
				continue;
			if (pass) {
				memcpy(img + (ph.p_vaddr - base),
				       (const char *)data + ph.p_offset,
				       ph.p_filesz);
				continue;
			}
			if (ph.p_flags & PF_W)
				ret = vpux_err(VPUX_E_FORMAT,
					       "%s: segment %zu at 0x%llx is writable: a kernel has no RW data (an invocation carries it)",
					       what, i,
					       (unsigned long long)ph.p_vaddr);
			else if (ph.p_vaddr < lo || ph.p_memsz > hi - lo ||
				 ph.p_vaddr > hi - ph.p_memsz)
				ret = vpux_err(VPUX_E_FORMAT,
					       "%s: segment %zu [0x%llx, +0x%llx) not in %s [0x%llx, 0x%llx)",
					       what, i,
					       (unsigned long long)ph.p_vaddr,
					       (unsigned long long)ph.p_memsz,
					       win, (unsigned long long)lo,
					       (unsigned long long)hi);
			else if (ph.p_filesz > ph.p_memsz ||
				 ph.p_offset > size ||
				 ph.p_filesz > size - ph.p_offset)
				ret = vpux_err(VPUX_E_FORMAT,
					       "%s: segment %zu: file bytes outside the file",
					       what, i);
			if (ret)
				break;
			if (ph.p_vaddr < base)
				base = ph.p_vaddr;
			if (ph.p_vaddr + ph.p_memsz > end)
				end = ph.p_vaddr + ph.p_memsz;
		}
		if (ret || pass)
			break;
		if (base != lo) {
			ret = vpux_err(VPUX_E_FORMAT,
				       "%s: the image starts at 0x%llx, not at %s (0x%llx)",
				       what, (unsigned long long)base, win,
				       (unsigned long long)lo);
			break;
		}
		end = (end + 3) & ~3ull;
		if (eh.e_entry < lo || eh.e_entry >= end || eh.e_entry & 1) {
			ret = vpux_err(VPUX_E_FORMAT,
				       "%s: entry point 0x%llx not in the image [0x%llx, 0x%llx)",
				       what, (unsigned long long)eh.e_entry,
				       (unsigned long long)lo,
				       (unsigned long long)end);
			break;
		}
		img = calloc(1, end - lo);
		if (!img)
			ret = vpux_err(VPUX_E_NOMEM, "%s: out of memory", what);
	}
	if (!ret) {
		*image = img;
		*image_size = (uint32_t)(end - lo);
		*entry = (uint32_t)(eh.e_entry - lo);
		img = NULL;
	}
out:
	free(img);
	if (e)
		elf_end(e);
	free(copy);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Bare-metal portability layer of the engine core (dla_port.h) on the
 * management core: the NPU's registers at VPUX_MC_NPU_BASE, the task
 * being prepared read through the window (struct fw_stage: the address
 * list copied out of the staging buffer, entry 0's bytes and a plan's
 * symbol values read where the host staged them), the time from mtime,
 * and the messages formatted into the log ring in shared memory,
 * mirrored to the model's console.
 *
 * Single-threaded: main.c's loop makes every call into the core, and the
 * trap handler never returns into it, so nothing here takes a lock.
 */
#include <stdarg.h>

#include "bm.h"
#include "dla_err.h"
#include "dla_port.h"

dla_u32 dla_reg_read(void *driver_context, dla_u32 addr)
{
	(void)driver_context;
	return FW_REG(VPUX_MC_NPU_BASE, addr);
}

void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg)
{
	(void)driver_context;
	FW_REG(VPUX_MC_NPU_BASE, addr) = reg;
}

dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination)
{
	const struct fw_stage *t = task_data;
	const struct vpux_fw_addr *e;

	(void)driver_context;
	if (!t || index < 0 || (dla_u32)index >= t->n_addr)
		return -DLA_ERR_ADDR_INDEX;
	e = &t->addr[index];
	if (destination == DESTINATION_PROCESSOR) {
		/* only entry 0's copy is visible to this CPU */
		if (index)
			return -DLA_ERR_ADDR_INDEX;
		dst_ptr->addr = (unsigned long)t->data;
		dst_ptr->size = t->data_size;
	} else {
		dst_ptr->addr = e->addr;
		dst_ptr->size = e->size;
	}
	dst_ptr->flags = e->flags & DLA_ADDR_READONLY;
	dst_ptr->reserved = 0;
	return 0;
}

/* Entry 0's copy, [@offset, @offset + @size), or NULL. */
static const volatile dla_u8 *fw_range(const struct fw_stage *t, dla_u64 index,
				       dla_u32 size, dla_u64 offset)
{
	if (!t || index != 0 || !t->n_addr || offset > t->data_size ||
	    size > t->data_size - offset)
		return NULL;
	return t->data + offset;
}

/*
 * For reading: entry 0's copy, or the symbol buffer's (a plan's
 * sym_index, read once by dla_task_prepare()); no other entry is staged.
 */
static const volatile dla_u8 *fw_range_ro(const struct fw_stage *t,
					  dla_u64 index, dla_u32 size,
					  dla_u64 offset)
{
	if (!index)
		return fw_range(t, index, size, offset);
	if (!t || !t->sym_index || index != t->sym_index ||
	    offset > t->sym_size || size > t->sym_size - offset)
		return NULL;
	return t->sym + offset;
}

/*
 * Copy out of host memory: word loads where both sides are aligned, else
 * bytes (the window takes naturally aligned 1, 2 and 4-byte accesses).
 */
void fw_win_copy_from(void *dst, const volatile void *src, dla_u32 len)
{
	const volatile dla_u8 *s = src;
	dla_u8 *d = dst;

	if ((((unsigned long)s | (unsigned long)d) & 3) == 0) {
		for (; len >= 4; len -= 4, s += 4, d += 4)
			*(dla_u32 *)d = *(const volatile dla_u32 *)s;
	}
	while (len--)
		*d++ = *s++;
}

dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset)
{
	const volatile dla_u8 *p = fw_range_ro(task_data, src, size, offset);

	(void)driver_context;
	if (!p)
		return -DLA_ERR_BUF_RANGE;
	fw_pulse();
	fw_win_copy_from(dst, p, size);
	return 0;
}

dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset)
{
	volatile dla_u8 *p = (volatile dla_u8 *)fw_range(task_data, dst, size,
							  offset);
	const dla_u8 *s = src;

	(void)driver_context;
	if (!p)
		return -DLA_ERR_BUF_RANGE;
	while (size--)
		*p++ = *s++;
	return 0;
}

/* mtime, microseconds since reset: LO first, which latches HI. */
dla_u64 fw_mtime(void)
{
	dla_u32 lo = fw_mc_read(VPUX_MC_REG_MTIME_LO);
	dla_u32 hi = fw_mc_read(VPUX_MC_REG_MTIME_HI);

	return (dla_u64)hi << 32 | lo;
}

dla_s64 dla_get_time_us(void)
{
	return (dla_s64)fw_mtime();
}

/* a word that may alias anything (memset and memcpy store through it) */
typedef dla_u32 __attribute__((__may_alias__)) fw_word;

/*
 * memset and memcpy of the core (and of the compiler's calls): words
 * where the addresses allow, bytes at the edges, a 32-bit count. The
 * core's buffers are in this core's RAM (VPUX_REG_MC_MEM_SIZE, far below
 * 4 GiB), so @len fits. Byte loops with a 64-bit count cost about eight
 * instructions a byte: most of what the firmware did per job, in the
 * main loop's task status of every slot (fw_progress()).
 */
void *dla_memset(void *src, int ch, dla_u64 len)
{
	unsigned char *p = src;
	dla_u32 n = (dla_u32)len, w = (dla_u8)ch * 0x01010101u;

	for (; n && ((unsigned long)p & 3); n--)
		*p++ = (unsigned char)ch;
	for (; n >= 4; n -= 4, p += 4)
		*(fw_word *)p = w;
	while (n--)
		*p++ = (unsigned char)ch;
	return src;
}

void *dla_memcpy(void *dest, const void *src, dla_u64 len)
{
	unsigned char *d = dest;
	const unsigned char *s = src;
	dla_u32 n = (dla_u32)len;

	if (!(((unsigned long)d | (unsigned long)s) & 3))
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(fw_word *)d = *(const fw_word *)s;
	while (n--)
		*d++ = *s++;
	return dest;
}

/* The compiler may emit calls to these for struct copies. */
void *memset(void *s, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n);

void *memset(void *s, int c, unsigned long n)
{
	return dla_memset(s, c, n);
}

void *memcpy(void *d, const void *s, unsigned long n)
{
	return dla_memcpy(d, s, n);
}

/* ---- the log ring ---- */

static volatile char *fw_log_ring;
static dla_u32 fw_log_size;
static volatile dla_u32 *fw_log_tail;

/* From here on lines go to the ring (@size a power of two) too. */
void fw_log_attach(volatile char *ring, dla_u32 size, volatile dla_u32 *tail)
{
	fw_log_ring = ring;
	fw_log_size = size;
	fw_log_tail = tail;
}

/* One line into the ring (then the tail past it) and to the console. */
static void fw_log_line(const char *line)
{
	dla_u32 tail = fw_log_tail ? *fw_log_tail : 0;
	const char *s;

	for (s = line; *s; s++) {
#ifndef FW_NO_CONSOLE
		fw_mc_write(VPUX_MC_REG_CONSOLE, (dla_u8)*s);
#endif
		if (fw_log_ring)
			fw_log_ring[tail++ & (fw_log_size - 1)] = *s;
	}
	if (fw_log_ring) {
		fw_fence();
		*fw_log_tail = tail;
	}
}

#define FW_LOG_LINE	160

static void fw_vlog(const char *prefix, const char *fmt, va_list ap)
{
	char line[FW_LOG_LINE];
	dla_u32 n = 0;
	int len;

	while (*prefix && n < FW_LOG_LINE - 2)
		line[n++] = *prefix++;
	len = fw_vsnprintf(line + n, FW_LOG_LINE - 1 - n, fmt, ap);
	if (len < 0)
		len = 0;
	n += (dla_u32)len;
	if (n > FW_LOG_LINE - 2)
		n = FW_LOG_LINE - 2;	/* cut: the line still ends */
	if (!n || line[n - 1] != '\n')
		line[n++] = '\n';
	line[n] = '\0';
	fw_log_line(line);
}

#define FW_LOG_FN(name, prefix)						\
void name(const char *str, ...)						\
{									\
	va_list ap;							\
									\
	va_start(ap, str);						\
	fw_vlog(prefix, str, ap);					\
	va_end(ap);							\
}

#ifdef FW_DEBUG
FW_LOG_FN(dla_debug, "D ")
#else
void dla_debug(const char *str, ...)
{
	(void)str;
}
#endif
FW_LOG_FN(dla_info, "I ")
FW_LOG_FN(dla_warn, "W ")
FW_LOG_FN(dla_error, "E ")
FW_LOG_FN(fw_log, "I fw: ")

static void fw_log_err(const char *str, ...)
	__attribute__((__format__(__printf__, 1, 2)));
FW_LOG_FN(fw_log_err, "E fw: ")

/* The trap handler's line (start.S), on a fresh stack. */
void fw_trap_log(dla_u32 mcause, dla_u32 mepc, dla_u32 mtval)
{
	fw_log_err("trap: mcause 0x%x mepc 0x%08x mtval 0x%08x, stopped\n",
		   mcause, mepc, mtval);
}

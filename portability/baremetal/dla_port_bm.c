// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Bare-metal portability layer: MMIO through volatile pointers, the
 * address list in the shared mailbox, messages to a UART (unformatted:
 * the image carries no printf).
 */
#include <stdarg.h>

#include "bm.h"
#include "dla_err.h"
#include "dla_port.h"

#define BM_REG(off) (*(volatile dla_u32 *)(BM_MMIO_BASE + (off)))

dla_u32 dla_reg_read(void *driver_context, dla_u32 addr)
{
	(void)driver_context;
	return BM_REG(addr);
}

void dla_reg_write(void *driver_context, dla_u32 addr, dla_u32 reg)
{
	(void)driver_context;
	BM_REG(addr) = reg;
}

static const struct bm_addr_entry *bm_entry(void *task_data, dla_u64 index)
{
	const struct bm_task *t = task_data;

	if (!t || index >= t->n || index >= DLA_MAX_ADDR_ENTRIES)
		return NULL;
	return &t->list[index];
}

dla_s32 dla_get_dma_address(void *driver_context, void *task_data,
			    dla_s16 index, struct dla_address *dst_ptr,
			    dla_u32 destination)
{
	const struct bm_addr_entry *e;

	(void)driver_context;
	if (index < 0)
		return -DLA_ERR_ADDR_INDEX;
	e = bm_entry(task_data, (dla_u64)index);
	if (!e)
		return -DLA_ERR_ADDR_INDEX;
	dst_ptr->addr = destination == DESTINATION_DMA ? e->dev : e->cpu;
	dst_ptr->size = e->size;
	dst_ptr->flags = 0;	/* the host's list has no access flags */
	dst_ptr->reserved = 0;
	return 0;
}

static void *bm_ptr(const struct bm_addr_entry *e, dla_u32 size,
		    dla_u64 offset)
{
	if (!e || offset > e->size || size > e->size - offset)
		return NULL;
	return (void *)(unsigned long)(e->cpu + offset);
}

dla_s32 dla_data_read(void *driver_context, void *task_data, dla_u64 src,
		      void *dst, dla_u32 size, dla_u64 offset)
{
	void *p = bm_ptr(bm_entry(task_data, src), size, offset);

	(void)driver_context;
	if (!p)
		return -DLA_ERR_BUF_RANGE;
	dla_memcpy(dst, p, size);
	return 0;
}

dla_s32 dla_data_write(void *driver_context, void *task_data, const void *src,
		       dla_u64 dst, dla_u32 size, dla_u64 offset)
{
	void *p = bm_ptr(bm_entry(task_data, dst), size, offset);

	(void)driver_context;
	if (!p)
		return -DLA_ERR_BUF_RANGE;
	dla_memcpy(p, src, size);
	return 0;
}

dla_s64 dla_get_time_us(void)
{
	volatile dla_u32 *mt = (volatile dla_u32 *)BM_MTIME;
	dla_u32 hi, lo;

	do {
		hi = mt[1];
		lo = mt[0];
	} while (hi != mt[1]);
	return (dla_s64)((dla_u64)hi << 32 | lo);
}

void *dla_memset(void *src, int ch, dla_u64 len)
{
	unsigned char *p = src;

	while (len--)
		*p++ = (unsigned char)ch;
	return src;
}

void *dla_memcpy(void *dest, const void *src, dla_u64 len)
{
	unsigned char *d = dest;
	const unsigned char *s = src;

	while (len--)
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

static void bm_puts(const char *s)
{
	volatile unsigned char *tx = (volatile unsigned char *)BM_UART_TX;

	while (*s)
		*tx = (unsigned char)*s++;
}

/* No formatting in the image: the format string alone tells what failed. */
void dla_debug(const char *str, ...)
{
	(void)str;
}

void dla_info(const char *str, ...)
{
	bm_puts(str);
}

void dla_warn(const char *str, ...)
{
	bm_puts(str);
}

void dla_error(const char *str, ...)
{
	bm_puts(str);
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A freestanding vsnprintf for the firmware's log: the conversions the
 * port contract allows the core (%u, %d, %s, %x, %llx, %llu, dla_port.h)
 * and a few more for the firmware's own lines: flags '-' and '0', a
 * width, the length modifiers l, ll and z, and %c, %p, %X, %%. Anything
 * else is copied as it stands. No libc: it builds for the image and,
 * unchanged, for the host test (fw-fmt).
 */
#include "bm.h"

struct fw_out {
	char *buf;
	dla_u32 size;
	dla_u32 len;	/* would-be length, as snprintf returns */
};

static void fw_putc(struct fw_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void fw_pad(struct fw_out *o, char c, int n)
{
	while (n-- > 0)
		fw_putc(o, c);
}

/*
 * @v / 10 and its remainder, 16 bits at a time in 32-bit arithmetic: rv32
 * has no 64-bit divide and the image links no libgcc (the core needs
 * none either).
 */
static dla_u64 fw_div10(dla_u64 v, unsigned int *rem)
{
	dla_u32 part[4] = { (dla_u32)(v >> 48) & 0xffff,
			    (dla_u32)(v >> 32) & 0xffff,
			    (dla_u32)(v >> 16) & 0xffff, (dla_u32)v & 0xffff };
	dla_u32 r = 0, cur;
	int i;

	for (i = 0; i < 4; i++) {
		cur = r << 16 | part[i];
		part[i] = cur / 10;
		r = cur % 10;
	}
	*rem = r;
	return (dla_u64)part[0] << 48 | (dla_u64)part[1] << 32 |
	       (dla_u64)part[2] << 16 | part[3];
}

/* Digits of @v in base 10 or 16, reversed, into @tmp; their count. */
static int fw_digits(char *tmp, dla_u64 v, unsigned int base, int upper)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned int d;
	int n = 0;

	do {
		if (base == 16) {
			d = (unsigned int)(v & 15);
			v >>= 4;
		} else {
			v = fw_div10(v, &d);
		}
		tmp[n++] = dig[d];
	} while (v);
	return n;
}

static void fw_number(struct fw_out *o, dla_u64 v, int neg, unsigned int base,
		      int upper, int width, int left, int zero)
{
	char tmp[24];
	int n = fw_digits(tmp, v, base, upper);
	int len = n + (neg ? 1 : 0);

	if (!left && !zero)
		fw_pad(o, ' ', width - len);
	if (neg)
		fw_putc(o, '-');
	if (!left && zero)
		fw_pad(o, '0', width - len);
	while (n)
		fw_putc(o, tmp[--n]);
	if (left)
		fw_pad(o, ' ', width - len);
}

int fw_vsnprintf(char *buf, dla_u32 size, const char *fmt, va_list ap)
{
	struct fw_out o = { buf, size, 0 };
	const char *p;

	for (p = fmt; *p; p++) {
		const char *start = p;
		int left = 0, zero = 0, width = 0, lng = 0;
		dla_u64 u;
		dla_s64 s;

		if (*p != '%') {
			fw_putc(&o, *p);
			continue;
		}
		p++;
		for (;; p++) {
			if (*p == '-')
				left = 1;
			else if (*p == '0')
				zero = 1;
			else
				break;
		}
		while (*p >= '0' && *p <= '9')
			width = width * 10 + (*p++ - '0');
		if (*p == 'z') {
			lng = sizeof(unsigned long) == 8 ? 2 : 1;
			p++;
		}
		while (*p == 'l' && lng < 2) {
			lng++;
			p++;
		}
		switch (*p) {
		case 'd':
		case 'i':
			s = lng == 2 ? va_arg(ap, long long) :
			    lng == 1 ? va_arg(ap, long) : va_arg(ap, int);
			u = s < 0 ? (dla_u64)0 - (dla_u64)s : (dla_u64)s;
			fw_number(&o, u, s < 0, 10, 0, width, left, zero);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng == 2 ? va_arg(ap, unsigned long long) :
			    lng == 1 ? va_arg(ap, unsigned long) :
				       va_arg(ap, unsigned int);
			fw_number(&o, u, 0, *p == 'u' ? 10 : 16, *p == 'X',
				  width, left, zero);
			break;
		case 'p':
			fw_putc(&o, '0');
			fw_putc(&o, 'x');
			fw_number(&o, (unsigned long)va_arg(ap, void *), 0, 16,
				  0, width - 2, left, zero);
			break;
		case 'c':
			fw_pad(&o, ' ', left ? 0 : width - 1);
			fw_putc(&o, (char)va_arg(ap, int));
			fw_pad(&o, ' ', left ? width - 1 : 0);
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);
			int n = 0;

			if (!str)
				str = "(null)";
			while (str[n])
				n++;
			fw_pad(&o, ' ', left ? 0 : width - n);
			while (*str)
				fw_putc(&o, *str++);
			fw_pad(&o, ' ', left ? width - n : 0);
			break;
		}
		case '%':
			fw_putc(&o, '%');
			break;
		default:
			/* unknown: copy the conversion as it stands */
			while (start <= p && *start)
				fw_putc(&o, *start++);
			if (!*p)
				p--;
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Ordinary compiled code (built with -Os: dense in compressed forms): a
 * CRC, a sort, a sieve, recursion, a jump table, 64-bit arithmetic,
 * string handling and calls through pointers.
 */
#include "rvlib.h"

static u8 data[1024];
static u32 arr[200];
static u8 sieve[2000];

static u32 crc32(const u8 *p, u32 n)
{
	u32 c = ~0u, i;

	while (n--) {
		c ^= *p++;
		for (i = 0; i < 8; i++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static void isort(u32 *a, u32 n)
{
	u32 i, j, v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static u32 fib(u32 n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static __attribute__((noinline)) u32 classify(u32 v)
{
	switch (v % 9) {
	case 0: return v * 3;
	case 1: return v ^ 0x55;
	case 2: return v + 1000;
	case 3: return v >> 2;
	case 4: return ~v;
	case 5: return v << 3;
	case 6: return v - 77;
	case 7: return v | 0x100;
	default: return 0;
	}
}

static u32 slen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

static int scmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

typedef unsigned long long u64;
typedef long long s64;

static u64 mul64(u64 a, u64 b)
{
	return a * b;
}

static u32 (*const fns[])(u32) = { fib, classify };

int main(void)
{
	u32 i, n, x = 1;
	u64 acc = 0x123456789abcdefull;
	static const char *words[] = { "alpha", "beta", "gamma", "alphabet",
				       "", "delta" };

	for (i = 0; i < sizeof(data); i++) {
		x = x * 1103515245u + 12345u;
		data[i] = x >> 16;
	}
	out_kv("crc", crc32(data, sizeof(data)));

	for (i = 0; i < 200; i++) {
		x = x * 1103515245u + 12345u;
		arr[i] = x;
	}
	isort(arr, 200);
	for (i = 1, n = 0; i < 200; i++)
		n += arr[i - 1] <= arr[i];
	out_kv("sorted", n);
	for (i = 0; i < 200; i++)
		mix(arr[i]);
	out_kv("sortsum", sum);

	for (i = 2, n = 0; i < 2000; i++) {
		u32 j;

		if (sieve[i])
			continue;
		n++;
		for (j = i * i; j < 2000; j += i)
			sieve[j] = 1;
	}
	out_kv("primes", n);

	out_kv("fib20", fns[0](20));
	for (i = 0, n = 0; i < 500; i++)
		n += fns[1](i * 7919u);
	out_kv("switch", n);

	for (i = 0; i < 20; i++) {
		acc = mul64(acc, 0x5851f42d4c957f2dull) + i;
		acc ^= acc >> 29;
		acc += (s64)(s32)(u32)acc;
	}
	out_kv("u64hi", (u32)(acc >> 32));
	out_kv("u64lo", (u32)acc);

	for (i = 0; i < 6; i++) {
		out_kv(words[i], slen(words[i]));
		mix(scmp(words[i], words[(i + 1) % 6]));
	}
	out_kv("strings", sum);
	return 0;
}

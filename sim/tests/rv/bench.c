// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A loop-heavy load for the interpreter's benchmark (and one more test):
 * CRC-32 passes over a buffer and a small integer matrix product.
 */
#include "rvlib.h"

#define N 16

static u8 buf[4096];
static s32 ma[N][N], mb[N][N], mc[N][N];

int main(void)
{
	u32 i, j, k, it, c = ~0u, x = 7;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1664525u + 1013904223u;
		buf[i] = x >> 24;
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			ma[i][j] = (s32)(i * 3 + j) - 20;
			mb[i][j] = (s32)(j * 5 ^ i) - 7;
		}
	for (it = 0; it < 16; it++) {
		for (i = 0; i < sizeof(buf); i++) {
			c ^= buf[i];
			for (k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		}
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++) {
				s32 s = 0;

				for (k = 0; k < N; k++)
					s += ma[i][k] * mb[k][j];
				mc[i][j] = s + (s32)it;
			}
		mb[it % N][it % N] += mc[N - 1][N - 1] & 7;
	}
	out_kv("crc", ~c);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			mix((u32)mc[i][j]);
	out_kv("matrix", sum);
	return 0;
}

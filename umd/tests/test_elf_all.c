// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Every SDK kernel in process (examples/elf_all.vasm): each case of the
 * loadable runs an SDK kernel as an ELF op on the SHAVE core and the
 * built-in kernel of the same id and fields next to it, into outputs 0
 * and 1 at the same offsets. The same text with each ELF op replaced by
 * its built-in form ("shave elf K win_f=W like=B ..." -> "shave B ...")
 * then runs on the CPU reference (ref/, vpux_network_run_reference()).
 * Per case: ELF == built-in == CPU reference, byte for byte; and every
 * kernel of kernels/src/ has a case.
 */
#include <string.h>

#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

#define MAX_CASES	128
#define MAX_IO		8

static const char *const sdk[] = {
	"binary_f", "clamp", "convert", "gather", "layernorm",
	"log_softmax_f", "pad", "permute", "quantize", "reduce", "resize",
	"sigmoid", "softmax", "softmax_f", "tanh", "unary",
};

#define N_SDK	(sizeof(sdk) / sizeof(sdk[0]))

struct tcase {
	char name[64], kernel[32];
	unsigned long off, size;
};

static struct tcase cs[MAX_CASES];
static unsigned int n_cs;

/*
 * The cases ("# case NAME OFFSET BYTES", then the case's ELF op naming
 * its kernel) and the reference's text: no kernel or stack statements,
 * each ELF op in its built-in form.
 */
static char *ref_text(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *l = text;

	if (!out)
		return NULL;
	while (*l) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) + 1 : strlen(l);
		struct tcase *c = &cs[n_cs];

		if (n_cs < MAX_CASES &&
		    sscanf(l, "# case %63s %lu %lu", c->name, &c->off,
			   &c->size) == 3) {
			n_cs++;
		} else if (!strncmp(l, "kernel ", 7) ||
			   !strncmp(l, "stack ", 6)) {
			l += n;
			continue;
		} else if (!strncmp(l, "shave elf ", 10)) {
			/* shave elf K win_f=W like=B REST -> shave B REST */
			const char *k = l + 10, *w = strchr(k, ' ');
			const char *lk = w ? strchr(w + 1, ' ') : NULL;
			const char *rest = lk ? strchr(lk + 1, ' ') : NULL;

			if (!rest || strncmp(lk + 1, "like=", 5) || !n_cs)
				break;
			snprintf(cs[n_cs - 1].kernel, sizeof(cs[0].kernel),
				 "%.*s", (int)(w - k), k);
			o += sprintf(o, "shave %.*s", (int)(rest - lk - 6),
				     lk + 6);
			l = rest;
			n = e ? (size_t)(e - l) + 1 : strlen(l);
		}
		memcpy(o, l, n);
		o += n;
		l += n;
	}
	*o = 0;
	return out;
}

/* bytes of a 32-bit LCG; a float element's exponent folded into [2^-4, 2^2) */
static void gen(void *p, uint64_t size, uint32_t dt, uint32_t seed)
{
	unsigned char *b = p;
	uint64_t i;

	for (i = 0; i < size; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (unsigned char)(seed >> 16);
	}
	if (dt == VPUX_DT_F32)
		for (i = 0; i + 4 <= size; i += 4) {
			uint32_t v;

			memcpy(&v, b + i, 4);
			v = (v & 0x807fffffu) | (123u + (v >> 23 & 0x7) % 6) << 23;
			memcpy(b + i, &v, 4);
		}
	else if (dt == VPUX_DT_F16)
		for (i = 0; i + 2 <= size; i += 2) {
			uint16_t v;

			memcpy(&v, b + i, 2);
			v = (uint16_t)((v & 0x83ffu) | (11u + (v >> 10 & 0x7) % 6) << 10);
			memcpy(b + i, &v, 2);
		}
}

int main(void)
{
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL, *rnet = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *b[MAX_IO] = { NULL };
	void *in[MAX_IO] = { NULL }, *out[2] = { NULL }, *ref[2] = { NULL };
	size_t n, tn, rn = 0;
	char *text = read_file(SRCTOP "/examples/elf_all.vasm", &tn);
	void *data = read_file(BUILDDIR "/examples/elf_all.vpux", &n);
	void *rdata = NULL;
	char *rtext;
	unsigned int ni = 0, i, k, eq = 0, covered = 0;
	struct vpux_tensor_desc d;
	uint64_t osize = 0;
	int r;

	if (!text || !data) {
		tap_check(0, "examples/elf_all.vasm and build/examples/elf_all.vpux");
		return tap_finish();
	}
	text = realloc(text, tn + 1);
	if (!text)
		return 1;
	text[tn] = 0;
	rtext = ref_text(text);
	r = rtext ? asm_bytes(rtext, &rdata, &rn) : -1;
	tap_check(r == 0 && n_cs > 0,
		  "elf_all: %u cases; their text with the ELF ops in built-in form assembles (%d)",
		  n_cs, r);

	r = vpux_device_open("inproc", &dev);
	if (!r)
		r = vpux_network_load(dev, data, n, &net);
	if (!r)
		r = vpux_network_load(dev, rdata, rn, &rnet);
	if (!r)
		r = vpux_request_create(net, &req);
	if (!r) {
		ni = vpux_network_num_inputs(net);
		if (ni + 2 > MAX_IO || vpux_network_num_outputs(net) != 2)
			r = -1;
	}
	for (i = 0; !r && i < ni; i++) {
		r = vpux_network_input(net, i, &d);
		if (!r)
			r = vpux_buffer_alloc(dev, d.size, &b[i]);
		if (!r) {
			in[i] = vpux_buffer_map(b[i]);
			gen(in[i], d.size, d.data_type, 7 + i);
			r = vpux_request_bind_input(req, i, b[i], 0);
		}
	}
	for (i = 0; !r && i < 2; i++) {
		r = vpux_network_output(net, i, &d);
		osize = d.size;
		if (!r)
			r = vpux_buffer_alloc(dev, d.size, &b[ni + i]);
		if (!r) {
			out[i] = vpux_buffer_map(b[ni + i]);
			memset(out[i], 0xa5, d.size);
			ref[i] = calloc(1, d.size);
			r = ref[i] ? vpux_request_bind_output(req, i, b[ni + i], 0) : -1;
		}
	}
	if (!r)
		r = vpux_request_submit(req);
	if (!r)
		r = vpux_request_wait(req, 120000);
	tap_check(r == 0, "elf_all runs in process: every ELF op and built-in kernel (%d: %s)",
		  r, vpux_last_error());
	if (!r)
		r = vpux_network_run_reference(rnet, (const void *const *)in,
					       ref);
	tap_check(r == 0, "the built-in form runs on the CPU reference (%d: %s)",
		  r, vpux_last_error());

	for (k = 0; !r && k < n_cs; k++) {
		const struct tcase *c = &cs[k];
		const unsigned char *e, *bi, *re;
		int ok_b, ok_r, ok_rb;

		if (c->off + c->size > osize) {
			tap_check(0, "case %s inside the outputs", c->name);
			continue;
		}
		e = (const unsigned char *)out[0] + c->off;
		bi = (const unsigned char *)out[1] + c->off;
		re = (const unsigned char *)ref[0] + c->off;
		ok_b = !memcmp(e, bi, c->size);
		ok_r = !memcmp(e, re, c->size);
		ok_rb = !memcmp(bi, (const unsigned char *)ref[1] + c->off,
				c->size);
		eq += ok_b && ok_r && ok_rb;
		tap_check(ok_b && ok_r && ok_rb,
			  "%s: SDK kernel %s == built-in == CPU reference, %lu bytes (ELF vs built-in %s, vs reference %s; built-in vs reference %s)",
			  c->name, c->kernel, c->size, ok_b ? "equal" : "DIFFER",
			  ok_r ? "equal" : "DIFFER", ok_rb ? "equal" : "DIFFER");
	}
	for (i = 0; i < N_SDK; i++) {
		for (k = 0; k < n_cs && strcmp(cs[k].kernel, sdk[i]); k++)
			;
		covered += k < n_cs;
		if (k == n_cs)
			tap_diag("SDK kernel %s has no case", sdk[i]);
	}
	tap_check(covered == N_SDK && eq == n_cs,
		  "every SDK kernel (%u of %zu) bit-exact in %u of %u cases",
		  covered, N_SDK, eq, n_cs);

	vpux_request_destroy(req);
	for (i = 0; i < MAX_IO; i++)
		vpux_buffer_free(b[i]);
	free(ref[0]);
	free(ref[1]);
	vpux_network_unload(rnet);
	vpux_network_unload(net);
	vpux_device_close(dev);
	free(rdata);
	free(data);
	free(rtext);
	free(text);
	return tap_finish();
}

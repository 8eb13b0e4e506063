// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * libFuzzer harness of the vpux-asm parser: any text either assembles
 * into an image that then validates and writes, or fails with a message;
 * never a crash. Every plan expression it compiled prints back (what
 * vpux-dis does), and so does every FP32 value of an FP16 op's output
 * stage and of a SHAVE op vpux-dis would print in the high-level form,
 * to the same bits. Seeds: the examples' .vasm sources,
 * examples/dyn_mlp.vasm the plan syntax, examples/fp16_*.vasm the FP16
 * one, examples/fp16_shave.vasm the FP16/FP32 SHAVE kernels (make
 * fuzz-asm; asm.dict its words).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "lf.h"
#include "vasm.h"
#include "vpux.h"
#include "vpux_regs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct lf_image img;
	FILE *null = fopen("/dev/null", "w");
	void *out;
	size_t n;

	if (!text || !null) {
		free(text);
		if (null)
			fclose(null);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = 0;
	if (!asm_text("fuzz", text, NULL, &img, null)) {
		char buf[4096];
		uint32_t i;

		for (i = 0; i < img.n_patches; i++)
			if (vasm_expr_print(img.expr + img.patches[i].expr,
					    img.patches[i].len, img.symbols,
					    img.n_symbols, buf, sizeof(buf)))
				abort();	/* the assembler wrote it */
		for (i = 0; i < img.n_dpu; i++) {
			const struct vpux_lf_dpu_fparams *f = &img.dpu[i].f;
			const uint32_t v[5] = { f->clamp_lo, f->clamp_hi,
						f->scale, f->shift, f->slope };
			const char *why;
			uint32_t k, back;

			if (!(img.dpu[i].flags & VPUX_DPU_F_FP16))
				continue;
			for (k = 0; k < 5; k++) {
				if ((v[k] & 0x7fffffffu) > 0x7f800000u)
					continue;	/* NaN: no such field */
				vasm_f32_print(v[k], buf, sizeof(buf));
				if (vasm_float_parse(buf, VPUX_DT_F32, &back,
						     &why) || back != v[k])
					abort();	/* vpux-dis | vpux-asm */
			}
		}
		for (i = 0; i < img.n_shave; i++) {
			struct vpux_lf_tensor tens[VASM_SHAVE_RECS];
			struct vasm_rec rec[VASM_SHAVE_RECS];
			const struct vasm_field *f;
			const uint8_t *a = img.kargs + img.shave[i].args_offset;

			if (!vasm_shave_high_level(&img, &img.shave[i], rec, tens))
				continue;
			for (f = vasm_kernel_params(img.shave[i].kernel_id);
			     f->name; f++) {
				unsigned int k, nv = f->type == VF_F32X6 ? 6 :
						     f->type == VF_F32;
				const char *why;
				uint32_t v, back;

				for (k = 0; k < nv; k++) {
					memcpy(&v, a + f->offset + 4 * k, 4);
					vasm_f32_print(v, buf, sizeof(buf));
					if (vasm_float_parse(buf, VPUX_DT_F32,
							     &back, &why) ||
					    back != v)
						abort();	/* dis | asm */
				}
			}
		}
		if (!lf_validate(&img) && !lf_write_mem(&img, &out, &n))
			free(out);
		asm_free(&img);
	}
	fclose(null);
	free(text);
	return 0;
}

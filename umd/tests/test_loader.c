// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The loader refuses every malformed loadable with the right code and a
 * message naming the section, record and field: one test per rule of
 * Documentation/loadable.rst, container rules on the bytes, semantic rules
 * on the parsed records.
 */
#include <gelf.h>
#include <string.h>
#include <zlib.h>

#include "err.h"
#include "lf.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_shave_abi.h"
#include "vpux_tap.h"

static const char *base =
	"network t\n"
	"input x i8 1x8x4x4 order=NHWC\n"
	"output y i8 1x8x4x4 order=NHWC\n"
	"tensor w i8 8x1x1x8 region=weights fill=seed:1\n"
	"tensor c i8 1x8x4x4 order=NHWC\n"
	"tensor d i8 1x8x4x4 order=NHWC\n"
	"tensor k i8 1x8x4x4 order=NHWC region=weights fill=const:0\n"
	"dma src=x dst=d\n"
	"dpu conv in=x in2=w out=c requant=1073741824,8\n"
	"shave clamp in=c out=y min=-10 max=10\n";

enum { T_X, T_Y, T_W, T_C, T_D, T_K };

static struct lf_image img;

/* (Re)assemble @text into @im, dropping what a test mutated. */
static void reload(struct lf_image *im, const char *name, const char *text)
{
	if (im->tensors)
		asm_free(im);
	if (asm_text(name, text, NULL, im, stderr))
		abort();
}

static void fresh(void)
{
	reload(&img, "base", base);
}

/* validate the mutated image; expect @code and @what in the message */
static void expect(int code, const char *what, const char *name)
{
	int r = lf_validate(&img);

	tap_check(r == code && strstr(vpux_last_error(), what),
		  "%s: refused (%d, '%s')", name, r, vpux_last_error());
	fresh();
}

static void test_semantic(void)
{
	fresh();
	tap_check(lf_validate(&img) == 0, "base network is valid");

	img.tensors[T_W].offset = img.hdr.weights_size;
	expect(VPUX_E_FORMAT, ".vpux.tensors: record 2: field offset/size",
	       "tensor extent outside its region");
	img.tensors[T_C].size -= 1;
	expect(VPUX_E_FORMAT, "record 3: field size", "tensor size < dims");
	img.tensors[T_C].dims_order = 0x1134;
	expect(VPUX_E_FORMAT, "field dims_order", "bad dims order (repeat)");
	img.tensors[T_C].dims_order = 0x12345;
	expect(VPUX_E_FORMAT, "field dims_order", "dims order of wrong rank");
	img.tensors[T_C].rank = 7;
	expect(VPUX_E_FORMAT, "field rank", "rank above 6");
	img.tensors[T_C].data_type = 9;
	expect(VPUX_E_FORMAT, "field data_type", "unknown data type");
	img.tensors[T_C].strides[1] = 4;
	expect(VPUX_E_FORMAT, "field dims/strides", "stride not a multiple of 8 bits");
	img.tensors[T_C].strides[3] = 8;	/* W over C */
	expect(VPUX_E_FORMAT, "field strides", "overlapping strides");
	memset(img.tensors[T_C].name, 'a', VPUX_LF_NAME_LEN);
	expect(VPUX_E_FORMAT, "field name", "name not NUL-terminated");
	strcpy(img.tensors[T_C].name, "d");
	expect(VPUX_E_FORMAT, "not unique", "duplicate tensor name");
	img.tensors[T_C].region = VPUX_LF_REGION(7, 0);
	expect(VPUX_E_FORMAT, "field region", "unknown region kind");
	img.tensors[T_C].region = VPUX_LF_REGION(VPUX_LF_RK_INPUT, 3);
	expect(VPUX_E_FORMAT, "field region", "input index out of range");
	img.tensors[T_C].region = VPUX_LF_REGION(VPUX_LF_RK_CMX, 3);
	img.tensors[T_C].offset = VPUX_LF_CMX_TILE_SIZE - img.tensors[T_C].size;
	tap_check(lf_validate(&img) == 0, "tensor at the end of CMX tile 3 (1.1)");
	fresh();
	img.tensors[T_C].region = VPUX_LF_REGION(VPUX_LF_RK_CMX,
						 VPUX_LF_CMX_TILES);
	expect(VPUX_E_FORMAT, "field region", "CMX tile out of range");
	img.tensors[T_C].region = VPUX_LF_REGION(VPUX_LF_RK_CMX, 0);
	img.tensors[T_C].offset = VPUX_LF_CMX_TILE_SIZE - 64;
	expect(VPUX_E_FORMAT, "field offset/size", "tensor past the end of its CMX tile");
	img.tensors[T_X].flags = 0;
	expect(VPUX_E_FORMAT, "record 0: field offset/size",
	       "input without descriptor");
	img.tensors[T_C].dyn_dims = 1u << 4;
	expect(VPUX_E_FORMAT, "field dyn_dims", "dyn_dims bit above the rank");
	img.tensors[T_C].dyn_dims = 1;
	expect(VPUX_E_FORMAT, "symbol 1 does not exist",
	       "dynamic dim without symbols");
	img.tensors[T_C].scale_shift = 40;
	expect(VPUX_E_FORMAT, "field scale", "quant scale shift out of range");

	img.hdr.target = 99;
	expect(VPUX_E_UNSUPPORTED, "field target", "unknown target");
	img.hdr.caps = VPUX_NET_CAP_DMA;
	expect(VPUX_E_FORMAT, "field caps", "caps lacking an engine kind used");
	img.hdr.num_outputs = 0;
	expect(VPUX_E_FORMAT, "num_outputs", "no outputs");
	img.hdr.reserved[2] = 1;
	expect(VPUX_E_FORMAT, "field reserved", "header reserved field");

	img.shave[0].kernel_id = 77;
	expect(VPUX_E_FORMAT, ".vpux.ops.shave: record 0: field kernel_id",
	       "unknown kernel id");
	img.shave[0].args_size -= 8;
	expect(VPUX_E_FORMAT, "field args_size", "wrong argument size");
	img.shave[0].args_offset = img.kargs_size;
	expect(VPUX_E_FORMAT, "field args_offset", "arguments outside .vpux.kargs");
	img.shave[0].windows[1].size = 16;
	expect(VPUX_E_FORMAT, "field args.out", "memref larger than its window");
	img.shave[0].windows[1] = (struct vpux_lf_ref){ 0, 0, 0, 0 };
	expect(VPUX_E_FORMAT, "field args.out", "memref in an unset window");
	img.shave[0].windows[1].tensor = T_K;
	expect(VPUX_E_FORMAT, "read-only weights", "SHAVE writing the weights");

	img.dpu[0].in.tensor = 999;
	expect(VPUX_E_FORMAT, ".vpux.ops.dpu: record 0: field in",
	       "op referencing a missing tensor");
	img.dpu[0].in.offset = 8;
	expect(VPUX_E_FORMAT, "field in", "operand outside its tensor");
	img.dpu[0].in.size -= 1;
	expect(VPUX_E_FORMAT, "field in", "operand smaller than the op reads");
	img.dpu[0].bias.tensor = T_W;
	expect(VPUX_E_FORMAT, "field bias", "unused operand not empty");
	img.dpu[0].out.tensor = T_W;
	img.dpu[0].out.size = 64;
	expect(VPUX_E_FORMAT, "field out", "DPU writing the weights");
	img.dpu[0].op = 42;
	expect(VPUX_E_FORMAT, "record 0: field op: integer descriptor refused by the DPU rules (rule op",
	       "unknown DPU op");
	img.dpu[0].in_h = 5;
	expect(VPUX_E_FORMAT, "field out_h: integer descriptor refused by the DPU rules (rule out_h",
	       "inconsistent DPU shape");
	img.dpu[0].reserved[0] = 3;
	expect(VPUX_E_FORMAT, "field reserved", "DPU reserved field");

	img.dma[0].len = 0;
	expect(VPUX_E_FORMAT, ".vpux.ops.dma: record 0: field len", "DMA len 0");
	img.dma[0].count[1] = 0;
	expect(VPUX_E_FORMAT, "field count", "DMA count 0");
	img.dma[0].count[1] = 2;
	img.dma[0].dst_stride[1] = 128;
	expect(VPUX_E_FORMAT, "field dst", "DMA extent beyond its operand");

	img.dma[0].count[0] = img.dma[0].count[1] = img.dma[0].count[2] =
		0xffffffffu;
	img.dma[0].src_stride[0] = img.dma[0].src_stride[1] =
		img.dma[0].src_stride[2] = 0xffffffffu;
	expect(VPUX_E_FORMAT, "field count/strides", "DMA extent overflowing 64 bits");
	img.shave[0].deps.num_updates = 1;
	img.shave[0].deps.updates[0] = 0;
	img.barriers[0].producer_count = 2;
	img.barriers[0].consumer_count = 1;
	img.dpu[0].deps.num_waits = 1;
	img.dpu[0].deps.waits[0] = 0;
	img.barriers[0].consumer_count = 2;
	expect(VPUX_E_FORMAT, "barrier cycle", "op waiting on a barrier it updates itself");
	img.dma[0].deps.num_waits = 9;
	expect(VPUX_E_FORMAT, "field deps.num_waits", "more than 8 waits");
	img.dma[0].deps.updates[0] = 200;
	expect(VPUX_E_FORMAT, "field deps.updates", "barrier id out of range");
	img.dpu[0].deps.num_waits = 1;
	img.dpu[0].deps.waits[1] = 1;
	expect(VPUX_E_FORMAT, "unused entry", "unused wait entry not zero");
	img.shave[0].deps.num_waits = 2;	/* waits[1] = 0: twice */
	expect(VPUX_E_FORMAT, "twice", "same barrier twice in a list");
	img.barriers[0].producer_count = 2;
	expect(VPUX_E_FORMAT, ".vpux.barriers: record 0: field producer_count",
	       "producer count mismatch");
	img.barriers[0].consumer_count = 0;
	expect(VPUX_E_FORMAT, "field consumer_count", "consumer count mismatch");
	/* dpu waits on b0 (updated by shave), shave waits on b1 (by dpu) */
	{
		struct lf_image *i = &img;
		uint32_t b;

		for (b = 0; b < i->n_barriers; b++)
			i->barriers[b] = (struct vpux_lf_barrier){ 0, 0, 0 };
		memset(&i->dma[0].deps, 0, sizeof(i->dma[0].deps));
		memset(&i->dpu[0].deps, 0, sizeof(i->dpu[0].deps));
		memset(&i->shave[0].deps, 0, sizeof(i->shave[0].deps));
		i->dpu[0].deps = (struct vpux_lf_deps){ 1, 1, 0, { 0 }, { 1 } };
		i->shave[0].deps = (struct vpux_lf_deps){ 1, 1, 0, { 1 }, { 0 } };
		i->barriers[0] = (struct vpux_lf_barrier){ 1, 1, 0 };
		i->n_barriers = 2;
		i->barriers[1] = (struct vpux_lf_barrier){ 1, 1, 0 };
		expect(VPUX_E_FORMAT, "barrier cycle", "barrier cycle");
	}
	img.n_dma = img.n_dpu = img.n_shave = 0;
	expect(VPUX_E_FORMAT, "ops:", "network without ops");
	asm_free(&img);
}

/* ---- container rules, on bytes ---- */

/*
 * Format 1.2: the symbol-buffer region and dynamic SHAVE memrefs. A
 * softmax over $rows x 16 whose actual dims are a record the DMAs fill
 * (the row count from the symbol buffer) and the kernel reads (x) and
 * writes (y).
 */
static const char *dyn =
	"network d\n"
	"symbol rows axis 1..64\n"
	"input x i8 $rowsx16\n"
	"output y i8 $rowsx16\n"
	"tensor rv i32 1 region=symbols offset=0\n"
	"tensor cc i32 1 region=weights fill=const:16\n"
	"tensor xd i32 2\n"
	"tensor yd i32 2\n"
	"tensor wd i32 2 region=weights fill=const:4\n"
	"dma src=rv dst=xd[0:4]\n"
	"dma src=cc dst=xd[4:4]\n"
	"shave softmax in=x out=y in_dims=xd out_dims=yd axis=1 "
	"beta_scale=1073741824,-13 out_scale=1073741824,7\n";

enum { D_X, D_Y, D_RV, D_CC, D_XD, D_YD, D_WD };

static struct lf_image dimg;

static void dfresh(void)
{
	reload(&dimg, "dyn", dyn);
}

/* memref @k (0 in, 1 out) of the SHAVE op's record (the image owns it) */
static struct vpux_memref *dmemref(unsigned int k)
{
	return (struct vpux_memref *)((uint8_t *)dimg.kargs +
				      dimg.shave[0].args_offset) + k;
}

static void dexpect(const char *what, const char *what2, const char *name)
{
	int r = lf_validate(&dimg);

	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), what) &&
		  strstr(vpux_last_error(), what2),
		  "%s: refused (%d, '%s')", name, r, vpux_last_error());
	dfresh();
}

static void test_dynamic_memref(void)
{
	struct lf_image im;
	struct vpux_lf_ref r;

	dfresh();
	tap_check(lf_validate(&dimg) == 0,
		  "1.2: DMA from the symbol buffer, dynamic SHAVE memrefs: valid (%s)",
		  vpux_last_error());
	tap_check(!dmemref(0)->is_static && !dmemref(1)->is_static &&
		  dmemref(0)->dims_addr == VPUX_WADDR(2, 0) &&
		  dmemref(1)->dims_addr == VPUX_WADDR(3, 0) &&
		  dmemref(0)->dims[0] == 64 && dmemref(0)->dims[1] == 16 &&
		  dimg.shave[0].windows[2].tensor == D_XD &&
		  dimg.shave[0].windows[3].tensor == D_YD &&
		  dimg.tensors[D_RV].region ==
		  VPUX_LF_REGION(VPUX_LF_RK_SYMBOLS, 0),
		  "vpux-asm: in_dims/out_dims in windows 2 and 3, dims the max, region symbols");

	/* the symbol-buffer region */
	dimg.hdr.version_minor = 1;
	dexpect(".vpux.tensors: record 2: field region", "from format 1.2",
		"symbol-buffer tensor in a 1.1 file");
	dimg.tensors[D_RV].offset = 8;
	dexpect("record 2: field offset/size", "(8 bytes)",
		"symbol-buffer tensor past 8 * n_symbols bytes");
	r = dimg.dma[0].src;
	dimg.dma[0].src = dimg.dma[0].dst;
	dimg.dma[0].dst = r;
	dexpect(".vpux.ops.dma: record 0: field dst", "only a DMA source",
		"DMA writing the symbol buffer");
	dimg.shave[0].windows[5] = (struct vpux_lf_ref){ D_RV, 0, 0, 4 };
	dexpect(".vpux.ops.shave: record 0: field windows[5]",
		"only a DMA source", "SHAVE window on the symbol buffer");
	if (asm_text("nosym", "output y i8 4\n"
		     "tensor s i32 1 region=symbols offset=0\n"
		     "dma src=s dst=y\n", NULL, &im, stderr))
		abort();
	tap_check(lf_validate(&im) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "field region") &&
		  strstr(vpux_last_error(), "without symbols"),
		  "symbol-buffer tensor in a network without symbols: refused (%s)",
		  vpux_last_error());
	asm_free(&im);

	/* dynamic memrefs */
	dimg.tensors[D_RV].region = VPUX_LF_REGION(VPUX_LF_RK_SCRATCH, 0);
	dimg.tensors[D_RV].offset = 64;
	tap_check(lf_validate(&dimg) == 0, "1.2 without the symbol region: valid");
	dimg.hdr.version_minor = 1;
	dexpect("field args.in", "is_static 0",
		"dynamic memref in a 1.1 file");
	dmemref(0)->is_static = 2;
	dexpect("field args.in", "is_static 2", "memref is_static 2");
	dmemref(1)->rank = 0;
	dexpect("field args.out", "rank 0", "memref of rank 0");
	dmemref(0)->is_static = 1;
	dexpect("field args.in.dims_addr", "in a static memref",
		"static memref with a dims_addr");
	dmemref(0)->dims_addr = VPUX_WADDR(5, 0);
	dexpect("field args.in.dims_addr", "window 5 not set",
		"dims_addr in an unset window");
	dmemref(1)->dims_addr = VPUX_WADDR(3, 2);
	dexpect("field args.out.dims_addr", "not 4-byte aligned",
		"dims_addr not aligned");
	dmemref(0)->dims_addr = VPUX_WADDR(2, 4);
	dexpect("field args.in.dims_addr", "2 dims (8 bytes) at offset 4 of window 2",
		"dims record past its window");
	dimg.shave[0].windows[3] = (struct vpux_lf_ref){ D_WD, 0, 0, 8 };
	dexpect("field args.out.dims_addr", "read-only weights",
		"output dims written into the weights");
	dimg.shave[0].windows[2] = (struct vpux_lf_ref){ D_WD, 0, 0, 8 };
	tap_check(lf_validate(&dimg) == 0,
		  "input dims read from the weights: valid (%s)",
		  vpux_last_error());
	dfresh();
	dmemref(0)->dims[0] = 65;
	dexpect("field args.in", "spans 1040 bytes",
		"dynamic memref's upper bounds past its window");
	asm_free(&dimg);
}

static void *bytes(size_t *n)
{
	void *p;

	fresh();
	if (lf_write_mem(&img, &p, n))
		abort();
	return p;
}

static int parse(const void *p, size_t n)
{
	struct lf_image i;
	int r = lf_parse(p, n, &i);

	if (!r)
		r = lf_validate(&i);
	lf_image_free(&i);
	return r;
}

static void expect_bytes(const void *p, size_t n, int code, const char *what,
			 const char *name)
{
	int r = parse(p, n);

	tap_check(r == code && strstr(vpux_last_error(), what),
		  "%s: %s (%d, '%s')", name, code ? "refused" : "accepted", r,
		  vpux_last_error());
}

/* section header @i of the ELF image at @p */
static Elf64_Shdr *shdr(void *p, unsigned int i)
{
	Elf64_Ehdr *eh = p;

	return (Elf64_Shdr *)((char *)p + eh->e_shoff) + i;
}

/* index of the section called @name */
static unsigned int sec_index(void *p, const char *name)
{
	Elf64_Ehdr *eh = p;
	Elf64_Shdr *str = shdr(p, eh->e_shstrndx);
	unsigned int i;

	for (i = 1; i < eh->e_shnum; i++)
		if (!strcmp((char *)p + str->sh_offset + shdr(p, i)->sh_name,
			    name))
			return i;
	return 0;
}

static void rewrite(int code, const char *what, const char *name)
{
	void *p;
	size_t n;

	if (lf_write_mem(&img, &p, &n))
		abort();
	expect_bytes(p, n, code, what, name);
	free(p);
	fresh();
}

static void test_container(void)
{
	char vbuf[128];
	struct lf_extra_section ex;
	unsigned char *p, *q;
	size_t n, i, bad = 0;
	unsigned int s;

	p = bytes(&n);
	tap_check(parse(p, n) == 0, "written base loadable parses (%zu bytes)", n);
	q = malloc(n + 1);
	memcpy(q + 1, p, n);
	tap_check(parse(q + 1, n) == 0, "a loadable at an odd address parses");
	free(q);
	for (i = 0; i < n; i++)
		bad += parse(p, i) == 0;
	tap_check(!bad, "every truncation (0..%zu bytes) is refused", n - 1);
	expect_bytes(p, 10, VPUX_E_FORMAT, "truncated", "truncated header");

	q = malloc(n);
	memcpy(q, p, n);
	q[1] = 'X';
	expect_bytes(q, n, VPUX_E_FORMAT, "bad magic", "bad ELF magic");
	memcpy(q, p, n);
	q[EI_CLASS] = ELFCLASS32;
	expect_bytes(q, n, VPUX_E_FORMAT, "ELF64", "ELF32 class");

	memcpy(q, p, n);
	s = sec_index(q, VPUX_LF_SEC_WEIGHTS);
	shdr(q, s)->sh_offset = n - 8;
	expect_bytes(q, n, VPUX_E_FORMAT, "outside the file",
		     "section out of bounds");
	memcpy(q, p, n);
	shdr(q, s)->sh_size = ~0ull;
	expect_bytes(q, n, VPUX_E_FORMAT, "outside the file",
		     "section size overflow");
	memcpy(q, p, n);
	shdr(q, s)->sh_offset = shdr(q, s - 1)->sh_offset;
	expect_bytes(q, n, VPUX_E_FORMAT, "overlaps", "overlapping sections");
	memcpy(q, p, n);
	((Elf64_Ehdr *)q)->e_shoff = n - 16;
	expect_bytes(q, n, VPUX_E_FORMAT, "section table outside",
		     "section table out of bounds");

	memcpy(q, p, n);
	q[shdr(q, s)->sh_offset + sizeof(struct vpux_lf_sechdr) + 3] ^= 1;
	expect_bytes(q, n, VPUX_E_CHECKSUM, ".vpux.weights: checksum",
		     "bad checksum (weights)");
	memcpy(q, p, n);
	s = sec_index(q, VPUX_LF_SEC_TENSORS);
	q[shdr(q, s)->sh_offset + sizeof(struct vpux_lf_sechdr) + 40] ^= 1;
	expect_bytes(q, n, VPUX_E_CHECKSUM, ".vpux.tensors: checksum",
		     "bad checksum (tensors)");
	memcpy(q, p, n);
	((struct vpux_lf_sechdr *)(q + shdr(q, s)->sh_offset))->count += 1;
	expect_bytes(q, n, VPUX_E_FORMAT, ".vpux.tensors: count",
		     "record count disagrees with the section size");
	memcpy(q, p, n);
	((struct vpux_lf_sechdr *)(q + shdr(q, s)->sh_offset))->magic = 1;
	expect_bytes(q, n, VPUX_E_FORMAT, "field magic", "bad section magic");
	memcpy(q, p, n);
	((struct vpux_lf_sechdr *)(q + shdr(q, s)->sh_offset))->flags |= 0x80;
	expect_bytes(q, n, VPUX_E_FORMAT, "flags", "unknown section flag");
	free(q);
	free(p);

	fresh();
	img.hdr.version_major = 2;
	snprintf(vbuf, sizeof(vbuf), ".vpux.header: version 2.%u",
		 VPUX_LF_VERSION_MINOR);
	rewrite(VPUX_E_VERSION, vbuf, "unknown major");
	img.hdr.version_major = 1;
	img.hdr.version_minor = VPUX_LF_VERSION_MINOR + 1;
	snprintf(vbuf, sizeof(vbuf), "version 1.%u, this reader supports 1.0..1.%u",
		 VPUX_LF_VERSION_MINOR + 1, VPUX_LF_VERSION_MINOR);
	rewrite(VPUX_E_VERSION, vbuf, "newer minor");
	img.hdr.magic = 7;
	rewrite(VPUX_E_FORMAT, ".vpux.header: field magic", "bad header magic");

	img.rec_extra = 24;
	img.hdr.version_minor = VPUX_LF_VERSION_MINOR;
	rewrite(0, "", "records longer than known (a newer minor's added fields) are read by their known prefix");
	{
		void *p1, *p2;
		size_t n1, n2;
		struct lf_image a;

		img.rec_extra = 16;
		lf_write_mem(&img, &p1, &n1);
		img.rec_extra = 0;
		lf_parse(p1, n1, &a);
		lf_write_mem(&a, &p2, &n2);	/* known record sizes */
		lf_image_free(&a);
		free(p1);
		lf_write_mem(&img, &p1, &n1);
		tap_check(n1 == n2 && !memcmp(p1, p2, n1),
			  "padded records parse to exactly the same network");
		free(p1);
		free(p2);
		fresh();
	}
	ex = (struct lf_extra_section){ ".vpux.future", 0, "abcd", 4, 0, 0 };
	img.extra = &ex;
	img.n_extra = 1;
	rewrite(0, "", "unknown optional section is skipped");
	ex.flags = VPUX_LF_SEC_REQUIRED;
	img.extra = &ex;
	img.n_extra = 1;
	rewrite(VPUX_E_REQUIRED, ".vpux.future: unknown section flagged required",
		"unknown required section fails naming it");
	ex = (struct lf_extra_section){ VPUX_LF_SEC_SYMBOLS, 0, NULL, 0, 0, 0 };
	img.extra = &ex;
	img.n_extra = 1;
	rewrite(VPUX_E_FORMAT, "appears twice", "duplicate section");
	{	/* a section given whole (raw): written as it is */
		struct {
			struct vpux_lf_sechdr h;
			uint32_t rec[2];
		} raw = { { VPUX_LF_SEC_MAGIC, 0, 24, 8, 1, 0, 0 }, { 1, 2 } };

		raw.h.crc32 = (uint32_t)crc32(0, (const void *)raw.rec,
					      sizeof(raw.rec));
		ex = (struct lf_extra_section){ ".vpux.future", 0, &raw,
						sizeof(raw), 0, 1 };
		img.extra = &ex;
		img.n_extra = 1;
		rewrite(0, "", "a raw optional section (rec_size 8) is skipped");
		raw.h.crc32 ^= 1;
		img.extra = &ex;
		img.n_extra = 1;
		rewrite(VPUX_E_CHECKSUM, ".vpux.future: checksum mismatch",
			"a raw section is written as given (its bad CRC found)");
	}
	asm_free(&img);
}

static void test_asm_errors(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "output y i8 4\nfoo\n", "test:2:1: error: unknown statement" },
		{ "output y q8 4\n", "test:1:10: error: unknown type" },
		{ "output y i8 4\ndpu conv in=zz out=y\n",
		  "test:2:10: error: unknown tensor 'zz'" },
		{ "output y i8 4\ndma src=y[2:9] dst=y\n",
		  "test:2:5: error: bad sub-range" },
		{ "output y i8 4 order=0x11\n", "error: order 0x11" },
		{ "output y i8 4\nshave gelu in=y out=y\n",
		  "test:2:7: error: unknown kernel" },
		{ "output y i8 4\ntensor w i8 4 region=weights fill=seed\n",
		  "test:2:30: error: bad fill" },
		{ "symbol r axis 1..4\ninput x i8 $rx4\noutput y i8 $rx4\n"
		  "tensor d i32 2\nshave clamp in=x out=y out_dims=d min=0 max=1\n",
		  "test:5:1: error: tensor 'x' has dynamic dims: in_dims=OP needed" },
		{ "symbol r axis 1..4\ninput x i8 $rx4\noutput y i8 $rx4\n"
		  "tensor d i32 2\nshave clamp in=x out=y in_dims=d min=0 max=1\n",
		  "test:5:1: error: tensor 'y' has dynamic dims: out_dims=OP needed" },
		{ "symbol r axis 1..4\ninput x i8 $rx4\noutput y i8 $rx4\n"
		  "tensor d i32 3\nshave clamp in=x out=y in_dims=d out_dims=d[0:8] min=0 max=1\n",
		  "test:5:24: error: in_dims: 12 bytes, the 2 dims of 'x' take 8" },
		{ "symbol r axis 1..4\ninput x i8 $rx4\noutput y i8 4x4\n"
		  "tensor d i32 2\nshave clamp in=x out=y in_dims=d out_dims=d min=0 max=1\n",
		  "test:5:34: error: out_dims= given, but tensor 'y' has static dims" },
		{ "symbol r axis 1..4\noutput y i8 4\ntensor s i32 1 region=symbols\n",
		  "test:3:1: error: offset= needed in an I/O, CMX or symbols region" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[512] = "";
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
		struct lf_image im;
		int r = asm_text("test", cases[i].text, NULL, &im, f);

		fclose(f);
		tap_check(r && strstr(buf, cases[i].msg),
			  "vpux-asm error with file:line:col: %s", buf);
	}
}

int main(void)
{
	test_semantic();
	test_dynamic_memref();
	test_container();
	test_asm_errors();
	return tap_finish();
}

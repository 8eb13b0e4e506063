// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ELF kernels in the loadable (1.5, Documentation/loadable.rst): one test
 * per rule of .vpux.kernels, .vpux.kinvocations, .vpux.kstacks and of an
 * ELF SHAVE op, each with its message; the ELF reader on the SDK's kernel
 * and on broken copies of it; the assembler's errors; and loadables with
 * ELF kernels run in process (the SDK's softmax_f bit-equal to the
 * built-in kernel, a trapping kernel failing its request).
 */
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "lf.h"
#include "lf_kernels.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_shave_abi.h"
#include "vpux_shave_rt.h"
#include "vpux_tap.h"

#ifndef VPUX_KERNEL_DIR
#define VPUX_KERNEL_DIR BUILDDIR "/kernels"
#endif

/* li a0, 0; ret -- and an EBREAK */
#define RET0 "1305000067800000"
#define BRK "73001000"

static const char *base =
	"network t\n"
	"kernel k0 entry=0 code=" RET0 "\n"
	"kernel k1 entry=4 code=" RET0 "\n"
	"stack 0 1024\n"
	"input x f32 16\n"
	"output y f32 16\n"
	"tensor k u8 128 region=weights fill=const:0\n"
	"tensor wf u8 128 offset=0\n"
	"tensor wx f32 16 offset=0\n"
	"tensor wy f32 16 offset=64\n"
	"tensor w2 u8 64 offset=128\n"
	"dma src=x dst=wx\n"
	"shave elf k0 win_f=wf in=wx out=wy params=01000000 data=00000000 tile=0 budget=4\n"
	"shave elf k1 win_f=w2\n"
	"dma src=wy dst=y\n";

static struct lf_image img;

static void fresh(void)
{
	if (img.tensors)
		asm_free(&img);
	if (asm_text("base", base, NULL, &img, stderr))
		abort();
}

static void expect(const char *what, const char *name)
{
	int r = lf_validate(&img);

	tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), what),
		  "%s: refused ('%s')", name, vpux_last_error());
	fresh();
}

static struct vpux_memref *memref(unsigned int k)
{
	return (struct vpux_memref *)(void *)((uint8_t *)img.kargs +
		img.shave[0].args_offset + k * VPUX_LF_MEMREF_SIZE);
}

static void test_rules(void)
{
	fresh();
	tap_check(lf_validate(&img) == 0, "base network with two ELF ops is valid (%s)",
		  vpux_last_error());
	tap_check(img.hdr.version_minor == 5 && img.n_kernels == 2 &&
		  img.n_kinvs == 2 && img.n_kstacks == 1 &&
		  img.kinvs[0].memrefs == 3 && img.kinvs[0].memrefs_out == 2 &&
		  img.shave[0].args_size == 2 * VPUX_LF_MEMREF_SIZE + 4,
		  "assembled: 1.5, 2 kernels, 2 invocations, memrefs 0x3/0x2");

	/* .vpux.kernels */
	img.kernels[1].name[0] = 0;
	expect(".vpux.kernels: record 1: field name: empty", "kernel name empty");
	strcpy(img.kernels[1].name, "k0");
	expect(".vpux.kernels: record 1: field name: 'k0' not unique (record 0)",
	       "kernel name twice");
	img.kernels[0].kind = VPUX_LF_KERNEL_RUNTIME;
	expect(".vpux.kinvocations: record 0: field kernel: 0 is the runtime kernel, not a task kernel",
	       "an invocation of the runtime kernel");
	img.kernels[0].kind = 7;
	expect(".vpux.kernels: record 0: field kind: 7 unknown (1 a task kernel, 2 the runtime kernel)",
	       "kernel kind");
	img.kernels[0].flags = 1;
	expect(".vpux.kernels: record 0: field flags: 0x1 not zero", "kernel flags");
	img.kernels[0].reserved[2] = 1;
	expect(".vpux.kernels: record 0: field reserved: not zero", "kernel reserved");
	img.kernels[0].code_size = 6;
	expect(".vpux.kernels: record 0: field code_size: 6 not 4..1048576",
	       "code_size not a multiple of 4");
	img.kernels[0].code_size = 0;
	expect(".vpux.kernels: record 0: field code_size: 0 not", "code_size 0");
	img.kernels[1].code_offset = 4;
	expect(".vpux.kernels: record 1: field code_offset: 4 (+8) unaligned or outside .vpux.kcode (16 bytes)",
	       "code_offset unaligned");
	img.kernels[1].code_offset = 16;
	expect(".vpux.kernels: record 1: field code_offset: 16 (+8) unaligned or outside",
	       "code past .vpux.kcode");
	img.kernels[0].entry = 8;
	expect(".vpux.kernels: record 0: field entry: 8 odd or not below code_size 8",
	       "entry past the code");
	img.kernels[0].entry = 3;
	expect(".vpux.kernels: record 0: field entry: 3 odd", "entry odd");

	/* .vpux.kstacks */
	img.kstacks[0].stack_size = 128;
	expect(".vpux.kstacks: record 0: field stack_size: 128 not 256..262144 bytes, a multiple of 16",
	       "stack below the minimum");
	img.kstacks[0].stack_size = (256u << 10) + 16;
	expect(".vpux.kstacks: record 0: field stack_size: 262160", "stack above the maximum");
	img.kstacks[0].stack_size = 1000;
	expect(".vpux.kstacks: record 0: field stack_size: 1000", "stack misaligned");
	img.kstacks[0].reserved = 1;
	expect(".vpux.kstacks: record 0: field reserved: not zero", "stack reserved");
	img.n_kstacks = 5;
	expect(".vpux.kstacks: 5 records, target 1 has 4 tiles", "stacks of 5 tiles");

	/* .vpux.kinvocations */
	img.kinvs[1].op = 9;
	expect(".vpux.kinvocations: record 1: field op: 9, there are 2 SHAVE ops",
	       "invocation of no op");
	img.kinvs[1].op = 0;
	expect(".vpux.kinvocations: record 1: field op: 0 after 0: not in increasing order",
	       "invocations out of order");
	img.shave[1].kernel_id = VPUX_SHAVE_KERNEL_CLAMP;
	expect(".vpux.kinvocations: record 1: field op: SHAVE op 1 runs built-in kernel 1, not an ELF kernel (0x100)",
	       "invocation of a built-in kernel op");
	img.kinvs[0].kernel = 2;
	expect(".vpux.kinvocations: record 0: field kernel: 2, there are 2 kernels",
	       "invocation of no kernel");
	img.kinvs[0].tile = 1;
	expect(".vpux.kinvocations: record 0: field tile: 1 has no stack configuration (1 tiles in .vpux.kstacks)",
	       "tile without a stack");
	img.kinvs[0].budget = VPUX_SHAVE_BUDGET_MAX + 1;
	expect(".vpux.kinvocations: record 0: field budget: 4194305 above 4194304",
	       "budget above the maximum");
	img.kinvs[0].data_size = 2;
	expect(".vpux.kinvocations: record 0: field data_size: 2 above", "data_size odd");
	img.kinvs[0].data_size = VPUX_SHAVE_DATA_MAX + 4;
	expect(".vpux.kinvocations: record 0: field data_size: 1048580", "data_size above max");
	img.kinvs[0].data_offset = 8;
	expect(".vpux.kinvocations: record 0: field data_offset: 8 (+4) unaligned or outside .vpux.kdata (4 bytes)",
	       "RW data past .vpux.kdata");
	img.kinvs[0].memrefs_out = 4;
	expect(".vpux.kinvocations: record 0: field memrefs_out: 0x4 not within memrefs 0x3",
	       "memrefs_out not a subset");
	img.kinvs[0].reserved[3] = 1;
	expect(".vpux.kinvocations: record 0: field reserved: not zero",
	       "invocation reserved");
	img.n_kinvs = 1;
	expect(".vpux.ops.shave: record 1: field kernel_id: an ELF kernel task without a record in .vpux.kinvocations",
	       "ELF op without an invocation");

	/* the ELF op */
	img.hdr.version_minor = 4;
	expect(".vpux.kernels: ELF kernels in a 1.4 file (they are 1.5)",
	       "kernels in a 1.4 file");
	img.shave[0].args_size = VPUX_SHAVE_ARGS_MAX + 1;
	expect(".vpux.ops.shave: record 0: field args_size: 4097 above 4096",
	       "arguments too large");
	img.shave[0].args_offset += 4;
	expect(".vpux.ops.shave: record 0: field args_offset:", "arguments unaligned");
	img.shave[1].windows[3] = img.shave[1].windows[0];
	expect(".vpux.ops.shave: record 1: field windows[3]: set: an ELF kernel has one window, WIN_F (windows[0])",
	       "a second window");
	img.shave[1].windows[0].size = VPUX_SHAVE_WIN_F_MAX + 1;
	expect(".vpux.ops.shave: record 1: field windows[0]: 134217729 bytes: WIN_F takes at most 134217728",
	       "WIN_F too large");
	img.shave[1].windows[0].tensor = 2;	/* k, in the weights */
	expect(".vpux.ops.shave: record 1: field windows[0]: writes tensor 'k' in the read-only weights",
	       "WIN_F in the weights");
	img.shave[1].windows[0].offset = 32;
	expect(".vpux.ops.shave: record 1: field windows[0]: [32, +64) outside tensor 'w2'",
	       "WIN_F outside its tensor");
	memref(0)->addr = VPUX_WADDR(14, 0);
	expect(".vpux.ops.shave: record 0: field args.memref[0]: address 0xe0000000: an ELF kernel's memrefs are in WIN_F",
	       "memref outside WIN_F");
	memref(1)->is_static = 0;
	expect(".vpux.ops.shave: record 0: field args.memref[1]: is_static 0 dims_addr 0x0: an ELF kernel's memrefs are static",
	       "dynamic memref");
	memref(0)->rank = 0;
	expect(".vpux.ops.shave: record 0: field args.memref[0]: rank 0 not in 1..6",
	       "memref rank 0");
	memref(0)->data_type = 9;
	expect(".vpux.ops.shave: record 0: field args.memref[0]: data_type 9",
	       "memref data type");
	memref(1)->addr = VPUX_SHAVE_WIN_F + 100;
	expect(".vpux.ops.shave: record 0: field args.memref[1]: spans 64 bytes at offset 100 of WIN_F (windows[0], 128 bytes)",
	       "memref past WIN_F");
	img.kinvs[0].memrefs = 7;
	expect(".vpux.ops.shave: record 0: field args.memref[2]: past the 212 argument bytes",
	       "memref past the arguments");
	asm_free(&img);
}

/* a loadable's runtime kernel (.vpux.kernels kind 2) */
static void test_runtime_rules(void)
{
	struct lf_image r;
	const char *text =
		"kernel k0 entry=0 code=" RET0 "\n"
		"kernel rt kind=runtime entry=4 code=" RET0 "\n"
		"kernel r2 kind=runtime entry=0 code=" RET0 "\n"
		"output y f32 4\ntensor t f32 4\nshave elf k0 win_f=t in=t\n"
		"dma src=t dst=y\n";
	static const struct {
		const char *msg;
		int what;
	} bad[] = {
		{ ".vpux.kernels: record 2: field kind: 2, a second runtime kernel (record 1 is one)", 0 },
		{ ".vpux.kernels: record 1: field code_size: 65540 not 4..65536 bytes", 1 },
		{ ".vpux.kernels: record 1: field code_size: 6 not 4..65536 bytes", 2 },
		{ ".vpux.kernels: record 1: field entry: 8 odd or not below code_size 8", 3 },
		{ ".vpux.kernels: record 1: field entry: 3 odd", 4 },
		{ ".vpux.kinvocations: record 0: field kernel: 1 is the runtime kernel", 5 },
	};
	unsigned int i;

	memset(&r, 0, sizeof(r));
	tap_check(!asm_text("rt", text, NULL, &r, stderr) && r.n_kernels == 3 &&
		  r.kernels[1].kind == VPUX_LF_KERNEL_RUNTIME &&
		  r.kernels[1].entry == 4,
		  "kernel kind=runtime assembles to a kind 2 record");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret;

		if (bad[i].what)
			r.kernels[2].kind = VPUX_LF_KERNEL_TASK;
		switch (bad[i].what) {
		case 1: r.kernels[1].code_size = VPUX_SHAVE_RT_CODE_MAX + 4; break;
		case 2: r.kernels[1].code_size = 6; break;
		case 3: r.kernels[1].entry = 8; break;
		case 4: r.kernels[1].entry = 3; break;
		case 5: r.kinvs[0].kernel = 1; break;
		}
		ret = lf_validate(&r);
		tap_check(ret == VPUX_E_FORMAT && strstr(vpux_last_error(), bad[i].msg),
			  "runtime kernel refused: %s", vpux_last_error());
		asm_free(&r);
		memset(&r, 0, sizeof(r));
		if (asm_text("rt", text, NULL, &r, stderr))
			abort();
	}
	r.kernels[2].kind = VPUX_LF_KERNEL_TASK;
	tap_check(lf_validate(&r) == 0, "one runtime kernel is valid (%s)",
		  vpux_last_error());
	asm_free(&r);
}

/* the SDK's softmax_f.elf, and broken copies of it */
static void test_elf_reader(void)
{
	size_t n, nb;
	uint8_t *elf = read_file(VPUX_KERNEL_DIR "/softmax_f.elf", &n);
	uint8_t *bin = read_file(VPUX_KERNEL_DIR "/softmax_f.bin", &nb);
	uint8_t *img_, *c;
	uint32_t size, entry;
	Elf32_Ehdr *eh;
	Elf32_Phdr *ph;
	static const struct {
		const char *msg;
		int what;
	} bad[] = {
		{ "not a 32-bit little-endian RISC-V ELF (class 2, machine 243)", 0 },
		{ "e_type 1: a kernel is a linked executable (ET_EXEC", 1 },
		{ "segment 0 at 0xd0000000 is writable: a kernel has no RW data", 2 },
		{ "segment 0 [0xe0000000, +0xaf4) not in WIN_D [0xd0000000, 0xd0100000)", 3 },
		{ "the image starts at 0xd0000010, not at WIN_D (0xd0000000)", 4 },
		{ "entry point 0xd0000af4 not in the image [0xd0000000, 0xd0000af4)", 5 },
		{ "not an ELF file", 6 },
		{ "no program headers", 7 },
	};
	unsigned int i;

	if (!elf || !bin) {
		tap_skip("no SDK kernels in " VPUX_KERNEL_DIR);
		free(elf);
		free(bin);
		return;
	}
	tap_check(!lf_kernel_from_elf(elf, n, "softmax_f.elf", &img_, &size, &entry) &&
		  size == nb && entry == 0 && !memcmp(img_, bin, nb),
		  "softmax_f.elf: its image is softmax_f.bin (%u bytes), entry 0", size);
	free(img_);
	c = malloc(n);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[32];
		int r;

		memcpy(c, elf, n);
		eh = (Elf32_Ehdr *)(void *)c;
		ph = (Elf32_Phdr *)(void *)(c + eh->e_phoff);
		switch (bad[i].what) {
		case 0: c[EI_CLASS] = ELFCLASS64; break;
		case 1: eh->e_type = ET_REL; break;
		case 2: ph->p_flags |= PF_W; break;
		case 3: ph->p_vaddr = 0xe0000000u; break;
		case 4: ph->p_vaddr += 16; break;
		case 5: eh->e_entry = VPUX_SHAVE_WIN_D + ph->p_memsz; break;
		case 6: c[1] = 'X'; break;
		case 7: eh->e_phnum = 0; break;
		}
		snprintf(what, sizeof(what), "k%u.elf", i);
		img_ = NULL;
		r = lf_kernel_from_elf(c, n, what, &img_, &size, &entry);
		tap_check(r == VPUX_E_FORMAT && strstr(vpux_last_error(), bad[i].msg) &&
			  !strncmp(vpux_last_error(), what, strlen(what) - 4) && !img_,
			  "ELF refused: %s", vpux_last_error());
	}
	free(c);
	free(elf);
	free(bin);

	/* the runtime kernel: linked at WIN_R */
	elf = read_file(VPUX_KERNEL_DIR "/runtime.elf", &n);
	bin = read_file(VPUX_KERNEL_DIR "/runtime.bin", &nb);
	tap_check(elf && bin &&
		  !lf_kernel_from_elf_at(elf, n, "runtime.elf", 1, &img_, &size, &entry) &&
		  size == nb && entry == 0 && !memcmp(img_, bin, nb),
		  "runtime.elf as the runtime kernel: its image is runtime.bin (%u bytes), entry 0",
		  (unsigned int)nb);
	free(img_);
	img_ = NULL;
	tap_check(elf && lf_kernel_from_elf(elf, n, "runtime.elf", &img_, &size, &entry) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "'runtime.elf'") == NULL &&
		  strstr(vpux_last_error(), "runtime.elf: segment 0 [0xa0000000, +0x") &&
		  strstr(vpux_last_error(), ") not in WIN_D [0xd0000000, 0xd0100000)") && !img_,
		  "runtime.elf as a task kernel: refused (%s)", vpux_last_error());
	free(elf);
	free(bin);
	elf = read_file(VPUX_KERNEL_DIR "/softmax_f.elf", &n);
	tap_check(elf && lf_kernel_from_elf_at(elf, n, "softmax_f.elf", 1, &img_, &size, &entry) == VPUX_E_FORMAT &&
		  strstr(vpux_last_error(), "softmax_f.elf: segment 0 [0xd0000000, +0x") &&
		  strstr(vpux_last_error(), ") not in WIN_R [0xa0000000, 0xa0010000)") && !img_,
		  "a task kernel's ELF as the runtime kernel: refused (%s)", vpux_last_error());
	free(elf);
}

/* a kernel, WIN_F w and two tensors in it (lines 1 to 5) */
#define LIKE "kernel a entry=0 code=" RET0 "\noutput y f32 4\n" \
	"tensor w u8 64 offset=0\ntensor t f32 4 offset=0\n" \
	"tensor o f32 4 offset=16\n"

static void test_asm_errors(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "output y f32 4\nshave elf nope win_f=y\n",
		  "test:2:11: error: unknown kernel 'nope' (declare it first" },
		{ "kernel a entry=0 code=" RET0 "\nkernel a entry=0 code=" RET0 "\n",
		  "test:2:8: error: kernel 'a' already declared" },
		{ "kernel a entry=0 code=130500\n",
		  "test:1:1: error: kernel a: 3 bytes of code" },
		{ "kernel a entry=2 code=" BRK "x1\n",
		  "test:1:18: error: bad hex digit at byte 4" },
		{ "kernel a code=" RET0 "\n",
		  "test:1:1: error: kernel a: code= needs entry=" },
		{ "kernel a entry=8 code=" RET0 "\n",
		  "test:1:1: error: kernel a: entry 8 odd or not below the 8 bytes" },
		{ "kernel a file=/nonexistent.elf\n",
		  "test:1:10: error: cannot open '/nonexistent.elf'" },
		{ "kernel a kind=bogus entry=0 code=" RET0 "\n",
		  "test:1:10: error: kind=bogus: task or runtime" },
		{ "stack 0 100\n", "test:1:9: error:" },
		{ "stack 0 1000\n", "test:1:9: error: 1000: a multiple of 16" },
		{ "stack 0 1024\nstack 0 2048\n", "test:2:7: error: tile 0's stack already given" },
		{ "kernel a entry=0 code=" RET0 "\noutput y f32 4\ntensor t f32 4\n"
		  "shave elf a in=t out=t\n", "test:4:13: error: in=/out= need win_f=" },
		{ "kernel a entry=0 code=" RET0 "\noutput y f32 4\ntensor t f32 4\n"
		  "tensor u f32 4\nshave elf a win_f=t in=u\n",
		  "test:5:1: error: tensor 'u' is not inside win_f (tensor 't' [0, +16))" },
		{ "kernel a entry=0 code=" RET0 "\noutput y f32 4\ntensor t f32 4\n"
		  "shave elf a win_f=t args=00 in=t\n",
		  "error: args= is the whole record: no in=, out= or params=" },
		{ "kernel a entry=0 code=" RET0 "\noutput y f32 4\ntensor t f32 4\n"
		  "shave elf a win_f=t data=000000\n",
		  "test:4:1: error: data=: 3 bytes, a multiple of 4" },
		/* the built-in kernel's form (like=) */
		{ LIKE "shave elf a like=softmax_f in=t out=o\n",
		  "test:6:1: error: like= needs win_f=" },
		{ LIKE "shave elf a win_f=w like=softmax_f in=t out=o params=00\n",
		  "test:6:47: error: like= gives the arguments: no params=" },
		{ LIKE "shave elf a win_f=w like=kernel=10 in=t out=o\n",
		  "test:6:21: error: like=: a built-in kernel by name, not kernel=N" },
		{ LIKE "shave elf a win_f=w like=nope in=t out=o\n",
		  "test:6:26: error: unknown kernel 'nope' (" },
		{ LIKE "shave elf a win_f=w like=softmax_f in=t[0:8] out=o\n",
		  "test:6:36: error: like=: in= is tensor 't' whole, not a range" },
		{ LIKE "tensor u f32 4\nshave elf a win_f=w like=softmax_f in=t out=u\n",
		  "test:7:41: error: tensor 'u' is not inside win_f (tensor 'w' [0, +64))" },
		{ LIKE "shave elf a win_f=w like=softmax_f in=t out=o axis=1\n",
		  "test:6:47: error: axis=1" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[512] = "";
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
		struct lf_image im;
		int r = asm_text("test", cases[i].text, NULL, &im, f);

		fclose(f);
		tap_check(r && strstr(buf, cases[i].msg),
			  "vpux-asm refuses: %s", buf);
	}
}

/* run @data in process with input 0 = @in; outputs into @out[i] */
static int run(const void *data, size_t size, const void *in, size_t in_size,
	       void *out[2], size_t out_size, unsigned int no)
{
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *b[3] = { NULL, NULL, NULL };
	unsigned int i;
	int r;

	r = vpux_device_open("inproc", &dev);
	if (!r)
		r = vpux_network_load(dev, data, size, &net);
	if (!r)
		r = vpux_request_create(net, &req);
	for (i = 0; !r && i <= no; i++)
		r = vpux_buffer_alloc(dev, i ? out_size : in_size, &b[i]);
	if (!r) {
		memcpy(vpux_buffer_map(b[0]), in, in_size);
		r = vpux_request_bind_input(req, 0, b[0], 0);
	}
	for (i = 0; !r && i < no; i++)
		r = vpux_request_bind_output(req, i, b[i + 1], 0);
	if (!r)
		r = vpux_request_submit(req);
	if (!r)
		r = vpux_request_wait(req, 60000);
	for (i = 0; !r && i < no; i++)
		memcpy(out[i], vpux_buffer_map(b[i + 1]), out_size);
	if (!r && net) {
		/* the CPU reference runs no kernel code */
		const void *ins[1] = { in };
		void *outs[2] = { out[0], out[1] };

		r = vpux_network_run_reference(net, ins, outs) ==
		    VPUX_E_UNSUPPORTED &&
		    strstr(vpux_last_error(), "runs ELF kernel") ? 0 : 1000;
	}
	vpux_request_destroy(req);
	for (i = 0; i < 3; i++)
		vpux_buffer_free(b[i]);
	vpux_network_unload(net);
	vpux_device_close(dev);
	return r;
}

static char log[4096];

/* run() with stderr (the engine core's log) captured into @buf */
static int run_log(const void *data, size_t n, const void *in, void **out,
		   char *buf, size_t size)
{
	FILE *tmp = tmpfile();
	int saved, r;
	size_t got;

	fflush(stderr);
	saved = dup(2);
	dup2(fileno(tmp), 2);
	r = run(data, n, in, 16, out, 16, 1);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	got = fread(buf, 1, size - 1, tmp);
	buf[got] = 0;
	fclose(tmp);
	return r;
}

static void test_run(void)
{
	size_t n;
	void *data = read_file(BUILDDIR "/examples/elf_softmax.vpux", &n), *bytes;
	static float in[16 * 64], o0[16 * 64], o1[16 * 64];
	void *out[2] = { o0, o1 };
	unsigned int i, x = 7;
	int r;

	for (i = 0; i < 16 * 64; i++) {
		x = x * 1103515245u + 12345u;
		in[i] = (float)((int)(x >> 16 & 0xfff) - 2048) / 64.0f;
	}
	r = data ? run(data, n, in, sizeof(in), out, sizeof(o0), 2) : -1;
	tap_check(r == 0 && !memcmp(o0, o1, sizeof(o0)) && o0[0] > 0.0f,
		  "elf_softmax in process: the SDK's softmax_f equals the built-in SOFTMAX_F bit for bit (%d: %s)",
		  r, vpux_last_error());
	free(data);

	/* a kernel that traps fails its request, naming the trap */
	r = asm_bytes("kernel brk entry=0 code=" BRK "\n"
		      "input x f32 4\noutput y f32 4\ntensor t f32 4\n"
		      "dma src=x dst=t\nshave elf brk win_f=t in=t\n"
		      "dma src=t dst=y\n", &bytes, &n);
	if (!r)
		r = run(bytes, n, in, 16, out, 16, 1);
	tap_check(r == VPUX_E_DEVICE && strstr(vpux_last_error(), "at op 0 of engine kind 2"),
		  "a trapping ELF kernel fails its request (%d: %s)", r,
		  vpux_last_error());
	free(bytes);

	/* the loadable's own runtime kernel runs the tasks */
	r = asm_bytes("kernel k entry=0 code=" RET0 "\n"
		      "kernel rt kind=runtime file=" VPUX_KERNEL_DIR "/runtime_count.elf\n"
		      "input x f32 4\noutput y f32 4\ntensor t f32 4\n"
		      "dma src=x dst=t\nshave elf k win_f=t in=t\n"
		      "dma src=t dst=y\n", &bytes, &n);
	if (!r)
		r = run(bytes, n, in, 16, out, 16, 1);
	tap_check(r == 0 && !memcmp(o0, in, 16),
		  "a loadable carrying a runtime kernel (runtime_count): its task runs (%d: %s)",
		  r, vpux_last_error());
	free(bytes);
	r = asm_bytes("kernel k entry=0 code=" RET0 "\n"
		      "kernel rt kind=runtime entry=0 code=" BRK "\n"
		      "input x f32 4\noutput y f32 4\ntensor t f32 4\n"
		      "dma src=x dst=t\nshave elf k win_f=t in=t\n"
		      "dma src=t dst=y\n", &bytes, &n);
	if (!r)
		r = run_log(bytes, n, in, out, log, sizeof(log));
	tap_check(r == VPUX_E_DEVICE &&
		  strstr(log, "kernel 1 invocation 0: trap 3 (breakpoint) at pc 0xa0000000"),
		  "a loadable's trapping runtime kernel: it ran, the core names it (kernel 1, pc in WIN_R) (%d: %s)",
		  r, log);
	free(bytes);
	r = asm_bytes("kernel k entry=0 code=" BRK "\n"
		      "input x f32 4\noutput y f32 4\ntensor t f32 4\n"
		      "dma src=x dst=t\nshave elf k win_f=t in=t\n"
		      "dma src=t dst=y\n", &bytes, &n);
	if (!r)
		r = run_log(bytes, n, in, out, log, sizeof(log));
	tap_check(r == VPUX_E_DEVICE &&
		  strstr(log, "kernel 0 invocation 0: trap 3 (breakpoint) at pc 0xd0000000"),
		  "without one, the reference runtime kernel launches the task: its trap names the kernel (%d: %s)",
		  r, log);
	free(bytes);
}

/* VPUX_ELF_SEED=PATH: write the base loadable there (a fuzzer seed) */
static void write_seed(void)
{
	const char *path = getenv("VPUX_ELF_SEED");

	if (!path)
		return;
	fresh();
	if (lf_write_file(&img, path))
		abort();
	asm_free(&img);
}

int main(void)
{
	write_seed();
	test_rules();
	test_runtime_rules();
	test_elf_reader();
	test_asm_errors();
	test_run();
	return tap_finish();
}

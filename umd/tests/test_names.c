// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Tensor names of any length (loadable 1.4, API 1.8): every validation
 * rule of .vpux.names/.vpux.strtab with its message, the vpux-asm
 * name= syntax and its errors, the vpux-dis round trip, an older loadable
 * (1.3, names from .vpux.io or the records), vpux_network_io_name(),
 * vpux_network_find_input/output() and vpux_request_set_input_desc()
 * with each of their errors.
 */
#include <string.h>

#include "err.h"
#include "host_io.h"
#include "lf.h"
#include "vasm.h"
#include "vasm_util.h"
#include "vpux.h"
#include "vpux_tap.h"

#define LONG_IN "model/encoder.layer_0/input:0 with spaces, %, # and = signs"
#define LONG_OUT "logits_of_a_model_whose_output_name_is_long"

static const char *const text =
	"network names\n"
	"input  x i8 4096 name=model/encoder.layer_0/input:0%20with%20spaces,%20%25,%20%23%20and%20=%20signs\n"
	"input  s i8 64 name=short\n"
	"output y i8 4096 name=" LONG_OUT "\n"
	"output z i8 64\n"
	"dma src=x dst=y\n"
	"dma src=s dst=z\n";

static struct vpux_device *dev;
static struct lf_image img;

static void fresh(void)
{
	if (img.tensors)
		asm_free(&img);
	if (asm_text("names", text, NULL, &img, stderr))
		abort();
}

static void expect(int code, const char *what, const char *name)
{
	int r = lf_validate(&img);

	tap_check(r == code && strstr(vpux_last_error(), what),
		  "%s: refused (%d, '%s')", name, r, vpux_last_error());
	fresh();
}

static void test_validate(void)
{
	fresh();
	tap_check(img.n_names == 3 && !strcmp(lf_tensor_name(&img, 0), LONG_IN),
		  "asm: name= unescaped into .vpux.names ('%s')",
		  lf_tensor_name(&img, 0));
	tap_check(!strcmp(lf_tensor_name(&img, 3), "z"),
		  "a tensor without a name record: its record's name");
	tap_check(lf_validate(&img) == 0, "valid with names (%s)",
		  vpux_last_error());

	img.hdr.version_minor = 3;
	expect(VPUX_E_FORMAT, ".vpux.names: in a 1.3 file (names are 1.4)",
	       "names in a 1.3 file");
	{
		const char *keep = img.strtab;

		img.strtab = NULL;
		expect(VPUX_E_FORMAT, ".vpux.strtab: missing (.vpux.names has 3 records)",
		       "names without a string table");
		free((void *)keep);
	}
	((char *)img.strtab)[0] = 'x';
	expect(VPUX_E_FORMAT, ".vpux.strtab: ",
	       "string table not starting with NUL");
	((char *)img.strtab)[img.strtab_size - 1] = 'x';
	expect(VPUX_E_FORMAT, "must start and end with a NUL byte",
	       "string table not ending with NUL");
	img.names[1].tensor = 9;
	expect(VPUX_E_FORMAT, ".vpux.names: record 1: field tensor: 9, there are 4 tensors",
	       "name of a tensor that does not exist");
	img.names[1].tensor = 0;
	expect(VPUX_E_FORMAT, ".vpux.names: record 1: field tensor: 0 after 0: not in increasing order",
	       "two names for one tensor");
	img.names[2].name = img.strtab_size;
	expect(VPUX_E_FORMAT, ".vpux.names: record 2: field name: offset",
	       "name offset past the string table");
	img.names[0].name = 0;
	expect(VPUX_E_FORMAT, ".vpux.names: record 0: field name: offset 0 not within",
	       "name offset 0 (the leading NUL)");
	img.names[1].name = img.names[0].name + (uint32_t)strlen(LONG_IN);
	expect(VPUX_E_FORMAT, ".vpux.names: record 1: field name: offset",
	       "an empty name");
	img.names[2].name = img.names[0].name;
	expect(VPUX_E_FORMAT, ".vpux.names: record 2: field name: '" LONG_IN
	       "' not unique (record 0)", "two tensors with one name");
}

/* the bytes of @text (with names), parsed and validated again */
static void test_container(void)
{
	struct lf_image back;
	void *p = NULL;
	size_t n = 0;
	int ret;

	fresh();
	ret = lf_write_mem(&img, &p, &n);
	ret = ret ? ret : lf_parse(p, n, &back);
	if (!ret) {
		memset(p, 0, n);	/* the names must not point into it */
		ret = lf_validate(&back);
	}
	tap_check(!ret && back.n_names == 3 && back.hdr.version_minor == VPUX_LF_VERSION_MINOR &&
		  !strcmp(lf_tensor_name(&back, 0), LONG_IN) &&
		  !strcmp(lf_tensor_name(&back, 2), LONG_OUT),
		  "write, parse: the names survive the data (%s)",
		  vpux_last_error());
	lf_image_free(&back);
	free(p);
}

static void asm_err(const char *line, const char *what)
{
	struct lf_image im;
	char buf[512], err[512];
	FILE *f = fmemopen(err, sizeof(err), "w");
	int ret;

	snprintf(buf, sizeof(buf), "input x i8 16 %s\noutput y i8 16\n"
		 "dma src=x dst=y\n", line);
	ret = asm_text("t", buf, NULL, &im, f);
	fclose(f);
	tap_check(ret && strstr(err, what), "asm: '%s' refused ('%s')", line,
		  err);
	if (!ret)
		asm_free(&im);
}

static void test_asm(void)
{
	const char *dup = "input x i8 16 name=a\ninput w i8 16 name=a\n"
			  "output y i8 16\ndma src=x dst=y\n";
	char esc[3 * sizeof(LONG_IN)], round[sizeof(esc)];
	struct lf_image im;
	char err[512];
	FILE *f;
	int ret;

	asm_err("name=a%2", "bad name 'a%2': %XX takes two hex digits");
	asm_err("name=a%zz", "bad name 'a%zz'");
	asm_err("name=a%00b", "not 00");
	asm_err("name=", "empty name=");
	f = fmemopen(err, sizeof(err), "w");
	ret = asm_text("t", dup, NULL, &im, f);
	fclose(f);
	tap_check(ret && strstr(err, "name 'a' already given to tensor 'x'"),
		  "asm: one name for two tensors refused ('%s')", err);
	if (!ret)
		asm_free(&im);
	vasm_name_escape(LONG_IN, esc);
	strcpy(round, esc);
	tap_check(!strchr(esc, ' ') && !strchr(esc, '#') &&
		  !vasm_name_unescape(round) && !strcmp(round, LONG_IN),
		  "escape/unescape round trip ('%s')", esc);
}

/* the network with the names, and a 1.3 one with .vpux.io for input 0 */
static int load(int old, struct vpux_network **net)
{
	struct lf_extra_section ex;
	struct vpuxc_io_rec r[4];
	void *s = NULL, *p = NULL;
	uint32_t ssz = 0;
	size_t n;
	int ret;

	fresh();
	if (old) {
		static const char *const nm[4] = {
			"onnx_input_from_vpux_io", "s", "y", "z" };
		unsigned int k;

		for (k = 0; k < 4; k++) {
			memset(&r[k], 0, sizeof(r[k]));
			strcpy(r[k].name, nm[k]);
			r[k].dir = k < 2 ? VPUXC_IO_INPUT : VPUXC_IO_OUTPUT;
			r[k].index = k % 2;
			r[k].onnx_dtype = HIO_INT8;
			r[k].rank = 1;
			r[k].dims[0] = k % 2 ? 64 : 4096;
			r[k].axis = -1;
		}
		if (host_io_section_build(VPUXC_IO_SECTION, r, sizeof(r[0]), 4,
					  128, &s, &ssz))
			abort();
		ex = (struct lf_extra_section){ VPUXC_IO_SECTION, 0, s, ssz,
						0, 1 };
		img.extra = &ex;
		img.n_extra = 1;
		img.hdr.version_minor = 3;
		img.n_names = 0;
		img.strtab_size = 0;
	}
	ret = lf_write_mem(&img, &p, &n);
	img.extra = NULL;
	img.n_extra = 0;
	if (!ret)
		ret = vpux_network_load(dev, p, n, net);
	free(p);
	free(s);
	return ret;
}

static void test_api(void)
{
	struct vpux_tensor_desc d;
	struct vpux_network *net;
	const char *nm = NULL;
	unsigned int i = 99;
	int ret;

	ret = load(0, &net);
	tap_check(!ret, "load a 1.4 loadable with names (%s)", vpux_last_error());
	if (ret)
		return;
	ret = vpux_network_io_name(net, 0, 0, &nm);
	tap_check(!ret && !strcmp(nm, LONG_IN), "io_name: input 0 '%s'", nm);
	ret = vpux_network_io_name(net, 1, 0, &nm);
	tap_check(!ret && !strcmp(nm, LONG_OUT), "io_name: output 0 '%s'", nm);
	ret = vpux_network_io_name(net, 1, 1, &nm);
	tap_check(!ret && !strcmp(nm, "z"), "io_name: output 1 without a name: 'z'");
	ret = vpux_network_io_name(net, 0, 2, &nm);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "input 2 does not exist"),
		  "io_name: no input 2 (%s)", vpux_last_error());
	ret = vpux_network_io_name(net, 0, 0, NULL);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "io name: NULL argument"),
		  "io_name: NULL name (%s)", vpux_last_error());
	ret = vpux_network_io_name(NULL, 0, 0, &nm);
	tap_check(ret == VPUX_E_INVAL, "io_name: NULL network");

	vpux_network_input(net, 0, &d);
	tap_check(!strcmp(d.name, "x"),
		  "desc.name: the short name when the full one does not fit");
	vpux_network_input(net, 1, &d);
	tap_check(!strcmp(d.name, "short"),
		  "desc.name: the full name when it fits ('%s')", d.name);

	ret = vpux_network_find_input(net, LONG_IN, &i);
	tap_check(!ret && i == 0, "find_input: by the full name");
	ret = vpux_network_find_input(net, "s", &i);
	tap_check(!ret && i == 1, "find_input: by the record's short name");
	ret = vpux_network_find_output(net, LONG_OUT, &i);
	tap_check(!ret && i == 0, "find_output: by the full name");
	ret = vpux_network_find_output(net, "z", &i);
	tap_check(!ret && i == 1, "find_output: an output without a name");
	ret = vpux_network_find_input(net, LONG_OUT, &i);
	tap_check(ret == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "no input named '" LONG_OUT
			 "' (the inputs: '" LONG_IN "', 'short')"),
		  "find_input: an output's name (%s)", vpux_last_error());
	ret = vpux_network_find_output(net, "nope", &i);
	tap_check(ret == VPUX_E_INVAL &&
		  strstr(vpux_last_error(), "no output named 'nope'"),
		  "find_output: no such output (%s)", vpux_last_error());
	ret = vpux_network_find_input(net, NULL, &i);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "find input: NULL argument"),
		  "find_input: NULL name (%s)", vpux_last_error());
	ret = vpux_network_find_output(net, "z", NULL);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "find output: NULL argument"),
		  "find_output: NULL index (%s)", vpux_last_error());
	vpux_network_unload(net);

	ret = load(1, &net);
	tap_check(!ret, "load a 1.3 loadable with .vpux.io (%s)",
		  vpux_last_error());
	if (ret)
		return;
	ret = vpux_network_io_name(net, 0, 0, &nm);
	tap_check(!ret && !strcmp(nm, "onnx_input_from_vpux_io"),
		  "1.3: io_name is the .vpux.io name ('%s')", nm);
	ret = vpux_network_find_input(net, "onnx_input_from_vpux_io", &i);
	tap_check(!ret && i == 0, "1.3: find_input by the .vpux.io name");
	ret = vpux_network_io_name(net, 0, 1, &nm);
	tap_check(!ret && !strcmp(nm, "s"), "1.3: io_name of a record: 's'");
	vpux_network_unload(net);
}

static const char *const dyn_text =
	"network dyn\n"
	"symbol n axis 1..8\n"
	"input  x i8 $nx4 name=tokens\n"
	"output y i8 $nx4\n"
	"dma src=x dst=y\n";

static void test_desc(void)
{
	struct vpux_tensor_desc d, bad;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_shape sh;
	void *p = NULL;
	size_t n;
	int ret;

	ret = asm_bytes(dyn_text, &p, &n);
	ret = ret ? ret : vpux_network_load(dev, p, n, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	free(p);
	tap_check(!ret, "dynamic network loaded (%s)", vpux_last_error());
	if (ret)
		goto out;
	vpux_network_input(net, 0, &d);
	tap_check(!strcmp(d.name, "tokens") && d.shape.d[0] == 8,
		  "desc: full name, the dynamic dim at its max");
	d.shape.d[0] = 3;
	ret = vpux_request_set_input_desc(req, 0, &d);
	ret = ret ? ret : vpux_request_output_shape(req, 0, &sh);
	tap_check(!ret && sh.d[0] == 3 && sh.d[1] == 4,
		  "set_input_desc binds the symbol: output 3x4 (%s)",
		  vpux_last_error());

#define BAD_DESC(mut, msg, name) do {					\
	bad = d;							\
	mut;								\
	ret = vpux_request_set_input_desc(req, 0, &bad);		\
	tap_check(ret == VPUX_E_INVAL && strstr(vpux_last_error(), msg),\
		  "set_input_desc: " name " (%s)", vpux_last_error());	\
	} while (0)
	BAD_DESC(bad.data_type = VPUX_DT_U8,
		 "input 0: desc field data_type 1, the network's is 2",
		 "another data type");
	BAD_DESC(bad.rank = 3, "desc field rank 3, the network's is 2",
		 "another rank");
	BAD_DESC(bad.order.code = 0x21, "desc field order.code 0x21",
		 "another order");
	BAD_DESC(bad.size = 4, "desc field size 4, the network's is 32",
		 "another size");
	BAD_DESC(bad.zero_point = 1, "desc field zero_point 1",
		 "a zero point");
	BAD_DESC(bad.scale_mult = 7, "desc field scale_mult 7",
		 "a scale");
	BAD_DESC(bad.scale_shift = 2, "desc field scale_shift 2",
		 "a scale shift");
	BAD_DESC(bad.shape.rank = 1,
		 "desc field shape.rank 1, the tensor has rank 2",
		 "shape of another rank");
	BAD_DESC(bad.strides.bits[1] = 16,
		 "desc field strides.bits[1] 16, the network's is 8",
		 "other strides");
	BAD_DESC(bad.shape.d[0] = 9, "input 0: dim 0: ",
		 "a dim above its symbol's max");
	BAD_DESC(bad.shape.d[1] = 5,
		 "input 0: dim 1 is 5, the static dim of 'x' is 4",
		 "another static dim");
	ret = vpux_request_set_input_desc(req, 1, &d);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "input 1 does not exist"),
		  "set_input_desc: no input 1 (%s)", vpux_last_error());
	ret = vpux_request_set_input_desc(req, 0, NULL);
	tap_check(ret == VPUX_E_INVAL &&
		  !strcmp(vpux_last_error(), "input desc: NULL argument"),
		  "set_input_desc: NULL desc (%s)", vpux_last_error());
out:
	if (req)
		vpux_request_destroy(req);
	if (net)
		vpux_network_unload(net);
}

int main(void)
{
	if (vpux_device_open("inproc", &dev)) {
		tap_diag("inproc: %s", vpux_last_error());
		return 1;
	}
	test_validate();
	test_container();
	test_asm();
	test_api();
	test_desc();
	if (img.tensors)
		asm_free(&img);
	vpux_device_close(dev);
	return tap_finish();
}

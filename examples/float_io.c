// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * float_io: run a compiled float model with float32 in and out, through
 * libvpux alone (<vpux.h>, -lvpux): the application never sees FP16 or
 * a quantization scale. libvpux converts at the host boundary from what
 * the loadable records (API 1.7, Documentation/libvpux.rst).
 *
 *	vpux-onnx compile model.onnx -o model.vpuxl
 *	float_io model.vpuxl image.f32 [-d /dev/accel/accel0] [-o DIR]
 *
 * Each INPUT file holds input i's host data as vpux_network_io_info()
 * describes it: float32 (little endian, row-major in the ONNX dims) for a
 * float input. Output k is written to DIR/output_k.f32 (its host data);
 * the first values of each float output are printed.
 *
 * Build: cc float_io.c $(pkg-config --cflags --libs vpux)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vpux.h>

static const char *type_name(uint32_t t)
{
	static const char *const n[] = { "?", "u8", "i8", "i32", "f16",
					 "f32", "i64" };

	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "?";
}

static void print_info(const char *what, unsigned int i,
		       const struct vpux_io_info *v)
{
	uint32_t k;

	printf("%s %u '%s': %s", what, i, v->name, type_name(v->host_type));
	for (k = 0; k < v->rank; k++)
		printf("%s%llu", k ? "x" : " ", (unsigned long long)v->dims[k]);
	printf(" (%s on the device%s)\n", type_name(v->data_type),
	       v->flags & VPUX_IO_CONVERT ? ", converted by libvpux" : "");
}

static void *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		p = malloc(n ? (size_t)n : 1);
		if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return p;
}

#define MAX_IO 64

int main(int argc, char **argv)
{
	const char *devname = "inproc", *outdir = ".", *path = NULL;
	const char *inputs[MAX_IO];
	struct vpux_buffer *bufs[2 * MAX_IO] = { 0 };
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_request_status st;
	unsigned int n_in = 0, nin, nout, i, nb = 0;
	int ret = 0, a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-d") && a + 1 < argc)
			devname = argv[++a];
		else if (!strcmp(argv[a], "-o") && a + 1 < argc)
			outdir = argv[++a];
		else if (!path)
			path = argv[a];
		else if (n_in < MAX_IO)
			inputs[n_in++] = argv[a];
	}
	if (!path) {
		fprintf(stderr, "usage: float_io NET.vpuxl INPUT... [-d DEVICE] [-o DIR]\n");
		return 2;
	}
	ret = vpux_device_open(devname, &dev);
	ret = ret ? ret : vpux_network_load_file(dev, path, &net);
	ret = ret ? ret : vpux_request_create(net, &req);
	if (ret)
		goto out;
	nin = vpux_network_num_inputs(net);
	nout = vpux_network_num_outputs(net);
	if (n_in != nin || nin > MAX_IO || nout > MAX_IO) {
		fprintf(stderr, "float_io: %s has %u inputs, %u given\n", path,
			nin, n_in);
		ret = 1;
		goto out;
	}
	/* a buffer per input and output, bound; the inputs from the files */
	for (i = 0; !ret && i < nin + nout; i++) {
		int is_out = i >= nin;
		unsigned int k = is_out ? i - nin : i;
		struct vpux_tensor_desc d;
		struct vpux_io_info v = { .size = sizeof(v) };

		ret = vpux_network_io_info(net, is_out, k, &v);
		ret = ret ? ret : is_out ? vpux_network_output(net, k, &d) :
					   vpux_network_input(net, k, &d);
		ret = ret ? ret : vpux_buffer_alloc(dev, d.size, &bufs[nb]);
		if (ret)
			break;
		nb++;
		ret = is_out ? vpux_request_bind_output(req, k, bufs[nb - 1], 0) :
			       vpux_request_bind_input(req, k, bufs[nb - 1], 0);
		print_info(is_out ? "output" : "input", k, &v);
		if (!ret && !is_out) {
			size_t size;
			void *host = read_all(inputs[k], &size);

			if (!host) {
				fprintf(stderr, "float_io: %s: cannot read\n",
					inputs[k]);
				ret = 1;
				goto out;
			}
			/* float32 in: libvpux rounds to FP16 or quantizes */
			ret = vpux_request_write_input(req, k, host, size);
			free(host);
		}
	}
	ret = ret ? ret : vpux_request_submit(req);
	ret = ret ? ret : vpux_request_wait(req, -1);
	ret = ret ? ret : vpux_request_status(req, &st);
	if (!ret && st.state != VPUX_REQ_DONE) {
		fprintf(stderr, "float_io: the request failed (device error %d)\n",
			st.error);
		ret = 1;
		goto out;
	}
	for (i = 0; !ret && i < nout; i++) {
		struct vpux_io_info v = { .size = sizeof(v) };
		char file[4096];
		void *host;
		FILE *f;

		ret = vpux_network_io_info(net, 1, i, &v);
		if (ret)
			break;
		host = malloc(v.host_size ? v.host_size : 1);
		if (!host) {
			ret = 1;
			break;
		}
		/* float32 out: libvpux widens FP16 or dequantizes */
		ret = vpux_request_read_output(req, i, host, v.host_size);
		snprintf(file, sizeof(file), "%s/output_%u.f32", outdir, i);
		f = ret ? NULL : fopen(file, "wb");
		if (!ret && (!f || fwrite(host, 1, v.host_size, f) !=
				   v.host_size)) {
			fprintf(stderr, "float_io: %s: cannot write\n", file);
			ret = 1;
		}
		if (f && fclose(f))
			ret = 1;
		if (!ret && v.host_type == VPUX_DT_F32) {
			const float *y = host;
			size_t k, n = v.host_size / 4;

			printf("output %u '%s':", i, v.name);
			for (k = 0; k < n && k < 10; k++)
				printf(" %g", y[k]);
			printf("%s -> %s\n", n > 10 ? " ..." : "", file);
		}
		free(host);
	}
out:
	if (ret < 0)
		fprintf(stderr, "float_io: %s: %s\n", vpux_strerror(ret),
			vpux_last_error());
	vpux_request_destroy(req);
	for (i = 0; i < nb; i++)
		vpux_buffer_free(bufs[i]);
	vpux_network_unload(net);
	if (dev)
		vpux_device_close(dev);
	return ret ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The trained model on the whole Fashion-MNIST test set: compile
 * compiler/models/fashion_qdq/model.onnx (or the float model,
 * fashion/fashion_float.onnx, to FP16), classify all 10,000 test images
 * of Debian's dataset-fashion-mnist through libvpux (in-process, or
 * --device /dev/accel/accelN), and print the accuracy next to
 * onnxruntime's on the same model (ort_pred.u8 or ort_pred_float.u8, one
 * class per image, written by train.py) and the float model's (the line of
 * fashion_float.onnx in figures.txt, also train.py's).
 *
 *	fashion_accuracy [--device DEV] [--limit N] MODEL.onnx DATASET_DIR ORT_PRED FIGURES
 *
 * Images are scaled to [0, 1] as train.py does; the float input is
 * quantized or rounded to FP16 by the host (vpuxc_io_to_device), the
 * logits dequantized or widened
 * (vpuxc_io_from_device); the class is the first of equal maxima, as
 * train.py takes onnxruntime's. Exit 0 when vpux and onnxruntime agree
 * within 0.1 percentage point of accuracy, 1 otherwise, 2 on errors.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "vpux.h"
#include "vpux_compiler.h"

static unsigned char *read_idx(const char *dir, const char *name,
			       unsigned int ndim, unsigned int *dims)
{
	char path[4096];
	unsigned char hdr[16], *data;
	size_t n = 1;
	unsigned int i;
	gzFile f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = gzopen(path, "rb");
	if (!f) {
		fprintf(stderr, "fashion_accuracy: %s: cannot open\n", path);
		return NULL;
	}
	if (gzread(f, hdr, 4 + 4 * ndim) != (int)(4 + 4 * ndim) ||
	    hdr[2] != 8 || hdr[3] != ndim) {
		fprintf(stderr, "fashion_accuracy: %s: not an idx file of %u dims\n",
			path, ndim);
		gzclose(f);
		return NULL;
	}
	for (i = 0; i < ndim; i++) {
		dims[i] = (unsigned int)hdr[4 + 4 * i] << 24 |
			  (unsigned int)hdr[5 + 4 * i] << 16 |
			  (unsigned int)hdr[6 + 4 * i] << 8 | hdr[7 + 4 * i];
		n *= dims[i];
	}
	data = malloc(n);
	if (!data || gzread(f, data, (unsigned int)n) != (int)n) {
		fprintf(stderr, "fashion_accuracy: %s: short file\n", path);
		free(data);
		data = NULL;
	}
	gzclose(f);
	return data;
}

static int argmax(const float *v, unsigned int n)
{
	unsigned int i, best = 0;

	for (i = 1; i < n; i++)
		if (v[i] > v[best])
			best = i;
	return (int)best;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "limit", required_argument, NULL, 'n' },
		{ "label", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = "inproc", *label = "quantized";
	unsigned int limit = 0, idims[3], ldims[1], i, n;
	unsigned int ok_vpux = 0, ok_ort = 0, agree = 0;
	unsigned char *img = NULL, *lab = NULL, ort[10000];
	struct vpuxc_model *m = NULL;
	struct vpuxc_result r = { 0 };
	struct vpuxc_io_table io = { 0 };
	struct vpux_device *dev = NULL;
	struct vpux_network *net = NULL;
	struct vpux_request *req = NULL;
	struct vpux_buffer *bi = NULL, *bo = NULL;
	struct vpux_tensor_desc di, dout;
	struct vpuxc_tensor x, y;
	float pix[28 * 28];
	char line[256], float_acc[32] = "?", vname[64], oname[64];
	double acc_v, acc_o;
	FILE *f;
	int c, ret = 2;

	while ((c = getopt_long(argc, argv, "d:n:l:", opts, NULL)) != -1) {
		if (c == 'd')
			device = optarg;
		else if (c == 'l')
			label = optarg;
		else if (c == 'n')
			limit = (unsigned int)strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	if (argc - optind != 4) {
		fprintf(stderr, "usage: fashion_accuracy [--device DEV] [--limit N] [--label NAME] MODEL.onnx DATASET_DIR ORT_PRED FIGURES\n");
		return 2;
	}
	f = fopen(argv[optind + 3], "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "fashion_float.onnx", 18))
			snprintf(float_acc, sizeof(float_acc), "%s",
				 line + strcspn(line, "0123456789"));
	if (f)
		fclose(f);
	float_acc[strcspn(float_acc, "\n")] = 0;
	img = read_idx(argv[optind + 1], "t10k-images-idx3-ubyte.gz", 3, idims);
	lab = read_idx(argv[optind + 1], "t10k-labels-idx1-ubyte.gz", 1, ldims);
	f = fopen(argv[optind + 2], "rb");
	if (!img || !lab || !f || fread(ort, 1, sizeof(ort), f) != sizeof(ort) ||
	    idims[0] != 10000 || idims[1] != 28 || idims[2] != 28 ||
	    ldims[0] != 10000) {
		fprintf(stderr, "fashion_accuracy: dataset or %s unreadable\n",
			argv[optind + 2]);
		goto out;
	}
	n = limit && limit < 10000 ? limit : 10000;
	if (vpuxc_import_file(argv[optind], &m) ||
	    vpuxc_compile(m, NULL, &r) ||
	    vpuxc_io_read(r.loadable, r.size, &io) ||
	    vpux_device_open(device, &dev) ||
	    vpux_network_load(dev, r.loadable, r.size, &net) ||
	    vpux_request_create(net, &req) ||
	    vpux_network_input(net, 0, &di) ||
	    vpux_network_output(net, 0, &dout) ||
	    vpux_buffer_alloc(dev, di.size, &bi) ||
	    vpux_buffer_alloc(dev, dout.size, &bo) ||
	    vpux_request_bind_input(req, 0, bi, 0) ||
	    vpux_request_bind_output(req, 0, bo, 0)) {
		fprintf(stderr, "fashion_accuracy: %s\n", vpux_last_error());
		goto out;
	}
	if (io.n_inputs != 1 || io.n_outputs != 1 ||
	    io.outputs[0].onnx_dtype != VPUXC_FLOAT) {
		fprintf(stderr, "fashion_accuracy: expected one float input and output\n");
		goto out;
	}
	memset(&x, 0, sizeof(x));
	x.dtype = VPUXC_FLOAT;
	x.rank = 4;
	x.dims[0] = x.dims[1] = 1;
	x.dims[2] = x.dims[3] = 28;
	x.data = pix;
	x.size = sizeof(pix);
	for (i = 0; i < n; i++) {
		unsigned int k;
		int pv;

		for (k = 0; k < 28 * 28; k++)
			pix[k] = (float)img[(size_t)i * 784 + k] / 255.0f;
		if (vpuxc_io_to_device(&io.inputs[0], &x, vpux_buffer_map(bi),
				       di.size) ||
		    vpux_request_submit(req) ||
		    vpux_request_wait(req, 60000) ||
		    vpuxc_io_from_device(&io.outputs[0], vpux_buffer_map(bo),
					 dout.size, &y)) {
			fprintf(stderr, "fashion_accuracy: image %u: %s\n", i,
				vpux_last_error());
			goto out;
		}
		pv = argmax(y.data, (unsigned int)vpuxc_tensor_count(&y));
		vpuxc_tensor_fini(&y);
		ok_vpux += pv == lab[i];
		ok_ort += ort[i] == lab[i];
		agree += pv == ort[i];
	}
	snprintf(vname, sizeof(vname), "vpux (%s model)", label);
	snprintf(oname, sizeof(oname), "onnxruntime (%s model)", label);
	acc_v = 100.0 * ok_vpux / n;
	acc_o = 100.0 * ok_ort / n;
	printf("fashion-mnist, %u test images, device %s:\n", n, device);
	printf("  %-30s %6.2f%%\n", vname, acc_v);
	printf("  %-30s %6.2f%%\n", oname, acc_o);
	printf("  float model (train.py)         %7s\n", float_acc);
	printf("  same class as onnxruntime: %u of %u\n", agree, n);
	ret = acc_v - acc_o > 0.1 || acc_o - acc_v > 0.1;
	printf("%s: accuracies %s within 0.1 percentage point\n",
	       ret ? "FAIL" : "ok", ret ? "not" : "agree");
out:
	if (f)
		fclose(f);
	vpux_request_destroy(req);
	vpux_buffer_free(bi);
	vpux_buffer_free(bo);
	vpux_network_unload(net);
	vpux_device_close(dev);
	vpuxc_io_fini(&io);
	vpuxc_result_fini(&r);
	vpuxc_model_free(m);
	free(img);
	free(lab);
	return ret;
}

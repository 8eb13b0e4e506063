#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Reference outputs from onnxruntime (the npm package onnxruntime-node,
// CPU provider, one thread), for the compiler's test models.
//
//   ort-run.js MODEL.onnx DIR...
//     DIR is a test_data_set_N directory or a directory holding some
//     (the ONNX test layout). For each one, reads input_K.pb (K = 0, 1,
//     ...: the model's K-th graph input), runs the model and writes
//     output_K.pb (TensorProto, raw_data) for every graph output.
//
//   ort-run.js --compare MODEL.onnx DIR...
//     the same runs, compared with the output_K.pb already there instead
//     of writing them: exits 1 when an output differs by more than 2 % of
//     the reference's largest magnitude (a float accumulation on another
//     CPU can move a value across a rounding boundary of a QuantizeLinear:
//     one step, possibly amplified by the ops after it). Prints per data
//     set "identical" or the number of differing elements and the largest
//     difference.
//
//   ort-run.js --raw MODEL.onnx IN OUT D0,D1,...
//     IN holds float32 little-endian inputs of shape D0,D1,... back to
//     back (the model's single input); runs each one and appends the
//     model's first output (float32) to OUT. For bulk runs (the 10,000
//     test images of compiler/models/fashion).
//
//   ort-run.js --bench MODEL.onnx DIR
//     times the model on the inputs of DIR's first data set (one thread,
//     as always here): 3 runs to warm up, then at least 10 and up to 200
//     within about 2 s; prints "ort-bench: median_ms=M best_ms=B runs=N"
//     (make bench, with ORT_OPT=all: onnxruntime at its best).
//
// Environment: ORT_OPT, onnxruntime's graph optimization level (default
// disabled, see session()); ONNX_PROTO, the schema (default Debian's).
//
// TensorProto is decoded and encoded with protobufjs from Debian's
// /usr/include/onnx/onnx.proto (package libonnx-dev), loaded at run time.
'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const protobuf = require('protobufjs');

const PROTO = process.env.ONNX_PROTO || '/usr/include/onnx/onnx.proto';
const TensorProto = protobuf.loadSync(PROTO).lookupType('onnx.TensorProto');

// ONNX data type -> [onnxruntime type, typed array, int32_data holds it]
const DTYPES = {
	1: ['float32', Float32Array],
	2: ['uint8', Uint8Array],
	3: ['int8', Int8Array],
	4: ['uint16', Uint16Array],
	5: ['int16', Int16Array],
	6: ['int32', Int32Array],
	7: ['int64', BigInt64Array],
	9: ['bool', Uint8Array],
	11: ['float64', Float64Array],
};
const ORT2ONNX = {};
for (const [k, v] of Object.entries(DTYPES))
	ORT2ONNX[v[0]] = Number(k);

function die(msg) {
	process.stderr.write(`ort-run: ${msg}\n`);
	process.exit(1);
}

function readTensor(file) {
	const t = TensorProto.decode(fs.readFileSync(file));
	const dt = DTYPES[t.dataType];
	if (!dt)
		die(`${file}: unsupported data type ${t.dataType}`);
	const [type, Arr] = dt;
	const dims = t.dims.map(Number);
	const n = dims.reduce((a, b) => a * b, 1);
	let data;
	if (t.rawData && t.rawData.length) {
		if (t.rawData.length !== n * Arr.BYTES_PER_ELEMENT)
			die(`${file}: raw_data holds ${t.rawData.length} bytes, dims want ${n * Arr.BYTES_PER_ELEMENT}`);
		// copy: the decoded buffer may be unaligned for the element size
		const buf = new ArrayBuffer(t.rawData.length);
		new Uint8Array(buf).set(t.rawData);
		data = new Arr(buf);
	} else if (t.dataType === 1) {
		data = Float32Array.from(t.floatData);
	} else if (t.dataType === 11) {
		data = Float64Array.from(t.doubleData);
	} else if (t.dataType === 7) {
		data = BigInt64Array.from(t.int64Data.map((x) => BigInt(x.toString())));
	} else {
		data = Arr.from(t.int32Data);
	}
	if (data.length !== n)
		die(`${file}: ${data.length} elements, dims want ${n}`);
	if (type === 'bool')
		data = Uint8Array.from(data, (x) => (x ? 1 : 0));
	return { name: t.name, tensor: new ort.Tensor(type, data, dims) };
}

function writeTensor(file, name, tensor) {
	const dataType = ORT2ONNX[tensor.type];
	if (!dataType)
		die(`${file}: output ${name}: unsupported type ${tensor.type}`);
	const d = tensor.data;
	const msg = TensorProto.create({
		dims: tensor.dims.map(Number),
		dataType,
		name,
		rawData: Buffer.from(d.buffer, d.byteOffset, d.byteLength),
	});
	fs.writeFileSync(file, TensorProto.encode(msg).finish());
}

// Graph optimizations are off unless ORT_OPT says otherwise (basic,
// extended, all): the reference is the graph as written, op by op. With
// them on, onnxruntime turns QDQ groups into its integer kernels, and on
// x86 without VNNI its u8s8 kernel (VPMADDUBSW) saturates pairs of
// products at int16: not the exact arithmetic the models define.
const OPT = process.env.ORT_OPT || 'disabled';

async function session(model) {
	return ort.InferenceSession.create(model, {
		executionProviders: ['cpu'],
		intraOpNumThreads: 1,
		interOpNumThreads: 1,
		executionMode: 'sequential',
		graphOptimizationLevel: OPT,
	});
}

function dataSets(dir) {
	if (/^test_data_set_\d+$/.test(path.basename(dir)))
		return [dir];
	const sets = fs.readdirSync(dir)
		.filter((e) => /^test_data_set_\d+$/.test(e))
		.sort((a, b) => Number(a.split('_').pop()) - Number(b.split('_').pop()))
		.map((e) => path.join(dir, e));
	if (!sets.length)
		die(`${dir}: no test_data_set_N`);
	return sets;
}

function compare(file, name, tensor) {
	if (!fs.existsSync(file)) {
		console.log(`${file}: missing`);
		return false;
	}
	const ref = readTensor(file).tensor;
	if (ref.type !== tensor.type || ref.dims.join(',') !== tensor.dims.join(',')) {
		console.log(`${file}: ${ref.type}[${ref.dims}], onnxruntime gives ${tensor.type}[${tensor.dims}]`);
		return false;
	}
	let ndiff = 0, maxd = 0, maxr = 0;
	for (let i = 0; i < ref.data.length; i++) {
		const a = Number(ref.data[i]), b = Number(tensor.data[i]);
		maxr = Math.max(maxr, Math.abs(a));
		if (a !== b) {
			ndiff++;
			maxd = Math.max(maxd, Math.abs(a - b));
		}
	}
	const ok = maxd <= 0.02 * maxr;
	console.log(`${file}: ${ndiff ? `${ndiff} of ${ref.data.length} differ, by up to ${maxd}` : 'identical'}${ok ? '' : ' FAIL'}`);
	return ok;
}

async function runSets(model, dirs, check) {
	let ok = true;
	const s = await session(model);
	for (const dir of dirs) {
		for (const set of dataSets(dir)) {
			const out = await s.run(feedsOf(s, set));
			s.outputNames.forEach((name, k) => {
				const f = path.join(set, `output_${k}.pb`);
				if (check)
					ok = compare(f, name, out[name]) && ok;
				else
					writeTensor(f, name, out[name]);
			});
			if (!check)
				console.log(`${set}: ${s.outputNames.length} output(s)`);
		}
	}
	if (!ok)
		process.exit(1);
}

function feedsOf(s, set) {
	const feeds = {};

	s.inputNames.forEach((name, k) => {
		const f = path.join(set, `input_${k}.pb`);
		if (!fs.existsSync(f))
			die(`${f}: missing (input ${name})`);
		feeds[name] = readTensor(f).tensor;
	});
	return feeds;
}

async function runBench(model, dir) {
	const s = await session(model);
	const feeds = feedsOf(s, dataSets(dir)[0]);
	const now = () => Number(process.hrtime.bigint()) / 1e6;
	const times = [];
	const end = now() + 2000;

	for (let i = 0; i < 3; i++)
		await s.run(feeds);
	while (times.length < 10 || (times.length < 200 && now() < end)) {
		const t = now();

		await s.run(feeds);
		times.push(now() - t);
	}
	times.sort((a, b) => a - b);
	console.log(`ort-bench: median_ms=${times[times.length >> 1].toFixed(3)} ` +
		    `best_ms=${times[0].toFixed(3)} runs=${times.length}`);
}

async function runRaw(model, inFile, outFile, shape) {
	const dims = shape.split(',').map(Number);
	const n = dims.reduce((a, b) => a * b, 1);
	const raw = fs.readFileSync(inFile);
	if (!n || raw.length % (4 * n))
		die(`${inFile}: ${raw.length} bytes is no whole number of float32[${shape}]`);
	const s = await session(model);
	const all = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
	const fd = fs.openSync(outFile, 'w');
	for (let i = 0; i < all.length / n; i++) {
		const x = new ort.Tensor('float32', all.slice(i * n, (i + 1) * n), dims);
		const out = await s.run({ [s.inputNames[0]]: x });
		const y = out[s.outputNames[0]].data;
		fs.writeSync(fd, Buffer.from(y.buffer, y.byteOffset, y.byteLength));
	}
	fs.closeSync(fd);
}

async function main(argv) {
	if (argv[0] === '--raw' && argv.length === 5)
		return runRaw(argv[1], argv[2], argv[3], argv[4]);
	if (argv[0] === '--bench' && argv.length === 3)
		return runBench(argv[1], argv[2]);
	if (argv[0] === '--compare' && argv.length >= 3)
		return runSets(argv[1], argv.slice(2), true);
	if (argv.length < 2 || argv[0].startsWith('-'))
		die('usage: ort-run.js [--compare] MODEL.onnx DIR...\n       ort-run.js --bench MODEL.onnx DIR\n       ort-run.js --raw MODEL.onnx IN OUT D0,D1,...');
	return runSets(argv[0], argv.slice(1), false);
}

main(process.argv.slice(2)).catch((e) => die(e.message || String(e)));

#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// onnxruntime's single-threaded float32 Conv and MatMul on the shapes of
// the DPU benchmark's FP16 line (conv 56x56x64 -> 64, 3x3, pad 1; matmul
// [196, 512] x [512, 512]): the yardstick for the model's FP16 DPU kernels
// (onnxruntime has no fast FP16 CPU kernels on x86, so its float32 ones,
// which do the same multiply-adds, stand in). build/ops/bench_dpu runs it
// after its own figures and prints the ratios; it also runs alone:
//
//   node tools/bench/ort_f32_bench.js
//
// Each op in every layout ort_f32_model.py writes (Conv: NCHW, which
// onnxruntime turns into its blocked NCHWc kernels; its CPU build has no
// NHWC float Conv. MatMul: weights [K][N] with MatMul, [N][K] with Gemm
// transB = 1); the best layout counts. onnxruntime-node
// comes from tools/ort/node_modules (make deps) or NODE_PATH; the models
// need Debian's python3-onnx. If either is missing it prints one
// "skipped:" line and exits 0. The last line is for programs:
//   ort-f32: conv_gflops=<best layout> matmul_gflops=<best layout> ...
'use strict';

const path = require('path');
const fs = require('fs');
const { skip, loadOrt, makeModels: make, fill, bench: run } =
	require('./ort_util');

const CONV_FLOP = 2 * 56 * 56 * 64 * 64 * 9;
const MM_FLOP = 2 * 196 * 512 * 512;

function makeModels() {
	return make('ort_f32_model.py', 'models');
}

async function bench(ort, file, shape) {
	const data = fill(new Float32Array(shape.reduce((a, b) => a * b, 1)),
			  (seed) => (seed >>> 8) / (1 << 23) - 1);

	return run(ort, file, new ort.Tensor('float32', data, shape));
}

const CASES = [
	['conv', 'nchw', 'conv_nchw.onnx', [1, 64, 56, 56], CONV_FLOP, 'Conv'],
	['matmul', 'kn', 'mm_kn.onnx', [196, 512], MM_FLOP, 'MatMul'],
	['matmul', 'nk', 'mm_nk.onnx', [196, 512], MM_FLOP, 'Gemm transB'],
];

async function main() {
	const ort = loadOrt();
	const dir = makeModels();
	const version = ort.env && ort.env.versions ? ort.env.versions.common || '' : '';
	const best = { conv: 0, matmul: 0 };
	const parts = [];

	try {
		for (const [op, layout, file, shape, flop, name] of CASES) {
			let r;

			try {
				r = await bench(ort, path.join(dir, file), shape);
			} catch (e) {
				console.log(`onnxruntime ${name} ${layout}: failed: ${e.message.split('\n')[0]}`);
				continue;
			}
			const g = flop / r.best * 1e-9;

			console.log(`onnxruntime ${version} float32 ${name} ${layout}, 1 thread: ` +
				    `best ${(r.best * 1e3).toFixed(3)} ms, median ${(r.median * 1e3).toFixed(3)} ms ` +
				    `(${r.runs} runs), ${g.toFixed(2)} GFLOPS`);
			parts.push(`${op}_${layout}_gflops=${g.toFixed(2)}`);
			best[op] = Math.max(best[op], g);
		}
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
	if (!best.conv && !best.matmul)
		skip('onnxruntime could not run the models');
	console.log(`ort-f32: conv_gflops=${best.conv.toFixed(2)} matmul_gflops=${best.matmul.toFixed(2)} ${parts.join(' ')}`);
}

main().catch((e) => skip(`onnxruntime failed: ${e.message.split('\n')[0]}`));

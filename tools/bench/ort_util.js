// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// What the onnxruntime yardsticks (ort_conv_bench.js, ort_f32_bench.js)
// share: loading onnxruntime-node, generating the ONNX models with a
// python script of this folder, and timing one model single-threaded.
'use strict';

const path = require('path');
const fs = require('fs');
const os = require('os');
const { execFileSync } = require('child_process');

// print one "skipped:" line and exit 0
function skip(why) {
	console.log(`skipped: ${why}`);
	process.exit(0);
}

// onnxruntime-node from tools/ort/node_modules (make deps) or NODE_PATH
function loadOrt() {
	const local = path.join(__dirname, '..', 'ort', 'node_modules',
				'onnxruntime-node');
	for (const name of [local, 'onnxruntime-node']) {
		try {
			return require(name);
		} catch (e) {
			if (e.code !== 'MODULE_NOT_FOUND')
				skip(`onnxruntime-node does not load: ${e.message.split('\n')[0]}`);
		}
	}
	skip('onnxruntime-node not installed (make deps)');
	return null;
}

// a temporary folder with the models @script writes (@what: for the message)
function makeModels(script, what) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpux-ort-'));
	try {
		execFileSync('/usr/bin/python3',
			     [path.join(__dirname, script), dir],
			     { stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (e) {
		fs.rmSync(dir, { recursive: true, force: true });
		skip(`cannot generate the ONNX ${what} (apt-get install python3-onnx python3-numpy)`);
	}
	return dir;
}

function now() {
	return Number(process.hrtime.bigint()) * 1e-9;
}

// @data filled from a fixed LCG: @conv(seed) gives each element
function fill(data, conv) {
	let seed = 12345;

	for (let i = 0; i < data.length; i++) {
		seed = (seed * 1103515245 + 12345) >>> 0;
		data[i] = conv(seed);
	}
	return data;
}

// best and median time of model @file on input x = @tensor, one thread
async function bench(ort, file, tensor) {
	const session = await ort.InferenceSession.create(file, {
		intraOpNumThreads: 1,
		interOpNumThreads: 1,
		executionMode: 'sequential',
		graphOptimizationLevel: 'all',
	});
	const feeds = { x: tensor };
	const times = [];
	const t_end = now() + 1.5;

	for (let i = 0; i < 5; i++)		// warm up
		await session.run(feeds);
	while (times.length < 10 || (times.length < 200 && now() < t_end)) {
		const t = now();

		await session.run(feeds);
		times.push(now() - t);
	}
	times.sort((a, b) => a - b);
	return { best: times[0], median: times[times.length >> 1],
		 runs: times.length };
}

module.exports = { skip, loadOrt, makeModels, fill, bench };

#!/usr/bin/env node
// The conformance protocol (docs/conformance-protocol.md) over the Node package `ekl-evidence`:
// one JSON request per line on stdin, one JSON answer per line on stdout.
//
//   ekl conformance -- node examples/conformance/node_adapter.mjs
//
// The package is loaded by name when installed, else from this repository's node/ folder;
// EKL_NODE_PACKAGE=path overrides both (the wasm package has the same API: pointing it at wasm/
// runs the protocol over wasm in Node). The operations themselves are in ops.mjs, the legacy ones
// as calls of the registry in legacy-ops.json.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { makeAnswer, answerLine, hostileOptions, nullPrototypes } from './ops.mjs';

const require = createRequire(import.meta.url);
function load() {
  if (process.env.EKL_NODE_PACKAGE) return require(path.resolve(process.env.EKL_NODE_PACKAGE));
  try {
    return require('ekl-evidence');
  } catch {
    const here = path.dirname(fileURLToPath(import.meta.url));
    return require(path.join(here, '..', '..', 'node'));
  }
}
const ekl = load();
// EKL_ADAPTER_POLLUTE=1: Object.prototype holds a hostile value for every option name of every
// operation, and every options object inherits another set (Object.create): the package reads
// own properties only, so every answer must stay the core's (tools/cross-surface/run.py,
// surface node-polluted).
const pollute = process.env.EKL_ADAPTER_POLLUTE === '1';
let reviver;
const legacy = JSON.parse(readFileSync(new URL('./legacy-ops.json', import.meta.url), 'utf8'));
let mode = { legacy };
if (pollute) {
  const hostile = hostileOptions(ekl);
  mode = { legacy, optionsProto: { ...hostile } };
  Object.assign(Object.prototype, hostile);
  reviver = nullPrototypes;
}
const answer = makeAnswer(ekl, mode);

// Answers in request order: an answer that is a promise (an async variant) holds the ones after it.
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let pending = Promise.resolve();
rl.on('line', (line) => {
  if (line.trim() === '') return;
  const out = answerLine(answer, line, reviver);
  pending = pending.then(() => out).then((text) => {
    process.stdout.write(`${text}\n`);
  });
});

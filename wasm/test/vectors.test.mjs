// Every file of vectors/ against the wasm build in Node: each case gives the file's expected value,
// and the result set equals the native one (the `ekl` CLI replays every case it has a command for).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadCjs, vectorFiles, ekl } from './helpers.mjs';
import { runVectors } from './vectors.mjs';
import { nativeResult } from './native.mjs';

const api = loadCjs();
const files = vectorFiles();

test('vectors/ is present and every file has a handler', () => {
  assert.ok(files.length >= 3, `vectors/ holds ${files.length} files`);
  assert.deepEqual(runVectors(api, files).unknown, []);
});

test('every case of every vector file gives its expected value (wasm in Node)', () => {
  const { records, failures } = runVectors(api, files);
  assert.deepEqual(failures, []);
  assert.ok(records.length > 100, `${records.length} cases`);
});

test('the wasm result set equals the native one (ekl CLI)', () => {
  const { records } = runVectors(api, files);
  let replayed = 0;
  const diffs = [];
  for (const r of records) {
    const native = nativeResult(ekl, r.call);
    if (native === undefined) continue;
    replayed++;
    if (native !== r.result) diffs.push({ file: r.file, case: r.case, wasm: r.result, native });
  }
  assert.deepEqual(diffs, []);
  assert.ok(replayed > 100, `${replayed} cases replayed natively`);
});

test('meta: a changed expected value makes the runner fail', () => {
  // A canonical form of ekl-json-1.json, and an error code of endpoint-proof-v2.json.
  const f = files.find((x) => x.name === 'ekl-json-1.json');
  assert.ok(f);
  const i = f.text.indexOf('"canonical": "') + 14;
  const flipped = f.text.slice(0, i) + (f.text[i] === '0' ? '1' : '0') + f.text.slice(i + 1);
  assert.ok(runVectors(api, [{ name: f.name, text: flipped }]).failures.length >= 1);
  const proofs = files.find((x) => x.name === 'endpoint-proof-v2.json');
  assert.ok(proofs);
  const j = proofs.text.indexOf('"proof_v2": "') + 13;
  const changed = proofs.text.slice(0, j) + (proofs.text[j] === '0' ? '1' : '0') + proofs.text.slice(j + 1);
  assert.ok(runVectors(api, [{ name: proofs.name, text: changed }]).failures.length >= 1);
});

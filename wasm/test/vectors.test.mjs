// The ECMAScript number file of RFC 8785's test data through the wasm build in Node (every other
// check of vectors/ is a line of vectors/calls.jsonl: vector-calls.test.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadCjs, vectorFiles } from './helpers.mjs';
import { runVectors } from './vectors.mjs';

const api = loadCjs();
const files = vectorFiles();

test('vectors/ is present and every file is checked', () => {
  assert.ok(files.length >= 3, `vectors/ holds ${files.length} files`);
  assert.deepEqual(runVectors(api, files).unknown, []);
});

test('the ECMAScript number file gives its published hash (wasm in Node)', () => {
  const { records, failures } = runVectors(api, files);
  assert.deepEqual(failures, []);
  assert.equal(records.length, 1);
});

test('meta: a changed published hash makes the runner fail', () => {
  const changed = files.map((f) => (f.name === 'rfc8785-testdata/es6-hashes.tsv' ? { ...f, text: f.text.replace(/\t(.)/, (_, c) => `\t${c === '0' ? '1' : '0'}`) } : f));
  assert.equal(runVectors(api, changed, { es6Lines: 1000 }).failures.length, 1);
});

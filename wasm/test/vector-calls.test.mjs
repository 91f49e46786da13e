// vectors/calls.jsonl through the wasm build in Node (vectors/README.md#calls): each line's `call`
// request, dispatched generically from the package's manifest (examples/conformance/ops.mjs),
// gives the value its vector file holds at its pointer; the value changed does not.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { loadCjs, repo } from './helpers.mjs';
import { makeAnswer } from '../../examples/conformance/ops.mjs';
import { runVectorCalls, changedCopy } from '../../examples/conformance/vector-calls.mjs';

const read = (...p) => readFileSync(join(repo, ...p), 'utf8');

test('vectors/calls.jsonl: every line gives its vector file value (wasm in Node)', () => {
  const legacy = JSON.parse(read('examples', 'conformance', 'legacy-ops.json'));
  const results = runVectorCalls(makeAnswer(loadCjs(), { legacy }), read('vectors', 'calls.jsonl'), (name) => read('vectors', name), {
    sha256: (s) => createHash('sha256').update(s, 'utf8').digest('hex'),
  });
  assert.ok(results.length > 0, 'vectors/calls.jsonl holds no line');
  assert.deepEqual(results.filter((r) => !r.pass), []);
  assert.deepEqual(results.filter((r) => r.tamperedPasses), [], 'a changed expected value passes');
});

test('meta: a copy of a vector file with one expected value changed fails (wasm in Node)', () => {
  const legacy = JSON.parse(read('examples', 'conformance', 'legacy-ops.json'));
  const line = read('vectors', 'calls.jsonl').split('\n').find((l) => l.includes('"file":"fingerprints.json"'));
  const original = read('vectors', 'fingerprints.json');
  const run = (text) => runVectorCalls(makeAnswer(loadCjs(), { legacy }), line, () => text, {});
  assert.equal(run(original)[0].pass, true);
  assert.equal(run(changedCopy(original, JSON.parse(line).pointer))[0].pass, false);
});

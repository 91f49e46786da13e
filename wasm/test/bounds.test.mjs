// Resource bounds of the wasm package in Node: the cases of node/test/bounds.test.js (the same
// child process, node/test/bounds-child.cjs, loading this package's CommonJS entry), each answered
// with its output or its code under the peak memory set for wasm in BOUNDS_CASES. Before the
// maximum input was checked in JS, a 1 GiB input trapped the module (`RuntimeError: unreachable`).
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { dist } from './helpers.mjs';
import { boundsProblems } from '../../node/test/hardening-node.mjs';

test('every resource-bounds case is answered with its output or its code, in bounded memory', { timeout: 900_000 }, () => {
  const [problems, reports] = boundsProblems(join(dist, 'index.cjs'), 'wasm');
  for (const r of reports) console.log(`bounds (wasm): ${JSON.stringify(r)}`);
  assert.deepEqual(problems, []);
});

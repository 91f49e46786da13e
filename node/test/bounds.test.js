'use strict'
// Resource bounds of the Node package (native addon), each case in a process of its own
// (bounds-child.cjs) so that its peak memory can be asserted: the documented maximum input,
// deep and wide inputs as text and as values, graphs of shared references. Every case is answered
// with its output or a code, under the peak memory set in hardening-node.mjs (BOUNDS_CASES); the
// figures measured here are recorded in docs/decisions.md#limits. The same cases run against the wasm
// package in wasm/test/bounds.test.mjs.
const test = require('node:test')
const assert = require('node:assert/strict')

test('every resource-bounds case is answered with its output or its code, in bounded memory', { timeout: 600_000 }, async () => {
  const { boundsProblems } = await import('./hardening-node.mjs')
  const [problems, reports] = boundsProblems(require.resolve('ekl-evidence'), 'native')
  for (const r of reports) console.log(`bounds (native): ${JSON.stringify(r)}`)
  assert.deepEqual(problems, [])
})

'use strict'
// vectors/calls.jsonl through the package (vectors/README.md#calls): each line's `call` request,
// dispatched generically from the package's manifest (examples/conformance/ops.mjs), gives the
// value its vector file holds at its pointer; the value changed does not (the meta-test, per line).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { ekl, ROOT, VECTORS_DIR } = require('./helpers.js')

const CONFORMANCE = path.join(ROOT, 'examples', 'conformance')
const CALLS = path.join(VECTORS_DIR, 'calls.jsonl')

test('vectors/calls.jsonl: every line gives its vector file value', async () => {
  const { makeAnswer } = await import(path.join(CONFORMANCE, 'ops.mjs'))
  const { runVectorCalls } = await import(path.join(CONFORMANCE, 'vector-calls.mjs'))
  const legacy = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'legacy-ops.json'), 'utf8'))
  const results = runVectorCalls(
    makeAnswer(ekl, { legacy }),
    fs.readFileSync(CALLS, 'utf8'),
    (name) => fs.readFileSync(path.join(VECTORS_DIR, name), 'utf8'),
    { sha256: (s) => crypto.createHash('sha256').update(s, 'utf8').digest('hex') },
  )
  assert.ok(results.length > 0, 'vectors/calls.jsonl holds no line')
  const failed = results.filter((r) => !r.pass)
  assert.deepEqual(failed, [])
  const blind = results.filter((r) => r.tamperedPasses)
  assert.deepEqual(blind, [], 'a changed expected value passes')
})

test('meta: the runner fails on a copy of a vector file with one expected value changed', async () => {
  const { makeAnswer } = await import(path.join(CONFORMANCE, 'ops.mjs'))
  const { runVectorCalls, changedCopy } = await import(path.join(CONFORMANCE, 'vector-calls.mjs'))
  const legacy = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'legacy-ops.json'), 'utf8'))
  const line = fs.readFileSync(CALLS, 'utf8').split('\n').find((l) => l.includes('"file":"fingerprints.json"'))
  const original = fs.readFileSync(path.join(VECTORS_DIR, 'fingerprints.json'), 'utf8')
  const run = (text) => runVectorCalls(makeAnswer(ekl, { legacy }), line, () => text, {})
  assert.equal(run(original)[0].pass, true)
  assert.equal(run(changedCopy(original, JSON.parse(line).pointer))[0].pass, false)
})

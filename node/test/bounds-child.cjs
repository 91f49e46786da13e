'use strict'
// One case of the resource-bounds tests, in a process of its own so that its peak memory can be
// measured: `node bounds-child.cjs ENTRY CASE` loads the package at ENTRY (the Node package, or
// the wasm package's CommonJS entry), runs CASE and prints one JSON line:
//   {what, code} (the EklError's code) or {what, out} (the output's length), with ms (the call
//   alone), baseRssMB (after the package and the input were ready) and peakRssMB (the process's
//   peak resident set, from getrusage).
// Run without arguments (as `node --test` runs every file of this folder) it does nothing.

const [entry, name] = process.argv.slice(2)
if (entry !== undefined) main()

function nest(n, leaf) {
  let v = leaf
  for (let i = 0; i < n; i++) v = [v]
  return v
}

function dag(n, pair) {
  let v = []
  for (let i = 0; i < n; i++) v = pair(v)
  return v
}

function main() {
  const api = require(entry)
  const MAX = api.MAX_INPUT_BYTES
  const MAX_VALUE = api.MAX_VALUE_BYTES
  /** name -> () => [input builder, call] */
  const cases = {
    // JSON text
    'max-text': () => ['["' + 'x'.repeat(MAX - 4) + '"]', (t) => api.canonicalize(t)],
    'max-bytes': () => [Buffer.from('["' + 'x'.repeat(MAX - 4) + '"]'), (t) => api.canonicalize(t)],
    'over-text': () => ['x'.repeat(MAX + 1), (t) => api.canonicalize(t)],
    'over-bytes-1gib': () => [new Uint8Array(2 ** 30), (t) => api.canonicalize(t)],
    'over-utf8': () => ['"' + 'é'.repeat(MAX / 2) + '"', (t) => api.canonicalize(t)],
    'deep-text': () => ['['.repeat(MAX), (t) => api.canonicalize(t)],
    'wide-text': () => ['[' + '0,'.repeat(MAX / 2 - 2) + '0] ', (t) => api.canonicalize(t)],
    'wide-object-text': () => {
      const parts = []
      for (let i = 0; i < 2_000_000; i++) parts.push(`"k${i}":${i}`)
      return ['{' + parts.join(',') + '}', (t) => api.canonicalize(t)]
    },
    // JS values
    'max-value': () => [['x'.repeat(MAX_VALUE - 4)], (v) => api.canonicalizeValue(v)],
    'over-value': () => [['x'.repeat(MAX_VALUE - 3)], (v) => api.canonicalizeValue(v)],
    'deep-value': () => [nest(1_000_000, []), (v) => api.canonicalizeValue(v)],
    'wide-value': () => [Array.from({ length: 1_000_000 }, (_, i) => ({ id: i, name: `n${i}` })), (v) => api.canonicalizeValue(v)],
    'dag-arrays': () => [dag(28, (v) => [v, v]), (v) => api.canonicalizeValue(v)],
    'dag-objects': () => [dag(28, (v) => ({ a: v, b: v })), (v) => api.fingerprint('00'.repeat(32), v)],
    'dag-input-commitment': () => [dag(28, (v) => [v, v]), (v) => api.inputCommitment(v)],
    'shared-strings': () => [new Array(1_000_000).fill('x'.repeat(1000)), (v) => api.canonicalizeValue(v)],
  }
  const make = cases[name]
  if (make === undefined) throw new Error(`no case ${name}`)
  const [input, call] = make()
  const baseRssMB = Math.round(process.memoryUsage().rss / 2 ** 20)
  const t0 = process.hrtime.bigint()
  const report = { what: name }
  try {
    report.out = call(input).length
  } catch (e) {
    if (!api.isEklError(e)) throw e
    report.code = e.code
  }
  report.ms = Math.round(Number(process.hrtime.bigint() - t0) / 1e6)
  report.baseRssMB = baseRssMB
  report.peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024)
  console.log(JSON.stringify(report))
}

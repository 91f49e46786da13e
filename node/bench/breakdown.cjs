'use strict'
// Where the time of one canonicalisation goes in Node (issue 15): the text path and the JS-value
// path cut into their parts, each timed alone over the corpus of the benchmark, in CPU time
// (process.cpuUsage, so the load of other jobs on a shared machine weighs less than on wall
// clock), interleaved round by round, median and minimum over the rounds.
//
//   node bench/breakdown.cjs --corpus DIR [--rounds N]     (DIR: target/bench-corpus, as
//                                                            scripts/bench-node.sh writes it)
const fs = require('node:fs')
const path = require('node:path')

const args = process.argv.slice(2)
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt)
const corpus = opt('--corpus', null)
const rounds = Number(opt('--rounds', 9))
if (!corpus) {
  console.error('usage: node bench/breakdown.cjs --corpus DIR [--rounds N]')
  process.exit(2)
}
const pkg = path.join(__dirname, '..')
const ekl = require(pkg)
const native = require(path.join(pkg, 'native.js'))
const { toJsonText } = require(path.join(pkg, 'js', 'convert.js'))
const { canonify } = require('@truestamp/canonify')

const small = path.join(corpus, 'small')
const texts = fs.readdirSync(small).sort().map((f) => fs.readFileSync(path.join(small, f), 'utf8'))
const buffers = texts.map((t) => Buffer.from(t))
const values = texts.map((t) => JSON.parse(t))
const walked = values.map((v) => toJsonText(v))
const walkedBytes = walked.map((t) => Buffer.from(t))
const mean = buffers.reduce((n, b) => n + b.length, 0) / texts.length
const encoder = new TextEncoder()
const scratch = new Uint8Array(1 << 20)
const out = new Uint8Array(1 << 16)
const empty = Buffer.from('[]')

const parts = [
  ['text', 'ekl canonicalize(string), all', (i) => ekl.canonicalize(texts[i])],
  ['text', '  TextEncoder.encodeInto', (i) => encoder.encodeInto(texts[i], scratch)],
  ['text', '  addon: U+FFFD check + core + copy out', (i) => native.canonicalizeStringInto(buffers[i], buffers[i].length, out, 0)],
  ['text', 'ekl canonicalize(Buffer), all', (i) => ekl.canonicalize(buffers[i])],
  ['text', '  addon: core + copy out', (i) => native.canonicalizeInto(buffers[i], null, out, 0)],
  ['text', '  crossing alone (addon call on "[]")', () => native.canonicalizeInto(empty, null, out, 0)],
  ['text', '  result Buffer (allocUnsafe + set)', (i) => Buffer.allocUnsafe(buffers[i].length).set(out.subarray(0, buffers[i].length))],
  ['text', 'peer: JSON.parse + @truestamp/canonify', (i) => canonify(JSON.parse(texts[i]))],
  ['value', 'ekl canonicalizeValue(value), all', (i) => ekl.canonicalizeValue(values[i])],
  ['value', '  JS conversion (convert.js walker)', (i) => toJsonText(values[i])],
  ['value', '  TextEncoder.encodeInto of its (flat) text', (i) => encoder.encodeInto(walked[i], scratch)],
  ['value', '  walker + encodeInto of its fresh text', (i) => encoder.encodeInto(toJsonText(values[i]), scratch)],
  ['value', '  addon: core on that text + copy out', (i) => native.canonicalizeInto(walkedBytes[i], null, out, 0)],
  ['value', '  (JSON.stringify, for scale)', (i) => JSON.stringify(values[i])],
  ['value', 'peer: @truestamp/canonify(value)', (i) => canonify(values[i])],
]
const times = parts.map(() => [])
for (let r = 0; r <= rounds; r++) {
  parts.forEach(([, , f], k) => {
    const t = process.cpuUsage()
    for (let i = 0; i < texts.length; i++) f(i)
    const d = process.cpuUsage(t)
    if (r > 0) times[k].push((d.user + d.system) / texts.length)
  })
}
console.log(`node ${process.version}: ${texts.length} documents of ${Math.round(mean)} bytes on average; CPU µs per document, median (min) of ${rounds} rounds`)
let kind = ''
parts.forEach(([k, name], i) => {
  if (k !== kind) console.log(`${k} path`)
  kind = k
  const xs = [...times[i]].sort((a, b) => a - b)
  console.log(`  ${name.padEnd(44)} ${xs[xs.length >> 1].toFixed(2).padStart(7)} (${xs[0].toFixed(2)})`)
})

'use strict'
// The one part of vectors/ that is not a list of cases (every case is in vectors/calls.jsonl, run by
// vector-calls.test.js): the ECMAScript number file of RFC 8785's test data, generated here and
// hashed against the published SHA-256 of its first lines (rfc8785-testdata/es6-hashes.tsv,
// 10^3 to 10^5 here). The meta-test changes a published hash and requires the check to fail.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { ekl, VECTORS_DIR } = require('./helpers.js')

const RFC = path.join(VECTORS_DIR, 'rfc8785-testdata')

/**
 * The first n lines of the ECMAScript number test file (README of rfc8785-testdata): doubles from
 * numgen-static.txt, then 0x0010000000000000 + i for i < 2000, then a SHA-256 chain; each line
 * `<hex bits>,<text>` where the text is written by the package (through the text path, each
 * number spelled with an exponent so that no integer literal rule applies).
 */
function es6Lines(staticHex, n) {
  const bits = []
  for (const h of staticHex) bits.push(BigInt('0x' + h))
  for (let i = 0n; i < 2000n; i++) bits.push(0x0010000000000000n + i)
  const f64 = new Float64Array(1)
  const u64 = new BigUint64Array(f64.buffer)
  let block = Buffer.alloc(32)
  while (bits.length < n) {
    block = crypto.createHash('sha256').update(block).digest()
    for (let w = 0; w < 4; w++) {
      const b = block.readBigUInt64LE(w * 8)
      u64[0] = b
      const x = f64[0]
      if (x !== 0 && Number.isFinite(x)) bits.push(b)
    }
  }
  bits.length = n
  const numbers = bits.map((b) => {
    u64[0] = b
    return f64[0]
  })
  const texts = ekl
    .canonicalize('[' + numbers.map((x) => x.toExponential()).join(',') + ']')
    .toString('latin1')
    .slice(1, -1)
    .split(',')
  let out = ''
  for (let i = 0; i < n; i++) out += `${bits[i].toString(16)},${texts[i]}\n`
  return out
}

/** [[lines, published SHA-256]] of es6-hashes.tsv, up to 10^5 lines. */
function published() {
  return fs
    .readFileSync(path.join(RFC, 'es6-hashes.tsv'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .filter(([n]) => Number(n) <= 100000)
}

const numgen = () => fs.readFileSync(path.join(RFC, 'numgen-static.txt'), 'utf8').split('\n').filter(Boolean)
const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex')

test('rfc8785-testdata: the ECMAScript number file, SHA-256 of its first lines', () => {
  const rows = published()
  assert.ok(rows.length >= 3, 'es6-hashes.tsv holds the 10^3 to 10^5 rows')
  const all = es6Lines(numgen(), Math.max(...rows.map(([n]) => Number(n))))
  for (const [n, hash] of rows) {
    const first = all.split('\n').slice(0, Number(n)).join('\n') + '\n'
    assert.equal(sha256(first), hash, `the first ${n} lines`)
  }
})

test('meta: a changed published hash fails', () => {
  const [n, hash] = published()[0]
  const changed = hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0')
  assert.notEqual(sha256(es6Lines(numgen(), Number(n))), changed)
  assert.equal(sha256(es6Lines(numgen(), Number(n))), hash)
})

// The Node benchmark: ekl-core's text path and value path against the JS RFC 8785 peers, on one
// corpus, in one run (issue 5). Run through scripts/bench-node.sh (./run bench node), which
// writes the corpus of the Rust benchmark (bench/src/corpus.rs) and passes its folder.
//
//   node bench/bench.mjs --corpus DIR [--rounds N]      (BENCH_ROUNDS also sets the rounds)
//
// Text path: the input is JSON text; the peers' users JSON.parse it and canonicalise the value
// (JSON.parse cannot see duplicate keys and rounds integer literals beyond 2^53: the peers accept
// what ekl-json-1 refuses). Value path: the input is a JS value. Every implementation runs once per
// round over all small documents and once over the big one, interleaved; the median round is
// reported. Outputs are compared with ours, document by document, and differences are listed.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'

const require = createRequire(import.meta.url)
const ekl = require('ekl-evidence')
const erdtman = require('canonicalize').default
const { canonicalize: jsonCanonicalize } = require('json-canonicalize')
const { canonify } = require('@truestamp/canonify')
const pkg = (name) =>
  JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'node_modules', name, 'package.json'), 'utf8')).version

const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : dflt
}
const corpusDir = opt('--corpus', null)
const rounds = Number(opt('--rounds', process.env.BENCH_ROUNDS || 7))
if (!corpusDir) {
  console.error('usage: node bench/bench.mjs --corpus DIR [--rounds N]  (scripts/bench-node.sh writes DIR)')
  process.exit(2)
}

const smallDir = path.join(corpusDir, 'small')
const texts = fs.readdirSync(smallDir).sort().map((f) => fs.readFileSync(path.join(smallDir, f), 'utf8'))
const buffers = texts.map((t) => Buffer.from(t, 'utf8'))
const values = texts.map((t) => JSON.parse(t))
const bigText = fs.readFileSync(path.join(corpusDir, 'big.json'), 'utf8')
const bigBuffer = Buffer.from(bigText, 'utf8')
const bigValue = JSON.parse(bigText)
const smallBytes = buffers.reduce((n, b) => n + b.length, 0)

const str = (x) => (typeof x === 'string' ? x : Buffer.from(x).toString('utf8'))

/** [name, kind, run(i) for document i (or -1 for the big one), isOurs] */
const impls = [
  ['ekl-core canonicalize(string)', 'text', (i) => ekl.canonicalize(i < 0 ? bigText : texts[i]), true],
  ['ekl-core canonicalize(Buffer)', 'text', (i) => ekl.canonicalize(i < 0 ? bigBuffer : buffers[i]), true],
  [`canonicalize ${pkg('canonicalize')} (JSON.parse)`, 'text', (i) => erdtman(JSON.parse(i < 0 ? bigText : texts[i])), false],
  [`json-canonicalize ${pkg('json-canonicalize')} (JSON.parse)`, 'text', (i) => jsonCanonicalize(JSON.parse(i < 0 ? bigText : texts[i])), false],
  [`@truestamp/canonify ${pkg('@truestamp/canonify')} (JSON.parse)`, 'text', (i) => canonify(JSON.parse(i < 0 ? bigText : texts[i])), false],
  ['ekl-core canonicalizeValue', 'value', (i) => ekl.canonicalizeValue(i < 0 ? bigValue : values[i]), true],
  [`canonicalize ${pkg('canonicalize')}`, 'value', (i) => erdtman(i < 0 ? bigValue : values[i]), false],
  [`json-canonicalize ${pkg('json-canonicalize')}`, 'value', (i) => jsonCanonicalize(i < 0 ? bigValue : values[i]), false],
  [`@truestamp/canonify ${pkg('@truestamp/canonify')}`, 'value', (i) => canonify(i < 0 ? bigValue : values[i]), false],
]

console.log(`node ${process.version}, ekl-core ${ekl.coreVersion()} (${ekl.backend}), ${rounds} rounds, median`)
console.log(`corpus: ${texts.length} documents, ${smallBytes} bytes (mean ${Math.round(smallBytes / texts.length)}); big document ${bigBuffer.length} bytes`)

// 1. Outputs: ours against each peer, document by document.
const ours = texts.map((t) => ekl.canonicalize(t).toString('utf8'))
const oursBig = ekl.canonicalize(bigText).toString('utf8')
const differences = []
for (const [name, , run, isOurs] of impls) {
  let differ = 0
  let first = null
  for (let i = -1; i < texts.length; i++) {
    let out
    try {
      out = str(run(i))
    } catch (e) {
      out = `<threw ${e.code ?? e.message}>`
    }
    const want = i < 0 ? oursBig : ours[i]
    if (out !== want) {
      differ++
      if (first === null) {
        let k = 0
        while (k < out.length && out[k] === want[k]) k++
        first = `${i < 0 ? 'big' : `#${i}`} at char ${k}: ours …${JSON.stringify(want.slice(Math.max(0, k - 20), k + 30))}… theirs …${JSON.stringify(out.slice(Math.max(0, k - 20), k + 30))}…`
      }
    }
  }
  if (isOurs && differ > 0) throw new Error(`${name} differs from canonicalize(string) on ${differ} documents: ${first}`)
  if (!isOurs) differences.push([name, differ, first])
}

// 2. Timing.
// Wall time (performance.now) and this process's CPU time (process.cpuUsage: user + system, µs)
// of every round; on a shared machine CPU time is the steadier of the two.
const small = impls.map(() => [])
const big = impls.map(() => [])
const smallCpu = impls.map(() => [])
for (let r = 0; r < rounds + 1; r++) {
  impls.forEach(([, , run], k) => {
    const c0 = process.cpuUsage()
    let t = performance.now()
    for (let i = 0; i < texts.length; i++) run(i)
    const s = performance.now() - t
    const c = process.cpuUsage(c0)
    t = performance.now()
    run(-1)
    const b = performance.now() - t
    if (r > 0) {
      // round 0 warms up
      small[k].push(s)
      big[k].push(b)
      smallCpu[k].push((c.user + c.system) / 1000)
    }
  })
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

const rows = impls.map(([name, kind, , isOurs], k) => {
  const sMs = median(small[k])
  const bMs = median(big[k])
  const cpuMs = median(smallCpu[k])
  return { name, kind, isOurs, smallMBs: smallBytes / 1e3 / sMs, usPerDoc: (sMs * 1e3) / texts.length, cpuUsPerDoc: (cpuMs * 1e3) / texts.length, bigMBs: bigBuffer.length / 1e3 / bMs }
})

for (const kind of ['text', 'value']) {
  const group = rows.filter((r) => r.kind === kind)
  const peers = group.filter((r) => !r.isOurs)
  const fastestSmall = Math.max(...peers.map((r) => r.smallMBs))
  const fastestBig = Math.max(...peers.map((r) => r.bigMBs))
  const leastCpu = Math.min(...peers.map((r) => r.cpuUsPerDoc))
  console.log(`\n${kind} path${kind === 'text' ? ' (input: JSON text)' : ' (input: JS values)'}`)
  console.log(`  ${'implementation'.padEnd(44)} ${'small MB/s'.padStart(10)} ${'µs/doc'.padStart(8)} ${'CPU µs/doc'.padStart(10)} ${'big MB/s'.padStart(9)}  ratio to the fastest peer (small / big; small in CPU time)`)
  for (const r of group) {
    const ratio = `${(r.smallMBs / fastestSmall).toFixed(2)}× / ${(r.bigMBs / fastestBig).toFixed(2)}×; CPU ${(leastCpu / r.cpuUsPerDoc).toFixed(2)}×`
    console.log(`  ${r.name.padEnd(44)} ${r.smallMBs.toFixed(1).padStart(10)} ${r.usPerDoc.toFixed(1).padStart(8)} ${r.cpuUsPerDoc.toFixed(1).padStart(10)} ${r.bigMBs.toFixed(1).padStart(9)}  ${ratio}`)
  }
}

// EKL_BENCH_JSON=FILE: the figures as JSON lines for the common report (scripts/bench/report.py).
const report = []
for (const kind of ['text', 'value']) {
  for (const size of ['small', 'big']) {
    const key = size === 'small' ? 'smallMBs' : 'bigMBs'
    const best = (xs) => xs.reduce((a, r) => (a && a[key] >= r[key] ? a : r), null)
    const ours = best(rows.filter((r) => r.kind === kind && r.isOurs))
    const peer = best(rows.filter((r) => r.kind === kind && !r.isOurs))
    report.push({ step: 'node', surface: 'node', operation: `canonicalize ${kind} ${size === 'small' ? 'small docs' : 'big doc'}`, unit: 'MB/s',
      ours_name: ours.name, ours: ours[key], peer: peer.name, peer_value: peer[key], ratio: ours[key] / peer[key] })
  }
  // The small documents in CPU time (µs a document: lower is faster).
  const least = (xs) => xs.reduce((a, r) => (a && a.cpuUsPerDoc <= r.cpuUsPerDoc ? a : r), null)
  const ours = least(rows.filter((r) => r.kind === kind && r.isOurs))
  const peer = least(rows.filter((r) => r.kind === kind && !r.isOurs))
  report.push({ step: 'node', surface: 'node', operation: `canonicalize ${kind} small docs (CPU)`, unit: 'µs',
    ours_name: ours.name, ours: ours.cpuUsPerDoc, peer: peer.name, peer_value: peer.cpuUsPerDoc, ratio: peer.cpuUsPerDoc / ours.cpuUsPerDoc })
}

console.log('\noutputs that differ from ekl-core (per peer: documents of the corpus, big one included)')
for (const [name, differ, first] of differences) {
  console.log(`  ${name.padEnd(44)} ${String(differ).padStart(5)} of ${texts.length + 1}${first ? `  first: ${first}` : ''}`)
}

// Inputs ekl-json-1 refuses that the JSON.parse-based peers turn into output (what their users get).
const probes = [
  ['duplicate key', '{"a":1,"a":2}'],
  ['escaped duplicate key', '{"a":1,"\\u0061":2}'],
  ['integer literal 2^53+1', '[9007199254740993]'],
  ['lone surrogate escape', '["\\ud800"]'],
  ['65 nested arrays', '['.repeat(65) + ']'.repeat(65)],
  ['number overflowing to infinity', '[1e400]'],
]
console.log('\ninputs ekl-json-1 refuses, and what the peers (JSON.parse + canonicalise) make of them')
for (const [what, text] of probes) {
  let ourCode
  try {
    ekl.canonicalize(text)
    ourCode = 'accepted'
  } catch (e) {
    ourCode = e.code
  }
  const theirs = impls
    .filter(([, kind, , isOurs]) => kind === 'text' && !isOurs)
    .map(([name]) => {
      let out
      try {
        const fn = name.startsWith('canonicalize') ? erdtman : name.startsWith('json-') ? jsonCanonicalize : canonify
        out = str(fn(JSON.parse(text)))
      } catch (e) {
        out = `throws ${e.constructor.name}`
      }
      return `${name.split(' ')[0]}: ${out.length > 24 ? out.slice(0, 21) + '...' : out}`
    })
  console.log(`  ${what.padEnd(32)} ${ourCode.padEnd(22)} ${theirs.join('; ')}`)
}

// 3. ES256 verification: ekl-core's verifyJws (signature and claims) against jose's compactVerify
// and node:crypto's verify (OpenSSL) on the same token and key.
if (typeof ekl.verifyJws === 'function') {
  const crypto = await import('node:crypto')
  const jose = await import('jose')
  const now = 1780000000
  // One token signed with node:crypto, verified by all three with the same public key.
  const jwksValue = { keys: [] }
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  jwksValue.keys.push({ kty: 'EC', crv: 'P-256', kid: 'bench-1', x: jwk.x, y: jwk.y, alg: 'ES256', use: 'sig' })
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'bench-1', typ: 'ekl-receipt+jwt' })).toString('base64url')
  const payload = Buffer.from(JSON.stringify({ iss: 'https://n.example', aud: 'agt_c', iat: now, exp: now + 300, n: 'x'.repeat(200) })).toString('base64url')
  const signingInput = `${header}.${payload}`
  const sig = crypto.sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')
  const jwt = `${signingInput}.${sig}`
  const jwks = new ekl.Jwks(jwksValue)
  const joseKey = await jose.importJWK({ ...jwksValue.keys[0] }, 'ES256')
  const n = Number(process.env.BENCH_ES256_ITERATIONS || 3000)
  const time = async (f) => {
    for (let i = 0; i < 200; i++) await f()
    const t = performance.now()
    for (let i = 0; i < n; i++) await f()
    return ((performance.now() - t) * 1000) / n
  }
  const oursUs = await time(() => ekl.verifyJws(jwt, 'ekl-receipt+jwt', jwks, { now, issuer: 'https://n.example', audience: 'agt_c' }))
  const joseUs = await time(() => jose.compactVerify(jwt, joseKey))
  const [h, p, s2] = jwt.split('.')
  const nodeUs = await time(() =>
    crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(s2, 'base64url')),
  )
  console.log(`\nES256 verification (one token, ${n} iterations, µs per verification)`)
  console.log(`  ekl-core verifyJws (signature, typ, kid, iss, aud, times)  ${oursUs.toFixed(1).padStart(8)}  ${(oursUs / nodeUs).toFixed(2)}× node:crypto`)
  console.log(`  ${('jose ' + pkg('jose') + ' compactVerify (signature only)').padEnd(57)}${joseUs.toFixed(1).padStart(8)}  ${(joseUs / nodeUs).toFixed(2)}× node:crypto`)
  console.log(`  node:crypto verify (OpenSSL, signature only)             ${nodeUs.toFixed(1).padStart(8)}  1.00×`)
  report.push({ step: 'node', surface: 'node', operation: 'ES256 verify', unit: 'µs', ours_name: 'ekl-core verifyJws',
    ours: oursUs, peer: 'node:crypto verify (OpenSSL)', peer_value: nodeUs, ratio: nodeUs / oursUs })
} else {
  console.log(`\nES256: not measured (no JWS verification in this build of ekl-core; jose ${pkg('jose')} is ready)`)
}
if (process.env.EKL_BENCH_JSON) fs.appendFileSync(process.env.EKL_BENCH_JSON, report.map((r) => JSON.stringify(r) + '\n').join(''))

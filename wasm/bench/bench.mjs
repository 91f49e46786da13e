// The wasm package in Node against the JS RFC 8785 peers of the Node bench (canonicalize,
// json-canonicalize, @truestamp/canonify, from node/node_modules) and ES256 verifyJws against
// node:crypto (OpenSSL), on the shared corpus (issue 7). The measuring code is wasm/bench/suite.mjs,
// shared with the Chromium run (wasm/bench/chromium.mjs). Run through scripts/bench.sh (step wasm-node).
//
//   node wasm/bench/bench.mjs --corpus DIR [--rounds N]    (BENCH_ROUNDS also sets the rounds)
//   EKL_BENCH_JSON=FILE   append the figures as JSON lines (scripts/bench/report.py reads them)
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { runSuite } from './suite.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..', '..')
const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : dflt
}
const corpusDir = opt('--corpus', null)
if (!corpusDir) {
  console.error('usage: node wasm/bench/bench.mjs --corpus DIR [--rounds N]')
  process.exit(2)
}
const rounds = Number(opt('--rounds', process.env.BENCH_ROUNDS || 3))
const iterations = Number(process.env.BENCH_WASM_ES256_ITERATIONS || 1000)

const ekl = createRequire(path.join(repo, 'wasm', 'package.json'))('./dist/index.cjs')
const nodeRequire = createRequire(path.join(repo, 'node', 'package.json'))
const version = (name) => JSON.parse(fs.readFileSync(path.join(repo, 'node', 'node_modules', name, 'package.json'), 'utf8')).version
const peers = [
  { name: `canonicalize ${version('canonicalize')}`, fn: nodeRequire('canonicalize').default },
  { name: `json-canonicalize ${version('json-canonicalize')}`, fn: nodeRequire('json-canonicalize').canonicalize },
  { name: `@truestamp/canonify ${version('@truestamp/canonify')}`, fn: nodeRequire('@truestamp/canonify').canonify },
]

const smallDir = path.join(corpusDir, 'small')
const texts = fs.readdirSync(smallDir).sort().map((f) => fs.readFileSync(path.join(smallDir, f), 'utf8'))
const bigText = fs.readFileSync(path.join(corpusDir, 'big.json'), 'utf8')

console.log(`node ${process.version}, ekl-wasm ${ekl.coreVersion()} (${ekl.backend})`)
const records = await runSuite({
  ekl, surface: 'wasm-node', peers, texts, bigText, rounds, es256Iterations: iterations, log: (l) => console.log(l),
  es256Peers: async (jwt, jwk) => {
    const key = crypto.createPublicKey({ key: jwk, format: 'jwk' })
    const [h, p, s] = jwt.split('.')
    const input = Buffer.from(`${h}.${p}`)
    const sig = Buffer.from(s, 'base64url')
    return [{ name: 'node:crypto verify (OpenSSL)', fn: () => crypto.verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, sig) }]
  },
  es256FreshPeer: async (items) => {
    const keys = items.map((it) => crypto.createPublicKey({ key: it.jwk, format: 'jwk' }))
    return {
      name: 'node:crypto verify (OpenSSL)',
      run: () => {
        for (let i = 0; i < items.length; i++) {
          if (!crypto.verify('sha256', items[i].input, { key: keys[i], dsaEncoding: 'ieee-p1363' }, items[i].sig)) throw new Error('OpenSSL does not verify a token')
        }
      },
    }
  },
  cpuMicros: () => {
    const c = process.cpuUsage()
    return c.user + c.system
  },
})
if (process.env.EKL_BENCH_JSON) {
  fs.appendFileSync(process.env.EKL_BENCH_JSON, records.map((r) => JSON.stringify({ step: 'wasm-node', ...r }) + '\n').join(''))
}

// The wasm benchmark in headless Chromium (issue 7): the same suite as the Node run
// (wasm/bench/suite.mjs), in a page served from 127.0.0.1, with the wasm package's browser entry
// (wasm/dist/index.web.mjs) and the same JS peers loaded as plain ES modules from node/node_modules
// (canonicalize, json-canonicalize, @truestamp/canonify: no dependencies, no bundler needed).
// ES256: verifyJws against WebCrypto's crypto.subtle.verify (Chromium's BoringSSL), the browser's
// native peer. Chromium is launched by wasm/test/browser.mjs (withChromium, the TOOLCHAIN flags).
//
//   node wasm/bench/chromium.mjs --corpus DIR [--rounds N]   (BENCH_ROUNDS also sets the rounds)
//   EKL_BENCH_JSON=FILE   append the figures as JSON lines (scripts/bench/report.py reads them)
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { withChromium } from '../test/browser.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..', '..')
const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : dflt
}
const corpusDir = opt('--corpus', null)
if (!corpusDir) {
  console.error('usage: node wasm/bench/chromium.mjs --corpus DIR [--rounds N]')
  process.exit(2)
}
const rounds = Number(opt('--rounds', process.env.BENCH_ROUNDS || 3))
const iterations = Number(process.env.BENCH_WASM_ES256_ITERATIONS || 1000)
const smallDir = path.join(corpusDir, 'small')
const texts = fs.readdirSync(smallDir).sort().map((f) => fs.readFileSync(path.join(smallDir, f), 'utf8'))
const bigText = fs.readFileSync(path.join(corpusDir, 'big.json'), 'utf8')
const nm = path.join(repo, 'node', 'node_modules')
const version = (name) => JSON.parse(fs.readFileSync(path.join(nm, name, 'package.json'), 'utf8')).version

// URL prefix -> folder; nothing outside these is served.
const roots = { '/pkg/': path.join(repo, 'wasm', 'dist'), '/bench/': here, '/nm/': nm }
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' }
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  if (url.pathname === '/blank.html') {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>ekl-wasm bench</title>')
    return
  }
  const prefix = Object.keys(roots).find((p) => url.pathname.startsWith(p))
  const file = prefix && path.join(roots[prefix], path.normalize(decodeURIComponent(url.pathname.slice(prefix.length))))
  if (!file || !file.startsWith(roots[prefix]) || !fs.existsSync(file)) {
    res.writeHead(404)
    res.end()
    return
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' })
  res.end(fs.readFileSync(file))
})
await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
const base = `http://127.0.0.1:${server.address().port}`

const peerNames = {
  canonicalize: `canonicalize ${version('canonicalize')}`,
  jsonCanonicalize: `json-canonicalize ${version('json-canonicalize')}`,
  canonify: `@truestamp/canonify ${version('@truestamp/canonify')}`,
}
try {
  const { records, lines, agent } = await withChromium(async (page, _context, errors) => {
    await page.goto(`${base}/blank.html`)
    const out = await page.evaluate(async ({ texts, bigText, rounds, iterations, peerNames }) => {
      const ekl = await import('/pkg/index.web.mjs')
      const { runSuite } = await import('/bench/suite.mjs')
      const canonicalize = (await import('/nm/canonicalize/lib/canonicalize.js')).default
      const { canonicalize: jsonCanonicalize } = await import('/nm/json-canonicalize/dist/index.mjs')
      const { canonify } = await import('/nm/@truestamp/canonify/dist/index.mjs')
      const lines = []
      const records = await runSuite({
        ekl, surface: 'wasm-chromium', texts, bigText, rounds, es256Iterations: iterations, log: (l) => lines.push(l),
        peers: [
          { name: peerNames.canonicalize, fn: canonicalize },
          { name: peerNames.jsonCanonicalize, fn: jsonCanonicalize },
          { name: peerNames.canonify, fn: canonify },
        ],
        es256Peers: async (jwt, _jwk, key) => {
          const [h, p, s] = jwt.split('.')
          const input = new TextEncoder().encode(`${h}.${p}`)
          const sig = Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
          const alg = { name: 'ECDSA', hash: 'SHA-256' }
          if (!(await crypto.subtle.verify(alg, key, sig, input))) throw new Error('WebCrypto does not verify the token')
          return [{ name: 'WebCrypto subtle.verify (BoringSSL)', fn: () => crypto.subtle.verify(alg, key, sig, input) }]
        },
        es256FreshPeer: async (items) => {
          const alg = { name: 'ECDSA', hash: 'SHA-256' }
          const keys = await Promise.all(items.map((it) => crypto.subtle.importKey('jwk', it.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])))
          return {
            name: 'WebCrypto subtle.verify (BoringSSL)',
            run: async () => {
              for (let i = 0; i < items.length; i++) {
                if (!(await crypto.subtle.verify(alg, keys[i], items[i].sig, items[i].input))) throw new Error('WebCrypto does not verify a token')
              }
            },
          }
        },
      })
      return { records, lines, agent: navigator.userAgent }
    }, { texts, bigText, rounds, iterations, peerNames })
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`)
    return out
  })
  console.log(`chromium: ${agent}`)
  for (const l of lines) console.log(l)
  if (process.env.EKL_BENCH_JSON) {
    fs.appendFileSync(process.env.EKL_BENCH_JSON, records.map((r) => JSON.stringify({ step: 'wasm-chromium', ...r }) + '\n').join(''))
  }
} finally {
  server.close()
}

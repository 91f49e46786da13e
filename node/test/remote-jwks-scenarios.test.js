'use strict'
// Every scenario of tools/remote-jwks/scenarios.json against the JS RemoteJwks (node/js/remote.js),
// played by the one scripted server (tools/remote-jwks/server.py, started here with python3);
// python/tests/test_remote_jwks_scenarios.py runs the same file against the Python RemoteJwks.
// The scenarios run in a child process started with NODE_EXTRA_CA_CERTS (the server's
// self-signed certificate: Node reads it at start only); the outcomes are written to
// target/remote-jwks/node.json (tools/remote-jwks/table.py prints both side by side).
const path = require('node:path')
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const { ROOT } = require('./helpers.js')

const TOOL = path.join(ROOT, 'tools', 'remote-jwks')
const FILE = JSON.parse(fs.readFileSync(path.join(TOOL, 'scenarios.json'), 'utf8'))

const num = (v) => (v !== null && typeof v === 'object' && '$' in v ? Number(v.$) : v)
const options = (o) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, num(v)]))
const token = (step) => `${Buffer.from(step.header ?? JSON.stringify({ alg: 'ES256', kid: step.kid })).toString('base64url')}.e30.c2ln`
const expected = (e) => ('kids' in e ? `kids ${e.kids.join(',')}` : e.error + ('message' in e ? `: ${e.message}` : ''))
const matches = (got, want) => ('kids' in want || 'message' in want ? got === expected(want) : got.split(':', 1)[0] === want.error)
const sleep = (s) => new Promise((resolve) => setTimeout(resolve, s * 1000))

async function outcome(f, ekl) {
  try {
    const jwks = await f()
    return `kids ${jwks.kids.join(',')}`
  } catch (e) {
    if (!ekl.isEklError(e)) throw e
    return e.message // "CODE: reason", as Python's str(e)
  }
}

/** The child: plays every scenario against the server named by EKL_RJ_SERVER; prints the outcomes. */
async function child() {
  const { ekl } = require('./helpers.js')
  const server = JSON.parse(process.env.EKL_RJ_SERVER)
  const hits = async (name) => (await (await fetch(`http://127.0.0.1:${server.http}/hits/${encodeURIComponent(name)}`)).json()).hits
  const results = {}
  for (const s of FILE.scenarios) {
    const port = s.tls ? server.https : server.http
    const url = `${s.tls ? 'https' : 'http'}://127.0.0.1:${port}/s/${encodeURIComponent(s.name)}/jwks.json?q=secret`
    let now = 1000
    const seen = []
    const background = {}
    let remote = null
    const errors = []
    try {
      for (const [i, step] of s.steps.entries()) {
        const where = `${s.name}, step ${i}`
        const t0 = performance.now()
        if ('advance' in step) { now += step.advance; continue }
        if ('sleep' in step) { await sleep(step.sleep); continue }
        let got
        if ('join' in step) {
          got = await background[step.join]
        } else if (step.construct) {
          got = await outcome(() => new ekl.RemoteJwks(url, { clock: () => now, ...options(s.options) }), ekl)
        } else {
          remote ??= new ekl.RemoteJwks(url, { clock: () => now, ...options(s.options) })
          const r = remote
          const call = step.call === 'jwks' ? () => r.jwks() : () => r.jwksFor(token(step))
          if ('background' in step) { background[step.background] = outcome(call, ekl); continue }
          const all = await Promise.all(Array.from({ length: step.concurrent ?? 1 }, () => outcome(call, ekl)))
          if (new Set(all).size !== 1) throw new Error(`${where}: the concurrent callers disagree: ${[...new Set(all)]}`)
          got = all[0]
        }
        const elapsed = (performance.now() - t0) / 1000
        if (got.includes('secret') || got.includes('127.0.0.1')) throw new Error(`${where}: the message names the URL: ${got}`)
        if (!matches(got, step.expect)) throw new Error(`${where}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected(step.expect))}`)
        if ('hits' in step) {
          const n = await hits(s.name)
          if (n !== step.hits) throw new Error(`${where}: ${n} requests, expected ${step.hits}`)
        }
        if ('withinSeconds' in step && elapsed >= step.withinSeconds) throw new Error(`${where}: took ${elapsed.toFixed(2)} s, bound ${step.withinSeconds} s`)
        seen.push('message' in step.expect || 'kids' in step.expect ? got : got.split(':', 1)[0])
      }
    } catch (e) {
      errors.push(String(e && e.message))
    }
    results[s.name] = errors.length ? { failed: errors[0] } : { outcome: seen.join(' | ') }
  }
  process.stdout.write(JSON.stringify(results))
}

if (process.env.EKL_RJ_SERVER) {
  child().catch((e) => { console.error(e); process.exit(1) })
} else {
  const test = require('node:test')
  const assert = require('node:assert/strict')
  test('RemoteJwks: every scenario of tools/remote-jwks/scenarios.json', async (t) => {
    const python = process.env.PYTHON || 'python3'
    const server = spawn(python, [path.join(TOOL, 'server.py')], { stdio: ['pipe', 'pipe', 'inherit'] })
    try {
      const ready = await new Promise((resolve, reject) => {
        let buf = ''
        server.stdout.on('data', (d) => {
          buf += d
          if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n', 1)[0]))
        })
        server.on('exit', (code) => reject(new Error(`the scenario server exited (${code})`)))
      })
      const env = { ...process.env, EKL_RJ_SERVER: JSON.stringify(ready), NODE_EXTRA_CA_CERTS: ready.cert }
      delete env.NODE_TEST_CONTEXT
      const run = await new Promise((resolve) => {
        const c = spawn(process.execPath, [__filename], { env, stdio: ['ignore', 'pipe', 'inherit'] })
        let out = ''
        c.stdout.on('data', (d) => { out += d })
        c.on('exit', (code) => resolve({ code, out }))
      })
      assert.equal(run.code, 0)
      const results = JSON.parse(run.out)
      const out = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'remote-jwks', 'node.json')
      fs.mkdirSync(path.dirname(out), { recursive: true })
      fs.writeFileSync(out, JSON.stringify(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.outcome ?? 'FAILED'])), null, 1) + '\n')
      for (const s of FILE.scenarios) {
        await t.test(s.name, () => {
          assert.ok(s.name in results, 'not run')
          assert.equal(results[s.name].failed, undefined, results[s.name].failed)
        })
      }
    } finally {
      server.stdin.end()
      server.kill()
    }
  })
}

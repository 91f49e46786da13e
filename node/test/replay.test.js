'use strict'
// The replay guard (ekl-evidence/replay) over its three stores, the real things: a MemoryStore, an
// SQLite file through better-sqlite3 (closed and reopened to simulate a restart) and a Redis server
// started here on a Unix socket in its own folder, with persistence (appendonly, appendfsync
// always), killed with SIGKILL and started again to simulate a crash, through the `redis` client. Every scenario of
// tools/replay/scenarios.json runs against each store it names; python/tests/test_replay.py runs
// the same file against the Python guard. Outcomes are written to target/replay/node.json.
// Without redis-server the Redis cases are skipped with a message, unless EKL_REQUIRE_REDIS=1
// (scripts/test/40-node.sh installs Debian's redis-server): then they fail.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const crypto = require('node:crypto')
const v8 = require('node:v8')
const vm = require('node:vm')
const { spawn, spawnSync, execFileSync } = require('node:child_process')
const { createRequire } = require('node:module')
const { Worker } = require('node:worker_threads')
const { ekl, ROOT, SRC_DIR, PKG_DIR } = require('./helpers.js')
const { ReplayGuard, MemoryStore, SqliteStore, RedisStore, replayKey, RESTORE_WINDOW } = require('ekl-evidence/replay')

const FILE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tools', 'replay', 'scenarios.json'), 'utf8'))
const STORES = ['memory', 'sqlite', 'redis']
const T = 1_800_000_000
// The test tools are dev dependencies of the package in the repository (also when these tests
// run from the fresh folder where the packed tarball is installed).
const devRequire = createRequire(path.join(SRC_DIR, 'package.json'))
const Database = devRequire('better-sqlite3')
const { createClient } = devRequire('redis')
const OUTCOMES = {}

// A folder of its own for each use (removed when the file's tests end).
const folders = []
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ekl-replay-'))
  folders.push(d)
  return d
}

// --- a real Redis server -----------------------------------------------------------------------

function redisBinary() {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

function ping(socketPath) {
  return new Promise((resolve) => {
    const s = net.connect({ path: socketPath })
    s.setTimeout(1000)
    s.on('connect', () => s.write('PING\r\n'))
    s.on('data', (d) => {
      s.destroy()
      resolve(d.toString().startsWith('+PONG'))
    })
    s.on('error', () => resolve(false))
    s.on('timeout', () => {
      s.destroy()
      resolve(false)
    })
  })
}

/**
 * redis-server in its own folder, listening on a Unix socket there (no TCP port: nothing another
 * test or process could take or share), its append-only file fsynced on every write.
 */
class RedisServer {
  constructor(binary, folder) {
    Object.assign(this, { binary, folder, socket: path.join(folder, 'redis.sock'), proc: null })
  }

  async start() {
    const args = ['--port', '0', '--unixsocket', this.socket, '--unixsocketperm', '700', '--dir', this.folder,
      '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no',
      '--logfile', path.join(this.folder, 'redis.log')]
    this.proc = spawn(this.binary, args, { stdio: 'ignore' })
    const exited = new Promise((resolve) => this.proc.once('exit', resolve))
    this.exited = exited
    const deadline = Date.now() + 10_000
    while (!(await ping(this.socket))) {
      if (this.proc.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server did not start: ${fs.readFileSync(path.join(this.folder, 'redis.log'), 'utf8').slice(-2000)}`)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  async crashAndRestart() {
    this.proc.kill('SIGKILL')
    await this.exited
    await this.start()
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null) {
      this.proc.kill('SIGTERM')
      await this.exited
    }
  }

  async client() {
    const c = createClient({ socket: { path: this.socket, connectTimeout: 5000, reconnectStrategy: (n) => Math.min(50 * n, 500) } })
    c.on('error', () => {}) // disconnections while the server restarts: the client reconnects
    await c.connect()
    return c
  }
}

let server = null
let redisMissing = null
test.before(async () => {
  const binary = redisBinary()
  if (binary === null) {
    redisMissing = 'Redis store not tested: no redis-server binary (apt-get install -y redis-server)'
    if (process.env.EKL_REQUIRE_REDIS === '1') throw new Error(`${redisMissing} (EKL_REQUIRE_REDIS=1)`)
    return
  }
  server = new RedisServer(binary, tmp())
  await server.start()
})
test.after(async () => {
  if (server) await server.stop()
  for (const d of folders) fs.rmSync(d, { recursive: true, force: true })
  const out = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'replay', 'node.json')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  const sorted = Object.fromEntries(Object.keys(OUTCOMES).sort().map((k) => [k, OUTCOMES[k]]))
  fs.writeFileSync(out, JSON.stringify(sorted, null, 1) + '\n')
})

async function waitReady(client) {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      if ((await client.ping()) === 'PONG') return
    } catch (e) {
      if (Date.now() > deadline) throw e
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

// --- one harness for the three stores -----------------------------------------------------------

class Harness {
  static async open(kind, scenario) {
    const h = new Harness()
    h.kind = kind
    h.skew = scenario.skew ?? 60
    h.closers = []
    if (kind === 'memory') {
      const store = new MemoryStore({ maxEntries: scenario.maxEntries ?? 100_000 })
      h.guards = [new ReplayGuard(store, { skew: h.skew }), new ReplayGuard(store, { skew: h.skew })]
    } else if (kind === 'sqlite') {
      h.path = path.join(tmp(), 'replay.db')
      h.openSqlite()
    } else {
      h.clients = [await server.client(), await server.client()]
      const prefix = `test:${scenario.name}:${process.hrtime.bigint()}:`
      h.guards = h.clients.map((c) => new ReplayGuard(new RedisStore(c, { prefix }), { skew: h.skew }))
      h.closers = h.clients.map((c) => () => c.close())
    }
    return h
  }

  openSqlite() {
    // two connections (replicas), opened by the test: the handle form of SqliteStore
    const dbs = [new Database(this.path), new Database(this.path)]
    this.guards = dbs.map((db) => new ReplayGuard(new SqliteStore(db), { skew: this.skew }))
    this.closers = dbs.map((db) => () => db.close())
  }

  async restart() {
    if (this.kind === 'sqlite') {
      for (const close of this.closers) await close()
      this.openSqlite()
    } else if (this.kind === 'redis') {
      await server.crashAndRestart()
      for (const c of this.clients) await waitReady(c)
    } else {
      throw new Error('a memory store has no restart')
    }
  }

  async close() {
    for (const close of this.closers) await close()
  }
}

async function outcome(f) {
  try {
    await f()
    return 'ok'
  } catch (e) {
    if (!ekl.isEklError(e)) throw e
    return e.code
  }
}

async function play(h, scenario) {
  const got = []
  for (const step of scenario.steps) {
    const guard = h.guards[step.guard ?? 0]
    if ('restore' in step) {
      const done = await outcome(() => guard.recordRestore({ now: step.restore }))
      got.push(done === 'ok' ? 'restore' : done)
    } else if ('restart' in step) {
      await h.restart()
      got.push('restart')
    } else if ('reset' in step) {
      const done = await outcome(() => guard.resetMark({ now: step.reset }))
      got.push(done === 'ok' ? 'reset' : done)
    } else {
      const consume = step.consume === 'assertion' ? guard.consumeAssertion : guard.consumePlatformCall
      got.push(await outcome(() => consume.call(guard, step.iss ?? FILE.iss, step.aud ?? FILE.aud, step.jti, { iat: step.iat, exp: step.exp, now: step.now })))
    }
  }
  return got
}

for (const scenario of FILE.scenarios) {
  for (const kind of scenario.stores ?? STORES) {
    test(`scenario ${kind}: ${scenario.name}`, async (t) => {
      if (kind === 'redis' && server === null) return t.skip(redisMissing)
      const h = await Harness.open(kind, scenario)
      let got
      try {
        got = await play(h, scenario)
      } finally {
        await h.close()
      }
      const want = scenario.steps.map((s) => ('restore' in s ? s.expect ?? 'restore' : 'restart' in s ? 'restart' : 'reset' in s ? 'reset' : s.expect))
      OUTCOMES[`${kind}/${scenario.name}`] = got
      assert.deepEqual(got, want)
    })
  }
}

test('every scenario names known stores and codes', () => {
  const codes = new Set(ekl.errorCodes())
  for (const s of FILE.scenarios) {
    for (const k of s.stores ?? STORES) assert.ok(STORES.includes(k), s.name)
    for (const step of s.steps) if ('consume' in step) assert.ok(step.expect === 'ok' || codes.has(step.expect), JSON.stringify(step))
  }
  for (const c of ['ASSERTION_REPLAY', 'CREDENTIAL_REPLAY', 'REPLAY_STORE_FULL', 'REPLAY_STORE_UNAVAILABLE']) assert.ok(codes.has(c), c)
})

// --- the key ----------------------------------------------------------------------------------------

test('the key is SHA-256 of the canonical array, re-derived with node:crypto', () => {
  for (const c of FILE.keys) {
    // for these strings JSON.stringify writes the RFC 8785 form
    const text = JSON.stringify(['ekl-replay-1', c.kind, c.iss, c.aud, c.jti])
    assert.equal(crypto.createHash('sha256').update(text, 'utf8').digest('hex'), c.key)
    assert.equal(replayKey(c.kind, c.iss, c.aud, c.jti), c.key)
  }
  assert.throws(() => replayKey('access_token', 'i', 'a', 'j'), { code: 'INVALID_ARGUMENT' })
  assert.throws(() => replayKey('platform_call', 'i', 'a', 'j\ud800'), { code: 'LONE_SURROGATE' })
})

// --- concurrency: exactly one of N ------------------------------------------------------------------

function exactlyOne(results, n) {
  assert.deepEqual([...results].sort(), [...Array(n - 1).fill('ASSERTION_REPLAY'), 'ok'])
}

async function race(guards, jti) {
  const now = Math.floor(Date.now() / 1000)
  return Promise.all(guards.map((g) => outcome(() => g.consumeAssertion(FILE.iss, FILE.aud, jti, { iat: now, exp: now + 120 }))))
}

test('concurrent: memory, 16 tasks, exactly one consumes', async () => {
  const store = new MemoryStore()
  const guards = Array.from({ length: 16 }, () => new ReplayGuard(store))
  for (let r = 0; r < 20; r++) exactlyOne(await race(guards, `race-${r}`), 16)
})

test('concurrent: redis, 16 clients, exactly one consumes', async (t) => {
  if (server === null) return t.skip(redisMissing)
  const clients = await Promise.all(Array.from({ length: 16 }, () => server.client()))
  try {
    const guards = clients.map((c) => new ReplayGuard(new RedisStore(c, { prefix: 'race:' })))
    for (let r = 0; r < 20; r++) exactlyOne(await race(guards, `race-${r}-${process.hrtime.bigint()}`), 16)
  } finally {
    for (const c of clients) await c.close()
  }
})

test('concurrent: sqlite, 6 worker threads with their own connections, exactly one consumes', async () => {
  const file = path.join(tmp(), 'race.db')
  new SqliteStore(new Database(file)) // creates the schema once
  const code = `
    const { workerData, parentPort } = require('node:worker_threads')
    const Database = require(workerData.sqlite)
    const { ReplayGuard, SqliteStore } = require(workerData.replay)
    const guard = new ReplayGuard(new SqliteStore(new Database(workerData.file)))
    const flag = new Int32Array(workerData.flag)
    Atomics.add(flag, 1, 1)
    Atomics.wait(flag, 0, 0)
    const now = Math.floor(Date.now() / 1000)
    ;(async () => {
      const out = []
      for (let r = 0; r < workerData.rounds; r++) {
        try { await guard.consumeAssertion('i', 'a', 'race-' + r, { iat: now, exp: now + 120 }); out.push('ok') }
        catch (e) { out.push(e.code || String(e)) }
      }
      parentPort.postMessage(out)
    })()`
  const flag = new SharedArrayBuffer(8)
  const shared = new Int32Array(flag)
  const n = 6
  const rounds = 30
  const workerData = { file, flag, rounds, sqlite: devRequire.resolve('better-sqlite3'), replay: require.resolve('ekl-evidence/replay') }
  const workers = Array.from({ length: n }, () => new Worker(code, { eval: true, workerData }))
  const results = workers.map((w) => new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject) }))
  while (Atomics.load(shared, 1) < n) await new Promise((r) => setTimeout(r, 5))
  Atomics.store(shared, 0, 1)
  Atomics.notify(shared, 0)
  const outs = await Promise.all(results)
  for (let r = 0; r < rounds; r++) exactlyOne(outs.map((o) => o[r]), n)
})

test('concurrent: a Python process and a Node process on one SQLite file, exactly one consumes each jti', async (t) => {
  // The Python package of the Python step (scripts/test/40-node.sh sets PYTHON to its venv).
  const python = process.env.PYTHON || 'python3'
  try {
    execFileSync(python, ['-c', 'import ekl_evidence.replay'], { stdio: 'ignore' })
  } catch {
    return t.skip(`no Python with ekl_evidence (${python}): run the Python step first (./run test python node)`)
  }
  const n = 300
  const py = `
import json, sys, time
from ekl_evidence.replay import ReplayGuard, SqliteStore
g = ReplayGuard(SqliteStore(sys.argv[1]))
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
now, out, first = int(time.time()), [], time.time()
for i in range(int(sys.argv[3])):
    try:
        g.consume_assertion('i', 'a', f'x-{i}', iat=now, exp=now + 120)
        out.append('ok')
    except Exception as e:
        out.append(getattr(e, 'code', repr(e)))
print(json.dumps({'out': out, 'first': first, 'last': time.time()}))`
  const js = `
    const Database = require(process.argv[1])
    const { ReplayGuard, SqliteStore } = require(process.argv[2])
    const g = new ReplayGuard(new SqliteStore(new Database(process.argv[3])))
    setTimeout(async () => {
      const now = Math.floor(Date.now() / 1000)
      const [out, first] = [[], Date.now() / 1000]
      for (let i = 0; i < Number(process.argv[5]); i++) {
        try { await g.consumeAssertion('i', 'a', 'x-' + i, { iat: now, exp: now + 120 }); out.push('ok') }
        catch (e) { out.push(e.code || String(e)) }
      }
      console.log(JSON.stringify({ out, first, last: Date.now() / 1000 }))
    }, Math.max(0, Number(process.argv[4]) * 1000 - Date.now()))`
  const run = (cmd, args) =>
    new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
      let text = ''
      child.stdout.on('data', (d) => (text += d))
      child.on('error', reject)
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`${cmd} exited with ${code}`))))
    })
  // Until the two runs overlap in time (a loaded machine may start one late): each round on a
  // fresh file, and every round must give exactly one accept per jti.
  let fromPython
  let fromNode
  for (let round = 0; round < 4; round++) {
    const file = path.join(tmp(), 'both.db')
    const start = String(Date.now() / 1000 + 2 + round)
    ;[fromPython, fromNode] = await Promise.all([
      run(python, ['-c', py, file, start, String(n)]),
      run(process.execPath, ['-e', js, devRequire.resolve('better-sqlite3'), require.resolve('ekl-evidence/replay'), file, start, String(n)]),
    ])
    for (let i = 0; i < n; i++) exactlyOne([fromPython.out[i], fromNode.out[i]], 2)
    if (fromPython.first < fromNode.last && fromNode.first < fromPython.last) break
  }
  assert.ok(fromPython.first < fromNode.last && fromNode.first < fromPython.last, 'the two processes never ran at once')
  const won = fromPython.out.filter((o) => o === 'ok').length
  t.diagnostic(`Python consumed ${won} of ${n}, Node ${n - won}`)
})

// --- the stores' own properties -----------------------------------------------------------------------

test('redis: the entry and the mark live in Redis without a TTL; the mark drops the entry', async (t) => {
  if (server === null) return t.skip(redisMissing)
  const client = await server.client()
  try {
    const sent = []
    const spy = (args) => {
      sent.push(args)
      return client.sendCommand(args)
    }
    const guard = new ReplayGuard(new RedisStore(spy, { prefix: 'ttl:' }), { skew: 0 })
    await guard.consumePlatformCall('i', 'a', 'short', { iat: T - 58, exp: T + 2, now: T })
    const key = replayKey('platform_call', 'i', 'a', 'short')
    assert.deepEqual(sent.map((a) => [a[0], ...a.slice(2)]), [['GET'], ['EVAL', '2', 'ttl:entries', 'ttl:clock', key, String((T + 2) * 1000), String(T * 1000), '60000']])
    assert.equal(Number(await client.zScore('ttl:entries', key)), (T + 2) * 1000)
    assert.deepEqual({ ...(await client.hGetAll('ttl:clock')) }, { mark: String(T * 1000), last: String(T * 1000) })
    assert.equal(await client.pTTL('ttl:entries'), -1)
    await guard.consumePlatformCall('i', 'a', 'next', { iat: T + 2, exp: T + 62, now: T + 2 })
    assert.equal(await client.zScore('ttl:entries', key), null)
    assert.equal(await client.zCard('ttl:entries'), 1)
  } finally {
    await client.close()
  }
})

test('redis: only the reply OK is an add (a pipeline\'s QUEUED, a 0, an array are not)', async () => {
  for (const reply of ['QUEUED', '0', 1, true, ['OK'], 'ok', 'OK ', null, 0, Buffer.from('QUEUED')]) {
    const guard = new ReplayGuard(new RedisStore(async (args) => (args[0] === 'GET' ? null : reply)))
    assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T })), 'ASSERTION_REPLAY', String(reply))
  }
  for (const reply of ['OK', Buffer.from('OK')]) {
    await new ReplayGuard(new RedisStore(async (args) => (args[0] === 'GET' ? null : reply))).consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T })
  }
  const old = { add: () => true, restoreMoment: () => null, recordRestore: () => {} }
  await assert.rejects(new ReplayGuard(old).resetMark({ now: T }), { code: 'INVALID_ARGUMENT' })
  await assert.rejects(new ReplayGuard(new MemoryStore()).resetMark({ now: T * 1000 }), { code: 'INVALID_ARGUMENT' })
})

// --- replicas whose clocks differ (issue 41) -------------------------------------------------------

async function replicaStores(kind) {
  if (kind === 'memory') {
    const store = new MemoryStore()
    return { stores: [store, store], close: async () => {} }
  }
  if (kind === 'sqlite') {
    const file = path.join(tmp(), 'replicas.db')
    const dbs = [new Database(file), new Database(file)]
    return { stores: dbs.map((db) => new SqliteStore(db)), close: async () => dbs.forEach((db) => db.close()) }
  }
  const clients = [await server.client(), await server.client()]
  const prefix = `replicas:${process.hrtime.bigint()}:`
  return { stores: clients.map((c) => new RedisStore(c, { prefix })), close: async () => { for (const c of clients) await c.close() } }
}

for (const kind of STORES) {
  for (const ahead of [5, 170]) {
    // Two replicas on one store, one's clock `ahead` seconds ahead of the other's (the real clock),
    // each consuming every jti. Before issue 41 Redis kept the entry for exp + skew - now of the
    // replica ahead: the key was gone 2 to 3 s later and the other replica, whose verifier still
    // accepts the token, accepted it again (memory and SQLite already refused).
    test(`replicas whose clocks differ by ${ahead} s accept each jti once: ${kind}`, async (t) => {
      if (kind === 'redis' && server === null) return t.skip(redisMissing)
      const { stores, close } = await replicaStores(kind)
      try {
        const right = new ReplayGuard(stores[0])
        const fast = new ReplayGuard(stores[1], { clock: () => Date.now() / 1000 + ahead })
        const start = Math.floor(Date.now() / 1000)
        const exp = start + ahead + 3 - 60 // exp + skew 3 s after the fast replica's clock
        const iat = ahead < 120 ? exp - 120 : start
        const jtis = Array.from({ length: 8 }, (_, i) => `${kind}-${ahead}-${i}`)
        const got = Object.fromEntries(jtis.map((j) => [j, []]))
        for (const j of jtis) got[j].push(await outcome(() => fast.consumeAssertion('i', 'a', j, { iat, exp })))
        // the old TTL has passed at start + 3; the right replica's verifier still accepts the token
        await new Promise((r) => setTimeout(r, Math.max(0, (start + 3.3) * 1000 - Date.now())))
        for (const j of jtis) got[j].push(await outcome(() => right.consumeAssertion('i', 'a', j, { iat, exp })))
        for (const j of jtis) assert.deepEqual(got[j], ['ok', 'ASSERTION_REPLAY'], j)
        for (let i = 0; i < 4; i++) {
          const j = `${kind}-${ahead}-r${i}`
          assert.equal(await outcome(() => right.consumeAssertion('i', 'a', j, { iat: start, exp: start + 120 })), 'ok')
          assert.equal(await outcome(() => fast.consumeAssertion('i', 'a', j, { iat: start, exp: start + 120 })), 'ASSERTION_REPLAY')
        }
      } finally {
        await close()
      }
    })
  }
}

test('redis: a store that does not answer fails closed', async (t) => {
  if (server === null) return t.skip(redisMissing)
  // A socket no server listens on (in this test's own folder: nothing else can start one there).
  const dead = createClient({ socket: { path: path.join(tmp(), 'none.sock'), connectTimeout: 500, reconnectStrategy: false } })
  dead.on('error', () => {})
  const guard = new ReplayGuard(new RedisStore(dead)) // never connected: the client refuses commands
  const e = await guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T }).catch((x) => x)
  assert.equal(e.code, 'REPLAY_STORE_UNAVAILABLE')
  assert.ok(e.cause instanceof Error)
  const hanging = new ReplayGuard(new RedisStore(() => new Promise(() => {}), { timeoutMs: 50 }))
  const t0 = Date.now()
  const h = await hanging.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T }).catch((x) => x)
  assert.equal(h.code, 'REPLAY_STORE_UNAVAILABLE')
  assert.ok(Date.now() - t0 < 2000)
  const r = await hanging.recordRestore({ now: T }).catch((x) => x)
  assert.equal(r.code, 'REPLAY_STORE_UNAVAILABLE')
})

test('redis: a jti consumed by another process stays consumed through a SIGKILL of the server', async (t) => {
  if (server === null) return t.skip(redisMissing)
  const child = `
    const { createClient } = require(process.argv[1])
    const { ReplayGuard, RedisStore } = require(process.argv[2])
    ;(async () => {
      const c = createClient({ socket: { path: process.argv[3] } })
      await c.connect()
      await new ReplayGuard(new RedisStore(c, { prefix: 'crash:' })).consumeAssertion('i', 'a', 'j', { iat: ${T}, exp: ${T + 120}, now: ${T} })
      await c.close()
    })().catch((e) => { console.error(e); process.exit(1) })`
  execFileSync(process.execPath, ['-e', child, devRequire.resolve('redis'), require.resolve('ekl-evidence/replay'), server.socket], { stdio: 'inherit' })
  await server.crashAndRestart()
  const client = await server.client()
  try {
    const guard = new ReplayGuard(new RedisStore(client, { prefix: 'crash:' }))
    assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T + 1 })), 'ASSERTION_REPLAY')
  } finally {
    await client.close()
  }
})

test('sqlite: survives the process; a Python and a Node process may share the file (one schema)', async () => {
  const file = path.join(tmp(), 'exit.db')
  const child = `
    const Database = require(process.argv[1])
    const { ReplayGuard, SqliteStore } = require(process.argv[2])
    const g = new ReplayGuard(new SqliteStore(new Database(process.argv[3])))
    g.consumeAssertion('i', 'a', 'j', { iat: ${T}, exp: ${T + 120}, now: ${T} })
      .then(() => g.recordRestore({ now: ${T + 5} }))
      .then(() => process.exit(0))` // no close
  execFileSync(process.execPath, ['-e', child, devRequire.resolve('better-sqlite3'), require.resolve('ekl-evidence/replay'), file])
  const guard = new ReplayGuard(new SqliteStore(new Database(file)))
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T + 10 })), 'ASSERTION_REPLAY')
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'k', { iat: T + 10, exp: T + 130, now: T + 10 })), 'ASSERTION_REPLAY')
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'k', { iat: T + 65, exp: T + 185, now: T + 65 })), 'ok')
  const cols = new Database(file).prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all('ekl_replay').map((r) => r.name)
  assert.deepEqual(cols, ['key', 'expires_at'])
})

test('sqlite: a path opens with node:sqlite when this Node has it, before better-sqlite3', () => {
  // Node 20 has no node:sqlite: a child whose loader answers `node:sqlite` with a DatabaseSync
  // over better-sqlite3 (the same synchronous API) that counts its opens; where Node has the real
  // one (>= 22.5), the child's path store must not load better-sqlite3 at all.
  const real = (() => { try { return typeof require('node:sqlite').DatabaseSync === 'function' } catch { return false } })()
  const child = `
    const Module = require('node:module')
    const load = Module._load
    const seen = { nodeSqlite: 0, better: 0 }
    const fake = process.argv[2] === 'fake'
    Module._load = function (request, ...rest) {
      if (request === 'better-sqlite3') seen.better++
      if (request === 'node:sqlite' && fake) {
        const Database = load.call(this, 'better-sqlite3', ...rest)
        return { DatabaseSync: class extends Database { constructor (f) { super(f); seen.nodeSqlite++ } } }
      }
      if (request === 'node:sqlite') seen.nodeSqlite++
      return load.call(this, request, ...rest)
    }
    const { SqliteStore } = require(process.argv[1])
    const store = new SqliteStore(process.argv[3])
    if (store.add('k', 2000, 1000) !== true || store.add('k', 2000, 1001) !== false) throw new Error('add')
    store.close()
    store.close()
    console.log(JSON.stringify(seen))`
  const run = (mode) => {
    const r = spawnSync(process.execPath, ['-e', child, require.resolve('ekl-evidence/replay'), mode, path.join(tmp(), `${mode}.db`)], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    return JSON.parse(r.stdout)
  }
  let resolvable = true
  try {
    createRequire(path.join(PKG_DIR, 'package.json')).resolve('better-sqlite3')
  } catch {
    resolvable = false
  }
  if (resolvable) assert.deepEqual(run('fake'), { nodeSqlite: 1, better: 0 })
  if (real) assert.equal(run('real').better, 0)
})

test('sqlite: a path needs better-sqlite3 where the package is installed, else names it', async () => {
  let resolvable = true
  try {
    createRequire(path.join(PKG_DIR, 'package.json')).resolve('better-sqlite3')
  } catch {
    resolvable = false
  }
  const file = path.join(tmp(), 'path.db')
  if (!resolvable) {
    assert.throws(() => new SqliteStore(file), (e) => e.code === 'INVALID_ARGUMENT' && /npm install better-sqlite3@12/.test(e.message))
    return
  }
  const store = new SqliteStore(file)
  const guard = new ReplayGuard(store)
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T })), 'ok')
  store.close()
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j2', { iat: T, exp: T + 120, now: T })), 'REPLAY_STORE_UNAVAILABLE')
  const again = new ReplayGuard(new SqliteStore(file))
  assert.equal(await outcome(() => again.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120, now: T + 1 })), 'ASSERTION_REPLAY')
})

test('sqlite: expired rows are purged', async () => {
  const file = path.join(tmp(), 'purge.db')
  const db = new Database(file)
  const guard = new ReplayGuard(new SqliteStore(db))
  for (let i = 0; i < 50; i++) await guard.consumeAssertion('i', 'a', `j${i}`, { iat: T, exp: T + 120, now: T })
  const rows = () => db.prepare('SELECT count(*) AS n FROM ekl_replay').get().n
  assert.equal(rows(), 50)
  // one now moves the mark at most 60 s past the previous now (issue 41): T + 160, then T + 290
  await guard.consumeAssertion('i', 'a', 'late', { iat: T + 100, exp: T + 200, now: T + 100 })
  await guard.consumeAssertion('i', 'a', 'later', { iat: T + 200, exp: T + 300, now: T + 200 })
  assert.equal(rows(), 52)
  await guard.consumeAssertion('i', 'a', 'last', { iat: T + 230, exp: T + 300, now: T + 230 })
  assert.equal(rows(), 53) // purged at most once a minute
  await guard.consumeAssertion('i', 'a', 'latest', { iat: T + 290, exp: T + 400, now: T + 290 })
  assert.equal(rows(), 3) // the 50 and "late" (expired at T + 260) went at T + 290
})

test('memory: expired entries are purged; the bound holds and an entry is small', async () => {
  const store = new MemoryStore({ maxEntries: 101 })
  const guard = new ReplayGuard(store)
  for (let i = 0; i < 100; i++) await guard.consumeAssertion('i', 'a', `j${i}`, { iat: T + i, exp: T + 60 + i, now: T + 40 })
  assert.equal(store.size, 100)
  // one now moves the mark at most 60 s past the previous now (issue 41): T + 95, then T + 150
  await guard.consumeAssertion('i', 'a', 'w', { iat: T + 95, exp: T + 140, now: T + 95 })
  assert.equal(store.size, 101)
  await guard.consumeAssertion('i', 'a', 'x', { iat: T + 150, exp: T + 200, now: T + 150 })
  assert.equal(store.size, 101 - 31 + 1)

  const n = 20_000
  const big = new MemoryStore({ maxEntries: n })
  const g = new ReplayGuard(big)
  v8.setFlagsFromString('--expose-gc')
  const gc = vm.runInNewContext('gc')
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < n; i++) await g.consumeAssertion('i', 'a', `jti-${i}-${'x'.repeat(200)}`, { iat: T, exp: T + 120, now: T })
  gc()
  const per = (process.memoryUsage().heapUsed - before) / n
  assert.ok(per < 300, `${per} bytes per entry`) // the documented bound: about 25 MB per 100 000 entries (measured 200-252 bytes an entry), as in Python
  assert.equal(await outcome(() => g.consumeAssertion('i', 'a', 'one-more', { iat: T, exp: T + 120, now: T })), 'REPLAY_STORE_FULL')
  assert.equal(big.size, n)
})

// --- arguments ----------------------------------------------------------------------------------------

test('arguments: wrong types and values are INVALID_ARGUMENT; options are own properties', async () => {
  const guard = new ReplayGuard(new MemoryStore())
  const bad = [
    [1, 'a', 'j', { iat: T, exp: T + 1, now: T }],
    ['i', null, 'j', { iat: T, exp: T + 1, now: T }],
    ['i', 'a', Buffer.from('j'), { iat: T, exp: T + 1, now: T }],
    ['i', 'a', 'j', { iat: T + 0.5, exp: T + 1, now: T }],
    ['i', 'a', 'j', { iat: T, exp: true, now: T }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: 'now' }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: NaN }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: Infinity }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: -1 }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: -0.001 }],
    ['i', 'a', 'j', { iat: T, exp: T + 1, now: T, extra: 1 }],
    ['i', 'a', 'j', Object.create({ iat: T, exp: T + 1, now: T })],
    ['i', 'a', 'j', { iat: BigInt(T), exp: T + 1, now: T }],
  ]
  for (const args of bad) {
    assert.equal(await outcome(() => guard.consumeAssertion(...args)), 'INVALID_ARGUMENT', String(args[3] && Object.keys(args[3])))
  }
  assert.throws(() => new ReplayGuard({}), { code: 'INVALID_ARGUMENT' })
  assert.throws(() => new RedisStore({}), { code: 'INVALID_ARGUMENT' })
  assert.throws(() => new SqliteStore({}), { code: 'INVALID_ARGUMENT' })
  for (const skew of [-1, 301, 1.5, '60']) assert.throws(() => new ReplayGuard(new MemoryStore(), { skew }), { code: 'INVALID_ARGUMENT' })
  assert.throws(() => new MemoryStore({ maxEntries: 0 }), { code: 'INVALID_ARGUMENT' })
})

test('a failing store is REPLAY_STORE_UNAVAILABLE; the clock is used when now is left out', async () => {
  const broken = {
    add() { throw new Error('disk') },
    restoreMoment: async () => null,
    recordRestore: async () => { throw new Error('disk') },
  }
  const guard = new ReplayGuard(broken)
  const now = Math.floor(Date.now() / 1000)
  const e = await guard.consumePlatformCall('i', 'a', 'j', { iat: now, exp: now + 60 }).catch((x) => x)
  assert.equal(e.code, 'REPLAY_STORE_UNAVAILABLE')
  assert.ok(e.cause instanceof Error && !e.message.includes('disk'))
  assert.equal((await guard.recordRestore().catch((x) => x)).code, 'REPLAY_STORE_UNAVAILABLE')
  const clocked = new ReplayGuard(new MemoryStore(), { clock: () => T + 500 })
  assert.equal(await outcome(() => clocked.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 120 })), 'TOKEN_EXPIRED')
  assert.equal(await outcome(() => clocked.consumeAssertion('i', 'a', 'j', { iat: T + 450, exp: T + 570 })), 'ok')
  assert.equal(RESTORE_WINDOW, 240)
  assert.equal(clocked.restoreWindow, 240)
})

test('ekl-evidence/replay is the same module from ESM and not part of the main entry', async () => {
  const esm = await import('ekl-evidence/replay')
  assert.equal(esm.ReplayGuard, ReplayGuard)
  assert.equal(esm.default.RedisStore, RedisStore)
  assert.equal(ekl.ReplayGuard, undefined)
})

test('now: milliseconds refused, a Date accepted', async () => {
  const guard = new ReplayGuard(new MemoryStore())
  const e = await guard.recordRestore({ now: Date.now() }).catch((x) => x)
  assert.equal(e.code, 'INVALID_ARGUMENT')
  assert.match(e.message, /milliseconds/)
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 60, now: T * 1000 })), 'INVALID_ARGUMENT')
  const at = new Date((T + 1) * 1000)
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 60, now: at })), 'ok')
  assert.equal(await outcome(() => guard.consumeAssertion('i', 'a', 'j', { iat: T, exp: T + 60, now: at })), 'ASSERTION_REPLAY')
})

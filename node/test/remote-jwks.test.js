'use strict'
// RemoteJwks (node/js/remote.js) against a local HTTP server that serves, rotates keys, slows
// down and fails; the Python package's tests/test_remote_jwks.py proves the same rules there.
const test = require('node:test')
const assert = require('node:assert/strict')
const http = require('node:http')
const { ekl } = require('./helpers.js')

const SEED = '11'.repeat(32)
const TYP = 'ekl-screening-rules+jwt'

function server() {
  const s = { body: Buffer.from('{}'), status: 200, headers: {}, delay: 0, hits: 0 }
  s.http = http.createServer((req, res) => {
    s.hits++
    setTimeout(() => {
      res.writeHead(s.status, { 'content-type': 'application/json', ...s.headers })
      res.end(s.body)
    }, s.delay)
  })
  s.serve = (jwks, cacheControl) => {
    s.body = Buffer.from(JSON.stringify(jwks))
    s.status = 200
    s.headers = cacheControl ? { 'cache-control': cacheControl } : {}
  }
  return new Promise((resolve) => s.http.listen(0, '127.0.0.1', () => {
    s.url = `http://127.0.0.1:${s.http.address().port}/.well-known/jwks.json`
    resolve(s)
  }))
}

function keys(...kids) {
  const { jwks, keys: signing } = ekl.jwksFromSeed(SEED, kids)
  return [jwks.toJSON(), Object.fromEntries(kids.map((k, i) => [k, signing[i]]))]
}

function token(key) {
  const now = Math.floor(Date.now() / 1000)
  return ekl.signJws(TYP, { iss: 'https://net.example', iat: now, exp: now + 3600, rules_version: '1', rules: [] }, key)
}

const verify = (tok, jwks) => ekl.verifyJws(tok, TYP, jwks, { now: Math.floor(Date.now() / 1000), issuer: 'https://net.example' })

function clock() {
  const c = () => c.t
  c.t = 1000
  return c
}

test('fetched once, cached for max-age, then fetched again', async () => {
  const s = await server()
  try {
    const [body, signing] = keys('k1')
    s.serve(body, 'public, max-age=60')
    const c = clock()
    const remote = new ekl.RemoteJwks(s.url, { clock: c })
    const tok = token(signing.k1)
    verify(tok, await remote.jwksFor(tok))
    verify(tok, await remote.jwksFor(tok))
    assert.equal(s.hits, 1)
    c.t += 61
    await remote.jwks()
    assert.equal(s.hits, 2)
    // Concurrent callers share one fetch.
    c.t += 61
    await Promise.all([remote.jwks(), remote.jwks(), remote.jwks()])
    assert.equal(s.hits, 3)
  } finally {
    s.http.close()
  }
})

test('a rotated key is fetched once per cooldown', async () => {
  const s = await server()
  try {
    const [body] = keys('k1')
    s.serve(body)
    const c = clock()
    const remote = new ekl.RemoteJwks(s.url, { clock: c, cooldown: 30 })
    await remote.jwks()
    const [rotated, fresh] = keys('k1', 'k2')
    s.serve(rotated)
    const tok = token(fresh.k2)
    verify(tok, await remote.jwksFor(tok))
    assert.equal(s.hits, 2)
    // Random kids within the cooldown: no more fetches; UNKNOWN_KID says when the next may happen.
    const other = token(ekl.signingKey('22'.repeat(32), 'k9'))
    c.t += 10
    await assert.rejects(remote.jwksFor(other), (e) => e.code === 'UNKNOWN_KID' &&
      e.message.includes('refetched for an unknown kid 10 s ago; the next refetch may happen in 20 s') &&
      !e.message.includes('fetch the key set again'))
    assert.equal(s.hits, 2)
    c.t += 21
    await assert.rejects(remote.jwksFor(other), (e) => e.message.endsWith('refetched just now; the next refetch may happen in 30 s'))
    assert.equal(s.hits, 3)
  } finally {
    s.http.close()
  }
})

test('failures keep the last good set', async () => {
  const s = await server()
  try {
    const [body, signing] = keys('k1')
    s.serve(body, 'max-age=0')
    const c = clock()
    const remote = new ekl.RemoteJwks(s.url, { clock: c, cooldown: 10 })
    const first = await remote.jwks()
    s.status = 500
    c.t += 11 // max-age=0: cached for the cooldown (the floor)
    assert.equal(await remote.jwks(), first)
    assert.equal(s.hits, 2)
    c.t += 1
    await remote.jwks()
    assert.equal(s.hits, 2)
    const tok = token(signing.k1)
    verify(tok, await remote.jwksFor(tok))
  } finally {
    s.http.close()
  }
})

for (const breakage of ['status', 'not_json', 'not_jwks', 'too_large', 'slow']) {
  test(`no good set: JWKS_UNAVAILABLE (${breakage})`, async () => {
    const s = await server()
    try {
      const [body] = keys('k1')
      s.serve(body)
      const options = {}
      if (breakage === 'status') s.status = 503
      if (breakage === 'not_json') s.body = Buffer.from('<html>')
      if (breakage === 'not_jwks') s.body = Buffer.from('{"keys":[{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}]}')
      if (breakage === 'too_large') {
        s.body = Buffer.concat([Buffer.alloc(2048, 32), s.body])
        options.maxBytes = 1024
      }
      if (breakage === 'slow') {
        s.delay = 2000
        options.timeoutMs = 300
      }
      const remote = new ekl.RemoteJwks(s.url, options)
      const t0 = Date.now()
      await assert.rejects(remote.jwks(), (e) => e.code === 'JWKS_UNAVAILABLE' && e instanceof Error && !String(e.message).includes(s.url))
      assert.ok(Date.now() - t0 < 1500)
    } finally {
      s.http.closeAllConnections?.()
      s.http.close()
    }
  })
}

test('mixed sets from the wild are used', async () => {
  const s = await server()
  try {
    const [body, signing] = keys('k1')
    body.keys.unshift({ kty: 'RSA', kid: 'rsa-1', n: 'AQAB', e: 'AQAB' })
    s.serve(body)
    const remote = new ekl.RemoteJwks(s.url)
    const tok = token(signing.k1)
    verify(tok, await remote.jwksFor(tok))
  } finally {
    s.http.close()
  }
})

// The policy is the core's (RemoteJwksPolicy): how long a set fetched with a Cache-Control stays
// fresh: the first whole second at which it asks for a fetch again.
function freshFor(cacheControl) {
  const [body] = keys('k1')
  const policy = new ekl.RemoteJwksPolicy('https://net.example/j', { scheme: 'https', host: 'net.example', cooldown: 0 })
  policy.body(0, JSON.stringify(body), { cacheControl })
  let t = 0
  while (policy.need(t).action === 'serve') t++
  return t
}

test('Cache-Control is read by the core', () => {
  assert.equal(freshFor(null), 300)
  assert.equal(freshFor('public, max-age=120'), 120)
  assert.equal(freshFor('max-age=99999999'), 86400)
  assert.equal(freshFor('no-store'), 0)
  assert.equal(freshFor('s-maxage=5'), 300)
  assert.throws(() => new ekl.RemoteJwks('file:///etc/passwd'), { code: 'INVALID_ARGUMENT' })
})

// Options are own enumerable properties only (docs/decisions.md#remote-jwks): a polluted
// Object.prototype or an options object with a prototype changes nothing.
test('options are read as own properties only', async () => {
  const s = await server()
  const names = ['timeoutMs', 'maxBytes', 'cooldown', 'defaultMaxAge', 'maxStale', 'clock', 'fetch']
  try {
    const [body] = keys('k1')
    s.serve(body)
    const hostile = { timeoutMs: 1, maxBytes: 1, cooldown: 86400, defaultMaxAge: 86400, maxStale: 0, clock: () => 0, fetch: () => Promise.reject(new Error('polluted')) }
    // the options are private: what they do shows it (a 1 ms deadline, a 1-byte bound or the
    // hostile fetch would fail the fetch; the hostile clock stands still)
    const check = async (make) => {
      const remote = make()
      assert.deepEqual(Object.keys(remote), ['fetches'])
      assert.deepEqual((await remote.jwks()).kids, ['k1'])
      assert.deepEqual((await remote.jwks()).kids, ['k1'])
      assert.equal(remote.fetches, 1)
    }
    for (const k of names) Object.prototype[k] = hostile[k]
    try {
      await check(() => new ekl.RemoteJwks(s.url))
      await check(() => new ekl.RemoteJwks(s.url, {}))
    } finally {
      for (const k of names) delete Object.prototype[k]
    }
    await check(() => new ekl.RemoteJwks(s.url, Object.create(hostile)))
    // own properties are read; unknown ones, and options that are not an object, refused
    let asked = 0
    const counting = new ekl.RemoteJwks(s.url, { fetch: (...a) => { asked++; return fetch(...a) } })
    assert.deepEqual((await counting.jwks()).kids, ['k1'])
    assert.equal(asked, 1)
    assert.throws(() => new ekl.RemoteJwks(s.url, { bogus: 1 }), { code: 'INVALID_ARGUMENT', message: /unknown option "bogus"/ })
    assert.throws(() => new ekl.RemoteJwks(s.url, 5), { code: 'INVALID_ARGUMENT' })
    assert.throws(() => new ekl.RemoteJwks(s.url, [1]), { code: 'INVALID_ARGUMENT' })
    assert.throws(() => new ekl.RemoteJwks(s.url, { cooldown: 10n }), { code: 'INVALID_ARGUMENT' })
    assert.throws(() => new ekl.RemoteJwks(s.url, { fetch: 'x' }), { code: 'INVALID_ARGUMENT' })
  } finally {
    s.http.close()
  }
})

test('a URL holding a user name or password is refused', () => {
  for (const url of ['https://user:pw@net.example/jwks.json', 'https://user@net.example/jwks.json']) {
    assert.throws(() => new ekl.RemoteJwks(url), (e) => e.code === 'INVALID_ARGUMENT' && !e.message.includes('pw'))
  }
})

test('the deadline holds for a fetch that ignores its abort signal', async () => {
  const [body] = keys('k1')
  let calls = 0
  const fetch = () => {
    calls++
    if (calls === 1) return new Promise(() => {}) // never settles, whatever the signal says
    return Promise.resolve(new Response(JSON.stringify(body)))
  }
  const c = clock()
  const remote = new ekl.RemoteJwks('https://net.example/jwks.json', { fetch, timeoutMs: 100, clock: c })
  const t0 = performance.now()
  await assert.rejects(remote.jwks(), (e) => e.code === 'JWKS_UNAVAILABLE' && /timed out/.test(e.message))
  assert.ok(performance.now() - t0 < 2000)
  c.t += 31 // past the cooldown: a new fetch, not the hung one
  assert.deepEqual((await remote.jwks()).kids, ['k1'])
  assert.equal(calls, 2)
})

test('a Node stream body is read within maxBytes', async () => {
  const { Readable } = require('node:stream')
  const [body] = keys('k1')
  const text = JSON.stringify(body)
  const answer = (b) => ({ status: 200, type: 'basic', headers: new Headers(), body: b, arrayBuffer: () => { throw new Error('read whole') } })
  const small = new ekl.RemoteJwks('https://net.example/jwks.json', { fetch: async () => answer(Readable.from([Buffer.from(text)])) })
  assert.deepEqual((await small.jwks()).kids, ['k1'])
  const endless = Readable.from((function * () { for (;;) yield Buffer.alloc(65536, 32) })())
  const big = new ekl.RemoteJwks('https://net.example/jwks.json', { fetch: async () => answer(endless), maxBytes: 1 << 20 })
  await assert.rejects(big.jwks(), (e) => e.code === 'JWKS_UNAVAILABLE' && /larger than 1048576 bytes/.test(e.message))
})

test('an unknown kid within the cooldown after a failure is not refetched', async () => {
  const s = await server()
  try {
    const [body] = keys('k1')
    s.serve(body, 'max-age=60')
    const c = clock()
    const remote = new ekl.RemoteJwks(s.url, { clock: c })
    assert.deepEqual((await remote.jwks()).kids, ['k1'])
    s.status = 500
    c.t += 61
    assert.deepEqual((await remote.jwks()).kids, ['k1']) // the fetch failed: the last good set serves
    assert.equal(s.hits, 2)
    c.t += 5
    const [, signing] = keys('k2')
    await assert.rejects(remote.jwksFor(token(signing.k2)), {
      code: 'UNKNOWN_KID',
      message: 'UNKNOWN_KID: kid is not in the key set, and the last fetch failed 5 s ago; the next refetch may happen in 25 s',
    })
    assert.equal(s.hits, 2)
  } finally {
    s.http.close()
  }
})

test('a token header is read by the core: no kid when the verifier could not read it', () => {
  const [body] = keys('k1')
  const policy = new ekl.RemoteJwksPolicy('https://net.example/j', { scheme: 'https', host: 'net.example' })
  assert.deepEqual(policy.body(0, JSON.stringify(body)).kids, ['k1'])
  // a kid seen unknown is refetched once per cooldown: a fresh policy per question
  const action = (raw) => {
    const p = new ekl.RemoteJwksPolicy('https://net.example/j', { scheme: 'https', host: 'net.example' })
    p.body(0, JSON.stringify(body))
    return p.kid(1, { token: `${Buffer.from(raw).toString('base64url')}.e30.c2ln` }).action
  }
  assert.equal(action('{"kid":"k2"}'), 'fetch')
  assert.equal(action('{"kid":"k1"}'), 'serve')
  for (const raw of ['['.repeat(5000), '{"kid":"k2","kid":"k1"}', '\ufeff{"kid":"k2"}', '{"kid":"k2","x":NaN}']) {
    assert.equal(action(raw), 'serve', raw)
  }
})

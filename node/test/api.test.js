'use strict'
// The API surface: docs/operations.json coverage (CJS, ESM, declarations, the type example),
// results checked against independent computations with node:crypto, arguments, async.
const test = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const { ekl, ROOT, SRC_DIR, PKG_DIR, throwsCode } = require('./helpers.js')
const SALT = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'

const sha256 = (...parts) => {
  const h = crypto.createHash('sha256')
  for (const p of parts) h.update(p)
  return h.digest('hex')
}
const hmac = (key, ...parts) => {
  const h = crypto.createHmac('sha256', key)
  for (const p of parts) h.update(p)
  return h.digest('hex')
}
const canon = (v) => ekl.canonicalizeValue(v)

function operations() {
  const file = path.join(ROOT, 'docs', 'operations.json')
  return JSON.parse(fs.readFileSync(file, 'utf8')).operations
}

/** The handle classes of the registry (docs/decisions/handles.md), by the manifest's `handles`. */
const MANIFEST_FILE = path.join(ROOT, 'docs', 'operations.json')
const HANDLE_CLASSES = new Set(fs.existsSync(MANIFEST_FILE) ? JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')).handles.map((h) => h.name) : [])

test('every operation of docs/operations.json is exported (CJS and ESM), declared and type-checked', async (t) => {
  if (!fs.existsSync(path.join(ROOT, 'docs', 'operations.json'))) {
    t.skip('not running from the repository')
    return
  }
  const esm = await import('ekl-evidence')
  const dts = fs.readFileSync(path.join(PKG_DIR, 'index.d.ts'), 'utf8')
  const usage = fs.readFileSync(path.join(SRC_DIR, 'types-test', 'usage.mts'), 'utf8')
  const missing = []
  for (const op of operations()) {
    const name = op.js
    if (op.method_of) {
      // A method of a handle class (docs/decisions/handles.md): on the class, in its declaration.
      if (typeof ekl[op.method_of]?.prototype?.[name] !== 'function') missing.push(`${op.method_of}.${name}: not a method`)
      if (!new RegExp(`export declare class ${op.method_of} \\{[\\s\\S]*?\\n  ${name}\\(`).test(dts)) missing.push(`${op.method_of}.${name}: not declared in index.d.ts`)
      if (!new RegExp(`\\.${name}\\(`).test(usage)) missing.push(`${op.method_of}.${name}: not used by types-test/usage.mts`)
      continue
    }
    if (typeof ekl[name] !== 'function') missing.push(`${name}: not exported by require()`)
    if (typeof esm[name] !== 'function') missing.push(`${name}: not exported by import`)
    if (!new RegExp(`export declare (function ${name}[(<]|class ${name}\\b|const ${name}: \\{\\n  new\\b)`).test(dts)) missing.push(`${name}: not declared in index.d.ts`)
    if (!new RegExp(`\\b${name}\\(`).test(usage)) missing.push(`${name}: not used by types-test/usage.mts`)
  }
  assert.deepEqual(missing, [], `the Node package misses operations:\n${missing.join('\n')}`)
  // The declarations are generated from the manifest: stale ones fail here.
  const { stale } = require(path.join(SRC_DIR, 'scripts', 'dts.js'))
  assert.deepEqual(stale(), [], 'run `node scripts/dts.js` in node/')
  // Every parameter of every operation is declared by its JS name (required ones positional,
  // optional ones as members of the options object), in its last declaration: the general
  // signature, after the overloads (a salted commitment, issueMacReceipt's object form).
  for (const op of operations()) {
    if (op.method_of || HANDLE_CLASSES.has(op.js)) {
      // a handle class's constructor or method: its parameters but `self` in the class's block
      const block = new RegExp(`export declare class ${op.method_of ?? op.js} \\{\\n([\\s\\S]*?)\\n\\}`).exec(dts)
      assert.ok(block, `${op.js}: its class declared`)
      for (const p of op.params) if (p.kind !== 'handle') assert.match(block[1], new RegExp(`\\b${p.js}\\??:`), `${op.js}: ${p.js} declared`)
      continue
    }
    const decl = [...dts.matchAll(new RegExp(`export declare (?:function ${op.js}(?:<[^(]*>)?\\(|const ${op.js}: \\{\\n  new (?:<[^(]*>)?\\()([\\s\\S]*?)(?=\\n(?:export|\\}|/\\*\\*))`, 'g'))].at(-1)
    assert.ok(decl, `${op.js}: declared`)
    for (const p of op.params) assert.match(decl[1], new RegExp(`\\b${p.js}\\??:`), `${op.js}: ${p.js} declared`)
  }
})

test('arguments follow the registry: options by camelCase name, unknown ones refused naming the allowed ones', () => {
  const e = throwsCode(assert, () => ekl.verifyJws('t', 'ekl-receipt+jwt', { keys: [] }, { issuer: 'x', bogus: 1 }), 'INVALID_ARGUMENT')
  assert.match(e.message, /bogus.*allowed: now, issuer, audience, skew, maxLifetime, requireExp, requireIat/)
  throwsCode(assert, () => ekl.commitment({ a: 1 }, { salt_id: 'x' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.termsHash({ a: 1 }, { x: 1 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.proofKey('a', 'b'), 'INVALID_ARGUMENT')
  // now: seconds, or a Date; milliseconds refused naming the argument; left out: the clock.
  const { jwks, keys } = ekl.jwksFromSeed('11'.repeat(32), ['k'])
  const iat = Math.floor(Date.now() / 1000)
  const token = ekl.signJws('ekl-access+jwt', { iat, exp: iat + 60 }, keys[0])
  assert.equal(ekl.verifyJws(token, 'ekl-access+jwt', jwks).kid, 'k')
  assert.equal(ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: new Date() }).kid, 'k')
  assert.match(throwsCode(assert, () => ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: Date.now() }), 'INVALID_ARGUMENT').message, /now.*milliseconds/)
  // A fraction is floored (docs/decisions.md#fractional-now); NaN, ±Infinity, strings refused.
  assert.equal(ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: iat + 119.999 }).kid, 'k')
  throwsCode(assert, () => ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: iat + 120.5 }), 'TOKEN_EXPIRED')
  throwsCode(assert, () => ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: iat - 60.5 }), 'TOKEN_NOT_YET_VALID')
  for (const now of [NaN, Infinity, -Infinity, '1780000000', 2 ** 60]) {
    throwsCode(assert, () => ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now }), 'INVALID_ARGUMENT', String(now))
  }
  throwsCode(assert, () => ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: iat + 3600 }), 'TOKEN_EXPIRED')
  // jwks: a Jwks, a plain object or JsonText.
  assert.equal(ekl.verifyJws(token, 'ekl-access+jwt', new ekl.JsonText(JSON.stringify(jwks.toJSON()))).kid, 'k')
  throwsCode(assert, () => ekl.signJws('ekl-access+jwt', {}, { kid: 'k' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => new ekl.Jwks({ keys: [{ kty: 'RSA' }] }), 'INVALID_JWKS')
})

test('the ESM entry exports exactly what the CommonJS entry does, and every export is declared', async () => {
  const esm = await import('ekl-evidence')
  const named = Object.keys(esm).filter((k) => k !== 'default').sort()
  assert.deepEqual(named, Object.keys(ekl).sort())
  assert.equal(esm.default, ekl)
  const dts = fs.readFileSync(path.join(PKG_DIR, 'index.d.ts'), 'utf8')
  for (const k of named) {
    assert.match(dts, new RegExp(`export declare (function|const|class) ${k}\\b`), `${k} is declared`)
  }
})

test('identity: backend, core version', () => {
  assert.equal(ekl.backend, 'native')
  const cargo = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8')
  const m = /\[workspace\.package\][^[]*?version = "([^"]+)"/.exec(cargo)
  if (m) assert.equal(ekl.coreVersion(), m[1])
  assert.equal(ekl.MAX_DEPTH, 64)
  assert.equal(ekl.CAPABILITY_INPUT_MAX_BYTES, 262144)
  assert.equal(ekl.MAX_INPUT_BYTES, 64 * 1024 * 1024)
  assert.equal(ekl.MAX_VALUE_BYTES, 8 * 1024 * 1024)
  assert.ok(Object.isFrozen(ekl))
})

test('sha256Hex: strings as UTF-8, bytes as they are', () => {
  assert.equal(ekl.sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  assert.equal(ekl.sha256Hex('é😀'), sha256(Buffer.from('é😀')))
  assert.equal(ekl.sha256Hex(new Uint8Array([1, 2, 3])), sha256(Buffer.from([1, 2, 3])))
  assert.equal(ekl.sha256Hex(''), sha256(''))
  throwsCode(assert, () => ekl.sha256Hex('\ud800'), 'LONE_SURROGATE')
  throwsCode(assert, () => ekl.sha256Hex(5), 'INVALID_ARGUMENT')
})

test('commitment: shape, digest over the canonical bytes, salt prefixed', () => {
  const v = { min_beds: 3, area_ref: 'loc:ca:dublin' }
  const c = ekl.commitment(v)
  assert.deepEqual(c, { alg: 'sha-256', canon: 'ekl-json-1', digest: sha256(canon(v)) })
  assert.deepEqual(Object.keys(c), ['alg', 'canon', 'digest'])
  const s = ekl.commitment(v, { salt: SALT, saltId: 'salt-7' })
  assert.deepEqual(s, {
    alg: 'sha-256',
    canon: 'ekl-json-1',
    digest: sha256(Buffer.from(SALT, 'hex'), canon(v)),
    salt_id: 'salt-7',
    salt: SALT,
  })
  assert.equal(s.digest, ekl.fingerprint(SALT, v))
  throwsCode(assert, () => ekl.commitment(v, { salt: SALT.toUpperCase() }), 'INVALID_SALT')
  throwsCode(assert, () => ekl.commitment(v, { salt: SALT.slice(2) }), 'INVALID_SALT')
  throwsCode(assert, () => ekl.commitment(v, { salt_id: 'x' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.commitment(v, { salt: 5 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.commitment(v, 'salt'), 'INVALID_ARGUMENT')
})

test('inputCommitment: the 256 KB limit of §2.5 on the canonical form', () => {
  const sized = (n) => ({ s: 'x'.repeat(n - 8) }) // {"s":"…"} is n bytes
  assert.equal(canon(sized(262144)).length, 262144)
  assert.equal(ekl.inputCommitment(sized(262144)).digest, sha256(canon(sized(262144))))
  throwsCode(assert, () => ekl.inputCommitment(sized(262145)), 'BODY_TOO_LARGE')
  // commitment has no limit; canonicalize takes one as an option.
  assert.equal(ekl.commitment(sized(262145)).digest, sha256(canon(sized(262145))))
  throwsCode(assert, () => ekl.canonicalizeValue(sized(100), { maxBytes: 99 }), 'BODY_TOO_LARGE')
  assert.equal(ekl.canonicalizeValue(sized(100), { maxBytes: 100 }).length, 100)
  throwsCode(assert, () => ekl.canonicalize('[1]', { maxBytes: -1 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalize('[1]', { maxBytes: 1.5 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalize('[1]', { max_bytes: 1 }), 'INVALID_ARGUMENT')
  // canonicalizeValue's maxBytes bounds the conversion only when it is a valid maxBytes: a
  // malformed one is INVALID_ARGUMENT, as in Python and the bridge (it was BODY_TOO_LARGE)
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: -1 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: 1.5 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: '2' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: true }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: false }), 'INVALID_ARGUMENT')
  assert.equal(ekl.canonicalizeValue([1], { maxBytes: 3 }).length, 3)
  throwsCode(assert, () => ekl.canonicalizeValue([1], { maxBytes: 2 }), 'BODY_TOO_LARGE')
})

test('termsHash: the digest of the terms without their hash member', () => {
  const terms = { price: '10.00', currency: 'EUR', hash: 'whatever' }
  assert.equal(ekl.termsHash(terms), sha256(canon({ price: '10.00', currency: 'EUR' })))
  assert.equal(ekl.termsHash({ a: 1 }), sha256('{"a":1}'))
  throwsCode(assert, () => ekl.termsHash([1]), 'INVALID_SHAPE')
})

test('fingerprint and output fingerprint', () => {
  const v = { b: [1, 'é'], a: null }
  assert.equal(ekl.fingerprint(SALT, v), sha256(Buffer.from(SALT, 'hex'), canon(v)))
  throwsCode(assert, () => ekl.fingerprint(SALT.toUpperCase(), v), 'INVALID_SALT')
  throwsCode(assert, () => ekl.fingerprint('00', v), 'INVALID_SALT')
  throwsCode(assert, () => ekl.fingerprint(null, v), 'INVALID_ARGUMENT')
  const structured = { structuredContent: { ok: 1 }, content: [{ type: 'text', text: '{}' }], isError: false, _meta: { x: 1 } }
  assert.equal(ekl.outputFingerprint(SALT, structured), ekl.fingerprint(SALT, { ok: 1 }))
  assert.deepEqual(ekl.selectResultBody(structured), { member: 'structuredContent', value: { ok: 1 } })
  const nullStructured = { structuredContent: null, content: [{ type: 'text', text: 'x' }] }
  assert.deepEqual(ekl.selectResultBody(nullStructured), { member: 'content', value: [{ type: 'text', text: 'x' }] })
  assert.equal(ekl.outputFingerprint(SALT, nullStructured), ekl.fingerprint(SALT, nullStructured.content))
  throwsCode(assert, () => ekl.outputFingerprint(SALT, { isError: true }), 'INVALID_SHAPE')
  throwsCode(assert, () => ekl.selectResultBody([]), 'INVALID_SHAPE')
})

test('upstreamFingerprint: offered tools sorted by name, projected, missing members null', () => {
  const tools = [
    { name: 'search', description: 'd', inputSchema: { type: 'object' }, extra: 1 },
    { name: 'alpha', annotations: { readOnlyHint: true }, outputSchema: {} },
    { name: 'zeta', description: 'not offered' },
  ]
  const project = (t) => ({
    name: t.name,
    description: t.description ?? null,
    inputSchema: t.inputSchema ?? null,
    outputSchema: t.outputSchema ?? null,
    annotations: t.annotations ?? null,
  })
  const expected = sha256(canon([project(tools[1]), project(tools[0])]))
  assert.equal(ekl.upstreamFingerprint({ tools }, { offered: ['search', 'alpha'] }), expected)
  assert.equal(ekl.upstreamFingerprint(tools.slice(0, 2)), expected)
  assert.equal(ekl.upstreamFingerprint({ tools }), sha256(canon([tools[1], tools[0], tools[2]].map(project))))
  throwsCode(assert, () => ekl.upstreamFingerprint([{ name: 'a' }, { name: 'a' }]), 'INVALID_SHAPE')
  throwsCode(assert, () => ekl.upstreamFingerprint({ tools: 1 }), 'INVALID_SHAPE')
  throwsCode(assert, () => ekl.upstreamFingerprint(tools, 'search'), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.upstreamFingerprint(tools, { offered: 'search' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.upstreamFingerprint(tools, { offered: ['\udc00'] }), 'LONE_SURROGATE')
})

test('valueDigest: SHA-256 of the canonical bytes, the salt bytes first when given', () => {
  const v = { b: [1.0, 'é'], a: null }
  assert.equal(ekl.valueDigest(v), sha256(canon(v)))
  assert.equal(ekl.valueDigest(new ekl.JsonText('{"b":[1,"é"],"a":null}')), sha256(canon(v)))
  assert.equal(ekl.valueDigest(v, { salt: SALT }), sha256(Buffer.from(SALT, 'hex'), canon(v)))
  assert.equal(ekl.valueDigest(v, { salt: SALT }), ekl.fingerprint(SALT, v))
  assert.equal(ekl.valueDigest(v, { salt: null }), ekl.commitment(v).digest)
  throwsCode(assert, () => ekl.valueDigest(v, { salt: SALT.toUpperCase() }), 'INVALID_SALT')
  throwsCode(assert, () => ekl.valueDigest(v, { salt: 7 }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.valueDigest(new ekl.JsonText('{"a":1,"a":2}')), 'DUPLICATE_KEY')
})

test('upstreamProjection: the array that upstreamFingerprint hashes', () => {
  const tools = [
    { name: 'search', description: 'd', inputSchema: { type: 'object' }, extra: 1 },
    { name: 'alpha', annotations: { readOnlyHint: true }, outputSchema: {} },
  ]
  const expected = [
    { name: 'alpha', description: null, inputSchema: null, outputSchema: {}, annotations: { readOnlyHint: true } },
    { name: 'search', description: 'd', inputSchema: { type: 'object' }, outputSchema: null, annotations: null },
  ]
  const p = ekl.upstreamProjection({ tools })
  assert.deepEqual(p, expected)
  assert.equal(sha256(canon(p)), ekl.upstreamFingerprint({ tools }))
  assert.deepEqual(ekl.upstreamProjection(tools, { offered: ['search'] }), [expected[1]])
  assert.deepEqual(ekl.upstreamProjection(tools, { offered: [] }), [])
  throwsCode(assert, () => ekl.upstreamProjection([{ name: 'a' }, { name: 'a' }]), 'INVALID_SHAPE')
  throwsCode(assert, () => ekl.upstreamProjection(tools, 'search'), 'INVALID_ARGUMENT')
})

test('jwksFromSeed: one key per kid, the JWKS of their public keys, tokens that verify', () => {
  const seed = '11'.repeat(32)
  const { jwks, keys } = ekl.jwksFromSeed(seed, ['net-1', 'net-2'])
  assert.ok(jwks instanceof ekl.Jwks)
  assert.deepEqual(jwks.kids, ['net-1', 'net-2'])
  assert.deepEqual(keys.map((k) => k.kid), ['net-1', 'net-2'])
  assert.ok(keys.every((k) => k instanceof ekl.SigningKey))
  // The same keys as signingKey gives (RFC 6979: equal keys sign equal tokens).
  const claims = { iss: 'https://n.example', iat: 1780000000, exp: 1780000060 }
  assert.equal(ekl.signJws('ekl-receipt+jwt', claims, keys[1]), ekl.signJws('ekl-receipt+jwt', claims, ekl.signingKey(seed, 'net-2')))
  const token = ekl.signJws('ekl-receipt+jwt', claims, keys[0])
  const v = ekl.verifyJws(token, 'ekl-receipt+jwt', jwks, { now: 1780000010, issuer: 'https://n.example' })
  assert.equal(v.kid, 'net-1')
  // A key set parsed from the JSON of this one is the same key set.
  assert.deepEqual(new ekl.Jwks(jwks.toJSON()).toJSON(), jwks.toJSON())
  const other = ekl.jwksFromSeed('22'.repeat(32), ['net-1']).jwks
  throwsCode(assert, () => ekl.verifyJws(token, 'ekl-receipt+jwt', other, { now: 1780000010 }), 'SIGNATURE_INVALID')
  throwsCode(assert, () => ekl.jwksFromSeed(seed, ['k', 'k']), 'INVALID_KEY')
  throwsCode(assert, () => ekl.jwksFromSeed('11', ['k']), 'INVALID_KEY')
  throwsCode(assert, () => ekl.jwksFromSeed(seed, 'k'), 'INVALID_ARGUMENT')
})

test('endpoint proofs, enrollment authority and the verify signature equal their HMAC definitions', () => {
  const agentKey = 'eklp_example-agent-key'
  const endpoint = 'https://mcp.example.com/ekl'
  const challenge = '9f'.repeat(32)
  const pk = hmac(agentKey, 'ekl-endpoint-proof-v2')
  assert.equal(ekl.proofKey(agentKey), pk)
  const pkBytes = Buffer.from(pk, 'hex')
  const v1Key = sha256(agentKey)
  assert.equal(ekl.challengeProofV1(agentKey, challenge, endpoint), hmac(v1Key, challenge, endpoint))
  assert.equal(ekl.challengeProofV2(pk, challenge, endpoint), hmac(pkBytes, 'ekl-challenge-v2\n', challenge, '\n', endpoint))
  assert.equal(ekl.enrollAuthorityV1(agentKey, 'enr-1', 'n0nce', endpoint), hmac(v1Key, `ekl-enroll-1|enr-1|n0nce|${endpoint}`))
  assert.equal(ekl.enrollAuthorityV2(pk, 'enr-1', 'n0nce', endpoint), hmac(pkBytes, `ekl-enroll-2|enr-1|n0nce|${endpoint}`))
  const sig = ekl.verifySignature('reg-secret', 'agent-1', 'enr-1', challenge)
  assert.equal(sig, hmac('reg-secret', `ekl-verify-1.1|agent-1|enr-1|${challenge}`))
  assert.equal(ekl.checkVerifySignature('reg-secret', 'agent-1', 'enr-1', challenge, sig), true)
  assert.equal(ekl.checkVerifySignature('reg-secret', 'agent-1', 'enr-1', challenge, sig.toUpperCase()), false)
  assert.equal(ekl.checkVerifySignature('reg-secret', 'agent-2', 'enr-1', challenge, sig), false)
  assert.equal(ekl.checkVerifySignature('reg-secret', 'agent-1', 'enr-1', challenge, 'zz'), false)
  throwsCode(assert, () => ekl.challengeProofV2(pk.toUpperCase(), challenge, endpoint), 'INVALID_HEX')
  throwsCode(assert, () => ekl.enrollAuthorityV2(pk.slice(1), 'e', 'n', endpoint), 'INVALID_HEX')
  throwsCode(assert, () => ekl.proofKey(undefined), 'INVALID_ARGUMENT')
  // A lone surrogate would silently become U+FFFD at the native boundary: refused instead.
  throwsCode(assert, () => ekl.proofKey('key\ud800'), 'LONE_SURROGATE')
  throwsCode(assert, () => ekl.verifySignature('s', 'a', 'e', '\udfff'), 'LONE_SURROGATE')
})

test('canonicalizeAsync gives the sync result and does not block the event loop', async () => {
  const doc = { b: [1, 2, { d: 'é', c: null }], a: 1e21 }
  const want = ekl.canonicalizeValue(doc).toString()
  assert.equal((await ekl.canonicalizeAsync(JSON.stringify(doc))).toString(), want)
  assert.equal((await ekl.canonicalizeAsync(Buffer.from(JSON.stringify(doc)))).toString(), want)
  assert.equal((await ekl.canonicalizeValueAsync(doc)).toString(), want)
  assert.equal((await ekl.canonicalizeValueAsync(new ekl.JsonText(JSON.stringify(doc)))).toString(), want)
  await assert.rejects(ekl.canonicalizeAsync('[1]', { maxBytes: 2 }), { code: 'BODY_TOO_LARGE' })

  // A large document: the event loop keeps turning while the thread pool canonicalises it.
  const items = []
  for (let i = 0; i < 150000; i++) items.push({ z: i, y: `item ${i}`, x: [i / 7, true, null] })
  const big = Buffer.from(JSON.stringify(items))
  let ticks = 0
  let running = true
  const spin = () => {
    ticks++
    if (running) setImmediate(spin)
  }
  setImmediate(spin)
  const out = await ekl.canonicalizeAsync(big)
  running = false
  assert.ok(ticks > 1, `the event loop turned ${ticks} times during the work`)
  assert.equal(out.length, ekl.canonicalize(big).length)
})

test('the addon works in worker threads', async () => {
  const { Worker } = require('node:worker_threads')
  const code = `
    const { parentPort } = require('node:worker_threads')
    const ekl = require(${JSON.stringify(require.resolve('ekl-evidence'))})
    const big = {}; for (let i = 0; i < 9000; i++) big['k' + i] = i
    parentPort.postMessage([ekl.canonicalizeValue({ b: 1, a: 2 }).toString(), ekl.canonicalizeValue(big).length])`
  const results = await Promise.all(
    [0, 1].map(
      () =>
        new Promise((resolve, reject) => {
          const w = new Worker(code, { eval: true })
          w.once('message', resolve)
          w.once('error', reject)
        }),
    ),
  )
  for (const r of results) assert.deepEqual(r, ['{"a":2,"b":1}', ekl.canonicalizeValue(Object.fromEntries(Array.from({ length: 9000 }, (_, i) => ['k' + i, i]))).length])
})

test('receipts: sign, verify (baseline and rotated rings), batch with refusals in place, async', async () => {
  const secret = 'rs_test-secret'
  const input = { q: 'ping' }
  const result = { a: 'pong' }
  const receipt = {
    receipt_version: '1.1', receipt_id: 'r1', execution_kind: 'trial', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p',
    collaboration_id: 'col_1', connection_id: 'con_1', execution_id: 'ex_1', capability_id: 'cap_x', capability_version: '1.0.0',
    rel_ver_at_admission: 1, dsc_ver: 1, terms_hash: 't', input_commitment: ekl.commitment(input), output_commitment: ekl.commitment(result),
    status: 'succeeded', issued_at: '2026-11-29T18:40:05Z', key_id: 'rk-1', auth_profile: 'ekl-evidence-mac-1.1',
  }
  const signed = ekl.signReceipt(receipt, secret)
  assert.equal(signed.auth_tag, ekl.authTag(receipt, secret))
  assert.equal(signed.auth_tag, crypto.createHmac('sha256', Buffer.from(ekl.receiptKey(secret, 'rk-1'), 'hex')).update(ekl.canonicalizeValue(receipt)).digest('hex'))
  assert.equal(ekl.receiptDigest(signed), sha256(ekl.canonicalizeValue(signed)))
  throwsCode(assert, () => ekl.signReceipt(signed, secret), 'INVALID_RECEIPT')
  const call = { execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_x', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p' }
  const ok = ekl.verifyReceipt(signed, secret, call, { inputCommitment: ekl.commitment(input), outputCommitment: ekl.commitment(result) })
  assert.equal(ok.accepted, true)
  assert.equal(ok.receipt_digest, ekl.receiptDigest(signed))
  assert.ok(ok.checks.every((c) => c.outcome === 'pass' && !('detail' in c)))
  const other = ekl.verifyReceipt(signed, secret, call, { outputCommitment: ekl.commitment({ a: 'other' }) })
  assert.equal(other.accepted, false)
  assert.deepEqual(other.checks.filter((c) => c.outcome !== 'pass').map((c) => [c.name, c.outcome]), [['output_commitment', 'mismatch']])
  // Expected and received values, as every surface gives them (the core's display texts).
  const mismatch = other.checks.find((c) => c.name === 'output_commitment')
  assert.ok(mismatch.expected.includes(ekl.commitment({ a: 'other' }).digest))
  assert.ok(mismatch.received.includes(ekl.commitment(result).digest))
  const wrongId = ekl.verifyReceipt(signed, secret, { ...call, execution_id: 'ex_other' }).checks.find((c) => c.name === 'execution_id')
  assert.deepEqual([wrongId.outcome, wrongId.expected, wrongId.received], ['fail', '"ex_other"', '"ex_1"'])
  const ring = [{ key_id: 'rk-1', secret, valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-11-01T00:00:00Z' }]
  const retired = ekl.verifyReceipt(signed, ring, call)
  assert.equal(retired.checks.find((c) => c.name === 'key_id').outcome, 'fail')
  // Arguments.
  throwsCode(assert, () => ekl.verifyReceipt(signed, secret, { ...call, execution_id: undefined }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.verifyReceipt(signed, secret, { ...call, executionId: 'x' }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.verifyReceipt(signed, [], call), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.verifyReceipt(signed, [{ key_id: 'k', secret, valid_from: 'yesterday' }], call), 'INVALID_TIMESTAMP')
  throwsCode(assert, () => ekl.verifyReceipt(signed, secret, call, { inputCommitment: { alg: 'md5', canon: 'ekl-json-1', digest: 'x' } }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.verifyReceipt([], secret, call), 'INVALID_RECEIPT')
  // Batch: a refusal stays in its place as an EklError; the others are verdicts.
  const items = [{ receipt: signed, call }, { receipt: [], call }, { receipt: { ...signed, status: 'tampered' }, call }]
  const out = ekl.verifyReceipts(items, secret)
  assert.equal(out[0].accepted, true)
  assert.ok(out[1] instanceof ekl.EklError && out[1].code === 'INVALID_RECEIPT')
  assert.equal(out[2].accepted, false)
  const outAsync = await ekl.verifyReceiptsAsync(items, secret)
  assert.deepEqual(outAsync.map((r) => (r instanceof Error ? r.code : r.accepted)), [true, 'INVALID_RECEIPT', false])
  await assert.rejects(ekl.verifyReceiptsAsync(items, {}), { code: 'INVALID_ARGUMENT' })
})

test('proof verifiers and screening', () => {
  const agentKey = 'eklp_example'
  const pk = ekl.proofKey(agentKey)
  const p1 = ekl.challengeProofV1(agentKey, 'ch', 'https://e.example')
  const p2 = ekl.challengeProofV2(pk, 'ch', 'https://e.example')
  assert.equal(ekl.verifyChallengeProof('ch', 'https://e.example', { proofV2: p2, proofKey: pk }), 'v2')
  throwsCode(assert, () => ekl.verifyChallengeProof('ch', 'https://e.example', { proof: p1, proofKey: pk }), 'PROOF_DOWNGRADE')
  assert.equal(ekl.verifyChallengeProof('ch', 'https://e.example', { proof: p1, credentialHash: sha256(agentKey) }), 'v1')
  throwsCode(assert, () => ekl.verifyChallengeProof('ch', 'e', { proofKey: pk, credentialHash: 'x' }), 'INVALID_ARGUMENT')
  const a2 = ekl.enrollAuthorityV2(pk, 'enr', 'n', 'https://e.example')
  assert.equal(ekl.verifyEnrollAuthority('v2', agentKey, 'enr', 'n', 'https://e.example', { authority: a2, authorityVersion: 2 }), 'v2')
  throwsCode(assert, () => ekl.verifyEnrollAuthority('v3', agentKey, 'enr', 'n', 'e', { authority: a2, authorityVersion: 2 }), 'INVALID_ARGUMENT')
  assert.equal(ekl.screeningFold('Straße ＡＢＣ'), 'strasse abc')
  const rules = ekl.screeningRules({ rules_version: 'r1', rules: [{ rule_id: 'x', category: 'spam', phrases: ['buy now'] }] })
  assert.deepEqual(ekl.screen({ content: [{ type: 'text', text: 'BUY NOW!' }] }, { rules }), [{ category: 'spam', rules_version: 'r1', rule_id: 'x' }])
  assert.deepEqual(ekl.screen({ content: [{ type: 'text', text: 'BUY NOW!' }] }), [])
})

test('verifyReceiptsAsync: a large batch (run in chunks) keeps the order of the items', async () => {
  const secret = 's'
  const base = { receipt_version: '1.1', key_id: 'rk-1' }
  const call = { execution_id: 'ex', collaboration_id: 'col', capability_id: 'cap', requester_agent_id: 'a', provider_agent_id: 'b' }
  const items = Array.from({ length: 2500 }, (_, i) => ({ receipt: i % 7 === 3 ? [] : { ...base, receipt_id: `r${i}` }, call }))
  const sync = ekl.verifyReceipts(items, secret)
  const async_ = await ekl.verifyReceiptsAsync(items, secret)
  assert.equal(async_.length, items.length)
  assert.deepEqual(async_.map((r) => (r instanceof Error ? r.code : r.receipt_digest)), sync.map((r) => (r instanceof Error ? r.code : r.receipt_digest)))
  assert.ok(async_[3] instanceof ekl.EklError)
  assert.deepEqual(await ekl.verifyReceiptsAsync([], secret), [])
  // On 1, 2 or 5 threads (the bridge splits the batch): the same verdicts in the same order.
  const key = (r) => (r instanceof Error ? r.code : JSON.stringify(r))
  const one = ekl.verifyReceipts(items, secret, { jobs: 1 }).map(key)
  assert.deepEqual(ekl.verifyReceipts(items, secret, { jobs: 2 }).map(key), one)
  assert.deepEqual((await ekl.verifyReceiptsAsync(items, secret, { jobs: 5 })).map(key), one)
  assert.deepEqual(sync.map(key), one)
  // The same items as a receipt archive (JSON lines text), on any number of threads.
  const lines = items.map((it) => JSON.stringify(it)).join('\n')
  const archive = ekl.verifyReceiptLines(lines, { keys: secret, jobs: 1 }).map(key)
  assert.deepEqual(archive, one)
  assert.deepEqual(ekl.verifyReceiptLines(Buffer.from(lines), { keys: secret, jobs: 2 }).map(key), one)
  throwsCode(assert, () => ekl.verifyReceipts(items, secret, { jobs: 0 }), 'INVALID_ARGUMENT')
})

test('canonical bytes are Buffers of their own: later calls and a transfer of their memory leave them intact', {
  skip: ekl.backend !== 'native' && 'the native backend writes results into shared slabs',
}, () => {
  const first = ekl.canonicalize('{"b":[1,2],"a":"x"}')
  const keep = Buffer.from(first)
  const many = []
  for (let i = 0; i < 2000; i++) many.push(ekl.canonicalize(`{"n":${i},"pad":"${'p'.repeat(i % 300)}"}`))
  assert.ok(Buffer.isBuffer(first))
  assert.deepEqual(first, keep)
  many.forEach((b, i) => assert.equal(b.toString(), `{"n":${i},"pad":"${'p'.repeat(i % 300)}"}`))
  // Writing into one result touches no other.
  many[5].fill(0)
  assert.equal(many[6].toString(), `{"n":6,"pad":"${'p'.repeat(6)}"}`)
  // Transferring a result's memory copies it (the slab stays usable).
  const { port1 } = new MessageChannel()
  port1.postMessage(first.buffer, [first.buffer])
  port1.close()
  assert.deepEqual(first, keep)
  assert.equal(ekl.canonicalize('[3,1]').toString(), '[3,1]')
  // A result larger than a slab's room, and one larger than a slab.
  const big = `[${'"abcdefgh",'.repeat(3000)}1]`
  assert.equal(ekl.canonicalize(big).toString(), big)
  assert.equal(ekl.canonicalize(Buffer.from(big)).toString(), big)
})

test('the four per-type credential verifiers: typed results, a Date clock, purpose and audience', () => {
  const { jwks, keys } = ekl.jwksFromSeed('22'.repeat(32), ['k1'])
  const iss = 'https://net.example'
  const t0 = 1780000000
  const at = new Date((t0 + 5) * 1000)
  const assertion = ekl.signJws('ekl-relationship+jwt', {
    iss, sub: 'agt_c', aud: 'https://p.example/token', iat: t0, exp: t0 + 120, jti: 'j1', org: 'o1',
    auth_profile: 'ekl-auth-1.1', con: 'con_1', rel_ver: 3, dsc_ver: 'd7', caps: [{ id: 'cap.a', ver: 1, note: 'x' }],
  }, keys[0])
  const a = ekl.verifyRelationshipAssertion(assertion, jwks, iss, 'https://p.example/token', { now: at })
  assert.deepEqual([a.jti, a.rel_ver, a.dsc_ver, a.exp, a.caps], ['j1', 3, 'd7', t0 + 120, [{ id: 'cap.a', ver: 1 }]])
  throwsCode(assert, () => ekl.verifyRelationshipAssertion(assertion, jwks, iss, 'https://p.example/mcp', { now: at }), 'AUDIENCE_MISMATCH')
  const call = ekl.signJws('ekl-platform-call+jwt', { iss, aud: 'agt_p', iat: t0, exp: t0 + 60, jti: 'j2', purpose: 'deliver' }, keys[0])
  const p = ekl.verifyPlatformCall(call, jwks, iss, 'deliver', { audience: 'agt_p', now: at })
  assert.deepEqual([p.purpose, p.jti], ['deliver', 'j2'])
  throwsCode(assert, () => ekl.verifyPlatformCall(call, jwks, iss, 'enroll', { now: at }), 'PURPOSE_MISMATCH')
  throwsCode(assert, () => ekl.verifyPlatformCall(call, jwks, iss, 'DELIVER', { now: at }), 'INVALID_ARGUMENT')
  throwsCode(assert, () => ekl.verifyPlatformCall(call, jwks, iss, 'deliver', { audience: 'agt_q', now: at }), 'AUDIENCE_MISMATCH')
  const feed = ekl.signJws('ekl-revocation-feed+jwt', { iss, aud: 'agt_p', iat: t0, items: [] }, keys[0])
  const f = ekl.verifyRevocationFeed(feed, jwks, iss, 'agt_p', { now: t0 + 86400 * 365 })
  assert.equal(f.exp, null)
  const long = ekl.signJws('ekl-access+jwt', { iss, aud: 'ekl:agent:agt_p', iat: t0, exp: t0 + 901 }, keys[0])
  throwsCode(assert, () => ekl.verifyAccessToken(long, jwks, iss, 'agt_p', { now: at }), 'LIFETIME_TOO_LONG')
  const token = ekl.signJws('ekl-access+jwt', { iss, aud: 'ekl:agent:agt_p', iat: t0, exp: t0 + 900 }, keys[0])
  assert.deepStrictEqual(ekl.verifyAccessToken(token, jwks, iss, 'agt_p', { now: at }),
    { ...ekl.verifyJws(token, 'ekl-access+jwt', jwks, { now: at }), iss, iat: t0, exp: t0 + 900 })
})

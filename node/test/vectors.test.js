'use strict'
// Runs every file of the repository's vectors/ in place against the package.
//
// One runner per file name (RUNNERS below): it turns the file into checks, each with the path of
// its expected value inside the file, the expected value and a thunk computing the actual one.
// A file without a runner fails (bind the new vector file here), unless vectors/calls.jsonl checks
// it (vector-calls.test.js: the one format the remaining runners move to, vectors/README.md#calls).
// The meta-test changes each expected value in a copy of the file and requires the runner to fail
// on it, so no check can silently ignore what the file says.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { ekl, VECTORS_DIR, outcome } = require('./helpers.js')

/** The canonical text of a value, or "error:CODE". */
function canon(f) {
  const r = outcome(f)
  return r.ok ? r.value : `error:${r.code}`
}

/**
 * Runners: (parsed file, file text) => [{ name, path, expected, actual: () => any }]. `path`
 * locates `expected` inside the parsed file (for the meta-test, which changes it in a copy).
 */
const RUNNERS = {}

RUNNERS['ekl-json-1.json'] = (v) => {
  const checks = []
  const textCase = (section, i, c, input, options) => {
    const at = [section, i]
    const run = () => outcome(() => ekl.canonicalize(input, options))
    if ('code' in c) {
      checks.push({
        name: `${section}: ${c.name}: refused`,
        path: [...at, 'code'],
        expected: c.code,
        actual: () => {
          const r = run()
          return r.ok ? `accepted: ${r.value.slice(0, 80)}` : r.code
        },
      })
      return
    }
    const bytes = () => {
      const r = run()
      return r.ok ? r.value : `error:${r.code}`
    }
    if ('canonical' in c) {
      checks.push({ name: `${section}: ${c.name}: canonical`, path: [...at, 'canonical'], expected: c.canonical, actual: bytes })
    }
    if ('canonical_length' in c) {
      checks.push({
        name: `${section}: ${c.name}: canonical length`,
        path: [...at, 'canonical_length'],
        expected: c.canonical_length,
        actual: () => Buffer.byteLength(bytes()),
      })
    }
    checks.push({
      name: `${section}: ${c.name}: sha256`,
      path: [...at, 'sha256'],
      expected: c.sha256,
      actual: () => ekl.sha256Hex(bytes()),
    })
  }
  v.valid.forEach((c, i) => {
    textCase('valid', i, c, c.input)
    // The same through the bytes path and as a JsonText value.
    checks.push({
      name: `valid: ${c.name}: canonical (UTF-8 bytes, JsonText value)`,
      path: ['valid', i, 'canonical'],
      expected: c.canonical,
      actual: () => {
        const a = canon(() => ekl.canonicalize(Buffer.from(c.input, 'utf8')))
        const b = canon(() => ekl.canonicalizeValue(new ekl.JsonText(c.input)))
        return a === b ? a : `bytes ${a} != value ${b}`
      },
    })
  })
  v.valid.forEach((c, i) => {
    // The value path: JSON.parse of a valid text (no duplicate keys, integer literals within
    // ±2^53, so nothing is lost) gives the same bytes.
    checks.push({
      name: `valid: ${c.name}: canonical of the parsed value`,
      path: ['valid', i, 'canonical'],
      expected: c.canonical,
      actual: () => canon(() => ekl.canonicalizeValue(JSON.parse(c.input))),
    })
  })
  v.invalid.forEach((c, i) => textCase('invalid', i, c, c.input))
  // Generated inputs: prefix + repeat × count + inner + close × count + suffix (older files
  // named `repeat` `open`).
  const generated = (c) =>
    (c.prefix ?? '') + (c.repeat ?? c.open).repeat(c.count) + (c.inner ?? '') + (c.close ?? '').repeat(c.count) + (c.suffix ?? '')
  v.depth.forEach((c, i) => textCase('depth', i, c, generated(c)))
  v.invalid_utf8.forEach((c, i) => textCase('invalid_utf8', i, c, Buffer.from(c.input_hex, 'hex')))
  v.size.forEach((c, i) => textCase('size', i, c, generated(c), { maxBytes: c.max_bytes }))
  return checks
}

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

// A folder of vectors: every input/NAME.json canonicalises to output/NAME.json, byte for byte;
// and the published hashes of the ECMAScript number file's first lines (10^3 to 10^5 here).
RUNNERS['rfc8785-testdata/'] = (v) => [
  ...Object.entries(v.es6)
    .filter(([n]) => Number(n) <= 100000)
    .map(([n, hash]) => ({
      name: `es6 number file: SHA-256 of the first ${n} lines`,
      path: ['es6', n],
      expected: hash,
      actual: () => crypto.createHash('sha256').update(es6Lines(v.numgen, Number(n))).digest('hex'),
    })),
  ...Object.keys(v.input)
    .sort()
    .map((name) => ({
      name: `input/${name} -> output/${name}`,
      path: ['output', name],
      expected: v.output[name],
      actual: () => {
        try {
          return ekl.canonicalize(Buffer.from(v.input[name], 'latin1')).toString('latin1')
        } catch (e) {
          return `error:${e.code}`
        }
      },
    })),
]

/** A call of a vector file, as the JS API takes it (wire names, as the file has it). */
const jsCall = (call) => call

/** What a verdict says, in the vector files' shape: {not_pass: {check: outcome}, details: {...}}. */
function verdictSummary(verdict, pinned = {}) {
  pinned ??= {}
  if (verdict instanceof Error) return `error:${verdict.code}`
  const notPass = {}
  const details = {}
  for (const c of verdict.checks) {
    if (c.outcome !== 'pass') notPass[c.name] = c.outcome
    if (Object.prototype.hasOwnProperty.call(pinned, c.name)) details[c.name] = c.detail
  }
  return { not_pass: notPass, details }
}

RUNNERS['call-receipt.json'] = (v) => {
  const checks = [
    {
      name: 'receipt key',
      path: ['receipt_key'],
      expected: v.receipt_key,
      actual: () => ekl.receiptKey(v.receipt_secret, v.receipt.key_id),
    },
    { name: 'auth_tag', path: ['auth_tag'], expected: v.auth_tag, actual: () => ekl.authTag(v.receipt, v.receipt_secret) },
    {
      name: 'signReceipt adds the auth_tag',
      path: ['auth_tag'],
      expected: v.auth_tag,
      actual: () => ekl.signReceipt(v.receipt, v.receipt_secret).auth_tag,
    },
    {
      name: 'receipt digest (auth_tag included)',
      path: ['receipt_digest'],
      expected: v.receipt_digest,
      actual: () => ekl.receiptDigest({ ...v.receipt, auth_tag: v.auth_tag }),
    },
    {
      name: 'the receipt commits to the input',
      path: ['receipt', 'input_commitment', 'digest'],
      expected: v.receipt.input_commitment.digest,
      actual: () => ekl.commitment(v.input).digest,
    },
    {
      name: 'the receipt commits to the result',
      path: ['receipt', 'output_commitment', 'digest'],
      expected: v.receipt.output_commitment.digest,
      actual: () => ekl.commitment(v.result).digest,
    },
    {
      name: 'the receipt names the terms hash',
      path: ['receipt', 'terms_hash'],
      expected: v.receipt.terms_hash,
      actual: () => ekl.termsHash(v.terms),
    },
  ]
  const ring = v.key_ring.keys
  v.key_ring.cases.forEach((c, i) => {
    checks.push({
      name: `key_ring: ${c.name}`,
      path: ['key_ring', 'cases', i, 'expected'],
      expected: c.expected,
      actual: () => verdictSummary(ekl.verifyReceipt(c.receipt, ring, jsCall(c.call ?? v.key_ring.call)), c.expected.details),
    })
  })
  const items = v.mismatch.cases.map((c) => {
    const salt = c.own_salt ? { salt: c.own_salt } : undefined
    return {
      receipt: c.receipt,
      call: jsCall(c.call ?? v.call),
      input_commitment: ekl.commitment(c.own_input, salt),
      output_commitment: ekl.commitment(c.own_result, salt),
    }
  })
  v.mismatch.cases.forEach((c, i) => {
    checks.push({
      name: `mismatch: ${c.name}`,
      path: ['mismatch', 'cases', i, 'expected'],
      expected: c.expected,
      actual: () => verdictSummary(ekl.verifyReceipt(items[i].receipt, v.receipt_secret, items[i].call, {
          inputCommitment: items[i].input_commitment,
          outputCommitment: items[i].output_commitment,
        }), c.expected.details),
    })
  })
  // Receipts issued from the call answered: the receipt, or the refusal's code.
  v.issue.cases.forEach((c, i) => {
    const options = { issuedAt: c.issued_at, inputSalt: c.input_salt, outputSalt: c.output_salt }
    if (c.key_id !== undefined) options.keyId = c.key_id
    if (c.receipt_id !== undefined) options.receiptId = c.receipt_id
    checks.push({
      name: `issue: ${c.name}`,
      path: ['issue', 'cases', i, c.error ? 'error' : 'expected'],
      expected: c.error ?? c.expected,
      actual: () => {
        try {
          return ekl.issueMacReceipt(c.call, c.input, c.output, c.status, c.rel_ver_at_admission, c.dsc_ver, c.secret, options)
        } catch (e) {
          if (!ekl.isEklError(e)) throw e
          return e.code
        }
      },
    })
  })
  // The batch gives the same verdicts, in order (computed once).
  let batch = null
  v.mismatch.cases.forEach((c, i) => {
    checks.push({
      name: `mismatch: ${c.name} (verifyReceipts)`,
      path: ['mismatch', 'cases', i, 'expected'],
      expected: c.expected,
      actual: () => {
        batch ??= ekl.verifyReceipts(items, v.receipt_secret)
        return verdictSummary(batch[i], c.expected.details)
      },
    })
  })
  return checks
}

RUNNERS['endpoint-proof-v2.json'] = (v) => {
  const checks = [
    { name: 'proof key', path: ['proof_key'], expected: v.proof_key, actual: () => ekl.proofKey(v.agent_key) },
    { name: 'agent key SHA-256', path: ['agent_key_sha256'], expected: v.agent_key_sha256, actual: () => ekl.sha256Hex(v.agent_key) },
  ]
  v.challenges.forEach((c, i) => {
    checks.push(
      { name: `challenge ${c.name}: v1`, path: ['challenges', i, 'proof'], expected: c.proof, actual: () => ekl.challengeProofV1(v.agent_key, c.challenge, c.endpoint) },
      { name: `challenge ${c.name}: v2`, path: ['challenges', i, 'proof_v2'], expected: c.proof_v2, actual: () => ekl.challengeProofV2(v.proof_key, c.challenge, c.endpoint) },
    )
  })
  v.enroll.forEach((c, i) => {
    checks.push(
      { name: `enroll ${c.name}: v1`, path: ['enroll', i, 'authority_v1'], expected: c.authority_v1, actual: () => ekl.enrollAuthorityV1(v.agent_key, c.enrollment_id, c.nonce, c.endpoint) },
      { name: `enroll ${c.name}: v2`, path: ['enroll', i, 'authority_v2'], expected: c.authority_v2, actual: () => ekl.enrollAuthorityV2(v.proof_key, c.enrollment_id, c.nonce, c.endpoint) },
    )
  })
  v.verify_signature.forEach((c, i) => {
    checks.push(
      { name: `verify signature ${c.name}`, path: ['verify_signature', i, 'signature'], expected: c.signature, actual: () => ekl.verifySignature(c.registration_secret, c.agent_id, c.enrollment_id, c.challenge) },
      {
        name: `verify signature ${c.name}: checked`,
        path: ['verify_signature', i, 'signature'],
        expected: c.signature,
        actual: () => (ekl.checkVerifySignature(c.registration_secret, c.agent_id, c.enrollment_id, c.challenge, c.signature) ? c.signature : '<does not verify>'),
      },
    )
  })
  const ch = v.challenges[0]
  v.downgrade.network.forEach((c, i) => {
    const holds = c.holds === 'proof_key' ? { proofKey: v.proof_key } : { credentialHash: v.agent_key_sha256 }
    checks.push({
      name: `network: ${c.name}`,
      path: ['downgrade', 'network', i, 'expected'],
      expected: c.expected,
      actual: () => canon(() => ekl.verifyChallengeProof(ch.challenge, ch.endpoint, { ...holds, proof: c.proof, proofV2: c.proof_v2 })).replace(/^error:/, ''),
    })
  })
  const en = v.enroll[0]
  v.downgrade.agent.forEach((c, i) => {
    checks.push({
      name: `agent: ${c.name}`,
      path: ['downgrade', 'agent', i, 'expected'],
      expected: c.expected,
      actual: () =>
        canon(() => ekl.verifyEnrollAuthority(c.announced, v.agent_key, en.enrollment_id, en.nonce, en.endpoint, { authority: c.authority, authorityVersion: c.authority_version })).replace(/^error:/, ''),
    })
  })
  return checks
}

RUNNERS['receipt-jws.json'] = (v) => {
  const jwks = new ekl.Jwks(v.jwks)
  return v.cases.map((c, i) => {
    const call = jsCall({ ...v.call, ...(c.call ?? {}) })
    return {
      name: `${c.name}: ${c.description}`,
      path: ['cases', i, 'expected'],
      expected: c.expected,
      actual: () => {
        let verdict
        try {
          verdict = c.receipt !== undefined ? ekl.verifySignedReceipt(c.receipt, jwks, call) : ekl.verifyReceiptJws(c.receipt_jws, jwks, call)
        } catch (e) {
          if (!ekl.isEklError(e)) throw e
          return { error: e.code }
        }
        const out = { accepted: verdict.accepted, checks: Object.fromEntries(verdict.checks.map((x) => [x.name, x.outcome])) }
        if (verdict.receipt_digest !== undefined) out.receipt_digest = verdict.receipt_digest
        return out
      },
    }
  })
}

/** Folders of vectors/ that hold no vectors (the checking scripts of the vectors helper). */
const NOT_VECTORS = new Set(['check'])

function vectorFiles() {
  if (!fs.existsSync(VECTORS_DIR)) return null
  return fs
    .readdirSync(VECTORS_DIR, { withFileTypes: true })
    .filter((d) => (d.isFile() && d.name.endsWith('.json')) || (d.isDirectory() && !NOT_VECTORS.has(d.name)))
    .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
    .sort()
}

/** A vector file, parsed; a folder as {input: {name: text}, output: {name: text}} (latin1 keeps bytes). */
function loadText(file) {
  return file.endsWith('/') ? '' : fs.readFileSync(path.join(VECTORS_DIR, file), 'utf8')
}

function load(file) {
  const full = path.join(VECTORS_DIR, file)
  if (!file.endsWith('/')) return JSON.parse(fs.readFileSync(full, 'utf8'))
  const folder = {}
  for (const sub of ['input', 'output']) {
    folder[sub] = {}
    const dir = path.join(full, sub)
    if (!fs.existsSync(dir)) continue
    for (const name of fs.readdirSync(dir)) folder[sub][name] = fs.readFileSync(path.join(dir, name), 'latin1')
  }
  const read = (name) => (fs.existsSync(path.join(full, name)) ? fs.readFileSync(path.join(full, name), 'utf8') : '')
  folder.es6 = Object.fromEntries(read('es6-hashes.tsv').split('\n').filter(Boolean).map((l) => l.split('\t')))
  folder.numgen = read('numgen-static.txt').split('\n').filter(Boolean)
  return folder
}

/** A different value of the same type (the meta-test's tampering). */
function tamper(x) {
  if (typeof x === 'string') {
    if (x.length === 0) return 'x'
    const last = x[x.length - 1]
    return x.slice(0, -1) + (last === '0' ? '1' : '0')
  }
  if (typeof x === 'number') return x + 1
  if (typeof x === 'boolean') return !x
  if (x === null) return 0
  return { tampered: x }
}

function setAt(obj, p, value) {
  let o = obj
  for (const k of p.slice(0, -1)) o = o[k]
  o[p[p.length - 1]] = value
}

function getAt(obj, p) {
  return p.reduce((o, k) => o[k], obj)
}

/** The files checked through vectors/calls.jsonl (vector-calls.test.js): no runner here. */
function pinnedFiles() {
  const calls = path.join(VECTORS_DIR, 'calls.jsonl')
  if (!fs.existsSync(calls)) return new Set()
  return new Set(fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).file))
}

const PINNED = pinnedFiles()
const files = vectorFiles()?.filter((f) => !PINNED.has(f)) ?? null

test('a vector file is checked through vectors/calls.jsonl or by a runner here, not both', () => {
  for (const f of PINNED) assert.ok(!RUNNERS[f], `${f}: both in vectors/calls.jsonl and in RUNNERS`)
})

test('vectors/ exists and holds vector files', (t) => {
  if (files === null) {
    t.skip(`no ${VECTORS_DIR} yet (set EKL_VECTORS_DIR to run elsewhere)`)
    return
  }
  assert.ok(files.length > 0, `${VECTORS_DIR} holds no .json file`)
})

for (const file of files ?? []) {
  test(`vectors/${file}`, async (t) => {
    const runner = RUNNERS[file]
    assert.ok(runner, `vectors/${file} has no runner in node/test/vectors.test.js: bind it there`)
    const v = load(file)
    const checks = runner(v, loadText(file))
    assert.ok(checks.length > 0, 'the runner made no check')
    for (const c of checks) {
      await t.test(c.name, () => {
        assert.deepEqual(getAt(v, c.path), c.expected, `path ${c.path.join('.')} holds the expected value`)
        assert.deepEqual(c.actual(), c.expected)
      })
    }
  })

  test(`meta: a changed expected value in vectors/${file} fails`, (t) => {
    const runner = RUNNERS[file]
    if (!runner) {
      t.skip('no runner')
      return
    }
    const original = runner(load(file), loadText(file))
    let tested = 0
    for (let i = 0; i < original.length; i++) {
      const copy = load(file)
      const p = original[i].path
      setAt(copy, p, tamper(getAt(copy, p)))
      const check = runner(copy, loadText(file))[i]
      assert.equal(check.name, original[i].name)
      assert.notDeepEqual(
        check.actual(),
        check.expected,
        `check "${check.name}" still passes with ${p.join('.')} changed: it does not compare it`,
      )
      tested++
    }
    assert.equal(tested, original.length)
  })
}

module.exports = { RUNNERS }

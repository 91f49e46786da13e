'use strict'
// Runs every file of the repository's vectors/ in place against the package.
//
// One runner per file name (RUNNERS below): it turns the file into checks, each with the path of
// its expected value inside the file, the expected value and a thunk computing the actual one.
// A file without a runner fails (bind the new vector file here). The meta-test changes each
// expected value in a copy of the file and requires the runner to fail on it, so no check can
// silently ignore what the file says.
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
const RUNNERS = {
  'fingerprints.json'(v) {
    const checks = []
    v.cases.forEach((c, i) => {
      const at = ['cases', i]
      checks.push(
        {
          name: `${c.name}: ekl-json-1 of the value`,
          path: [...at, 'jcs'],
          expected: c.jcs,
          actual: () => canon(() => ekl.canonicalizeValue(c.value)),
        },
        {
          name: `${c.name}: ekl-json-1 of the value's JSON text`,
          path: [...at, 'jcs'],
          expected: c.jcs,
          actual: () => canon(() => ekl.canonicalize(JSON.stringify(c.value, null, 1))),
        },
        {
          name: `${c.name}: fingerprint`,
          path: [...at, 'fingerprint'],
          expected: c.fingerprint,
          actual: () => ekl.fingerprint(c.salt, c.value),
        },
      )
    })
    const rs = v.result_selection
    // The result selection case uses the salt of the cases (the file does not repeat it).
    const salt = v.cases[0].salt
    checks.push(
      {
        name: 'result_selection: the body fingerprinted',
        path: ['result_selection', 'fingerprinted'],
        expected: rs.fingerprinted,
        actual: () => ekl.selectResultBody(rs.result).member,
      },
      {
        name: 'result_selection: output fingerprint',
        path: ['result_selection', 'fingerprint'],
        expected: rs.fingerprint,
        actual: () => ekl.outputFingerprint(salt, rs.result),
      },
    )
    const ch = v.challenge
    checks.push(
      {
        name: 'challenge: SHA-256 of the provider credential',
        path: ['challenge', 'credential_sha256'],
        expected: ch.credential_sha256,
        actual: () => ekl.sha256Hex(ch.provider_credential),
      },
      {
        name: 'challenge: v1 proof',
        path: ['challenge', 'proof'],
        expected: ch.proof,
        actual: () => ekl.challengeProofV1(ch.provider_credential, ch.challenge, ch.endpoint),
      },
    )
    return checks
  },
}

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
 * The exact text of the value at `at` inside JSON text `text` (JSON.parse loses what the core must
 * see: integer literals beyond 2^53, duplicate keys). A small scanner for well-formed files.
 */
function rawAt(text, at) {
  let i = 0
  const ws = () => {
    while (' \t\n\r'.includes(text[i])) i++
  }
  const skipString = () => {
    i++
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
  }
  const readString = () => {
    const start = i
    skipString()
    return JSON.parse(text.slice(start, i))
  }
  // Skips one value; when `want` (a path) is not empty, descends into it instead.
  function value(want) {
    ws()
    const start = i
    if (text[i] === '{' || text[i] === '[') {
      const isObject = text[i] === '{'
      i++
      ws()
      let index = 0
      while (text[i] !== '}' && text[i] !== ']') {
        let key = index
        if (isObject) {
          key = readString()
          ws()
          i++ // ':'
        }
        if (want.length > 0 && String(want[0]) === String(key)) return value(want.slice(1))
        value([])
        ws()
        if (text[i] === ',') i++
        ws()
        index++
      }
      i++
      if (want.length > 0) throw new Error(`no ${want.join('.')} in the file`)
    } else if (text[i] === '"') {
      skipString()
    } else {
      while (i < text.length && !',]} \t\n\r'.includes(text[i])) i++
    }
    return want.length === 0 ? text.slice(start, i) : undefined
  }
  return value(at)
}

RUNNERS['upstream-fingerprint.json'] = (v, fileText) => {
  const checks = []
  // The tools through the text path: the file's own text of them, in a JsonText.
  const tools = (section, i) => new ekl.JsonText(rawAt(fileText, [section, i, 'tools']))
  v.cases.forEach((c, i) => {
    checks.push(
      {
        name: `${c.name}: fingerprint`,
        path: ['cases', i, 'fingerprint'],
        expected: c.fingerprint,
        actual: () => canon(() => ekl.upstreamFingerprint(tools('cases', i), { offered: c.offered })),
      },
      {
        name: `${c.name}: fingerprint of the parsed value`,
        path: ['cases', i, 'fingerprint'],
        expected: c.fingerprint,
        actual: () => canon(() => ekl.upstreamFingerprint(c.tools, { offered: c.offered })),
      },
      {
        // The API gives the digest, not the projection: the file's projection must hash to it.
        name: `${c.name}: the projection is what is hashed`,
        path: ['cases', i, 'projection'],
        expected: c.projection,
        actual: () => (ekl.sha256Hex(c.projection) === ekl.upstreamFingerprint(c.tools, { offered: c.offered }) ? c.projection : '<another projection>'),
      },
    )
  })
  v.invalid.forEach((c, i) => {
    checks.push({
      name: `invalid: ${c.name}`,
      path: ['invalid', i, 'code'],
      expected: c.code,
      actual: () => canon(() => ekl.upstreamFingerprint(tools('invalid', i), { offered: c.offered })).replace(/^error:/, ''),
    })
  })
  return checks
}

// Every operation that reads JSON text refuses a duplicate member anywhere in it: each case hands
// its `input` to the named operation as JSON text.
RUNNERS['duplicate-keys.json'] = (v) => {
  const ops = {
    upstream_fingerprint: (t, c) => ekl.upstreamFingerprint(t, { offered: c.offered }),
    output_fingerprint: (t) => ekl.outputFingerprint(v.salt, t),
    select_result_body: (t) => ekl.selectResultBody(t).member,
    terms_hash: (t) => ekl.termsHash(t),
    fingerprint: (t) => ekl.fingerprint(v.salt, t),
    value_digest: (t) => ekl.valueDigest(t),
    receipt_digest: (t) => ekl.receiptDigest(t),
    auth_tag: (t) => ekl.authTag(t, v.secret),
    screening_rules: (t) => (ekl.screeningRules(t), 'rules'),
  }
  return v.cases.map((c, i) => {
    const op = ops[c.operation]
    if (!op) throw new Error(`unknown operation ${c.operation} in duplicate-keys.json`)
    const run = () => canon(() => op(new ekl.JsonText(c.input), c))
    return c.code !== undefined
      ? { name: c.name, path: ['cases', i, 'code'], expected: c.code, actual: () => run().replace(/^error:/, '') }
      : { name: c.name, path: ['cases', i, 'expected'], expected: c.expected, actual: run }
  })
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

RUNNERS['screening-scan.json'] = (v) => {
  const checks = []
  v.cases.forEach((c, i) => {
    const rules = c.rules === null || c.rules === undefined ? null : v.rules_sets[c.rules]
    checks.push({
      name: c.name,
      path: ['cases', i, 'expected'],
      expected: c.expected,
      actual: () => {
        const r = outcome(() => ekl.screen(c.result, { rules: rules === null ? null : ekl.screeningRules(rules) }))
        return r.ok ? r.value : `error:${r.code}`
      },
    })
  })
  v.invalid_rules.forEach((c, i) => {
    checks.push({
      name: `invalid rules: ${c.name}`,
      path: ['invalid_rules', i, 'error'],
      expected: c.error,
      actual: () => canon(() => ekl.screeningRules(c.claims)).replace(/^error:/, ''),
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

RUNNERS['screening-rules-jws.json'] = (v) => {
  const jwks = new ekl.Jwks(v.jwks)
  return v.cases.map((c, i) => ({
    name: `${c.name}: ${c.description}`,
    path: ['cases', i, 'expected'],
    expected: c.expected,
    actual: () => {
      try {
        return ekl.verifyScreeningRules(c.token, jwks, v.network_issuer, { now: c.now })
      } catch (e) {
        if (!ekl.isEklError(e)) throw e
        return { error: e.code }
      }
    },
  }))
}

/** The function of each operation of credentials-jws.json and its arguments after (token, jwks, issuer). */
const CREDENTIAL_OPS = {
  verify_relationship_assertion: (c) => [ekl.verifyRelationshipAssertion, [c.args.token_endpoint], {}],
  verify_platform_call: (c) => [ekl.verifyPlatformCall, [c.args.purpose], c.args.audience === undefined ? {} : { audience: c.args.audience }],
  verify_revocation_feed: (c) => [ekl.verifyRevocationFeed, [c.args.provider_agent_id], {}],
  verify_access_token: (c) => [ekl.verifyAccessToken, [c.args.provider_id], {}],
}

RUNNERS['credentials-jws.json'] = (v) => {
  const jwks = new ekl.Jwks(v.jwks)
  return v.cases.map((c, i) => ({
    name: `${c.name}: ${c.description}`,
    path: ['cases', i, 'expected'],
    expected: c.expected,
    actual: () => {
      const [fn, args, options] = CREDENTIAL_OPS[c.op](c)
      let got
      try {
        got = fn(c.token, jwks, v.network_issuer, ...args, { ...options, now: c.now })
      } catch (e) {
        if (!ekl.isEklError(e)) throw e
        return { error: e.code }
      }
      // The verified token is verifyJws's result, the type's members added.
      const base = ekl.verifyJws(c.token, got.typ, jwks, { now: c.now, issuer: v.network_issuer, requireExp: false })
      assert.deepStrictEqual(Object.fromEntries(Object.keys(base).map((k) => [k, got[k]])), base)
      return got
    },
  }))
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

const files = vectorFiles()

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

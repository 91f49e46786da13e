// The vector runner of the wasm package, the same module in Node and in Chromium: it reads every
// file of vectors/ (given as {name: path relative to vectors/, text}; vectors/check/ holds scripts,
// not data), runs each case through the public JS API and returns
//   records:  one per case {file, case, call, result}: `call` says what was run (replayable by the
//             native `ekl` CLI, see native.mjs), `result` is 'ok:<output>' or 'err:<CODE>';
//   failures: the cases whose result differs from the expected value written in the file;
//   unknown:  files this runner has no handler for (a test fails on them: every file must run).
// Outputs that can be long (canonical forms) are recorded as 'sha256:<hex>:<length>'.
import { parseRaw, get, plain } from './rawjson.mjs';

const HANDLERS = {
  'ekl-json-1.json': eklJson,
  'call-receipt.json': callReceipt,
  'endpoint-proof-v2.json': endpointProof,
  'receipt-jws.json': receiptJws,
};

const RFC = 'rfc8785-testdata/';
/** Files read by the handler of another file (never run on their own). */
const CONSUMED = [/^README\.md$/, /^calls\.jsonl$/, /^rfc8785-testdata\/output\/.+\.json$/, /^rfc8785-testdata\/numgen-static\.txt$/,
  /^rfc8785-testdata\/README\.md$/];

export function runVectors(api, files, { es6Lines = 10_000 } = {}) {
  const records = [];
  const failures = [];
  const unknown = [];
  const byName = new Map(files.map((f) => [f.name, f.text]));
  // The files checked through vectors/calls.jsonl (vector-calls.test.mjs) have no handler here.
  const calls = byName.get('calls.jsonl') ?? '';
  const pinned = new Set(calls.split('\n').filter(Boolean).map((l) => JSON.parse(l).file));
  for (const { name, text } of files) {
    let handler = HANDLERS[name];
    if (handler && pinned.has(name)) throw new Error(`${name}: both in vectors/calls.jsonl and in HANDLERS`);
    if (pinned.has(name)) continue;
    if (name.startsWith(`${RFC}input/`)) handler = rfcInput;
    if (name === `${RFC}es6-hashes.tsv`) handler = es6Numbers;
    if (!handler && CONSUMED.some((re) => re.test(name))) continue;
    if (!handler) {
      unknown.push(name);
      continue;
    }
    const ctx = {
      api,
      record(kase, call, result, expected) {
        records.push({ file: name, case: kase, call, result });
        if (expected !== undefined && result !== expected) {
          failures.push({ file: name, case: kase, result, expected });
        }
      },
      attempt(f) {
        try {
          return `ok:${f()}`;
        } catch (e) {
          if (!api.isEklError(e)) throw e;
          return `err:${e.code}`;
        }
      },
    };
    ctx.file = (n) => byName.get(n);
    ctx.name = name;
    ctx.es6Lines = es6Lines;
    handler(ctx, name.endsWith('.json') && !name.startsWith(RFC) ? parseRaw(text) : text);
  }
  return { records, failures, unknown };
}

const enc = new TextEncoder();
const bytesFromHex = (hex) => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function canonResult(api, bytes) {
  return `sha256:${api.sha256Hex(bytes)}:${bytes.length}`;
}

function eklJson(ctx, root) {
  const { api } = ctx;
  const canon = (kase, input, maxBytes, expect) => {
    const bytes = typeof input === 'string' ? enc.encode(input) : input;
    const call = { op: 'canon', input_hex: bytes.length <= 4096 ? toHex(bytes) : undefined, input: bytes, max_bytes: maxBytes };
    const options = maxBytes === null || maxBytes === undefined ? undefined : { maxBytes };
    const result = ctx.attempt(() => canonResult(api, api.canonicalize(bytes, options)));
    ctx.record(kase, call, result, expect);
  };
  const expected = (c) => {
    if (c.code) return `err:${c.code}`;
    if (c.canonical !== undefined) return `ok:sha256:${api.sha256Hex(c.canonical)}:${enc.encode(c.canonical).length}`;
    return `ok:sha256:${c.sha256}:${c.canonical_length}`;
  };
  for (const node of get(root, 'valid').items) {
    const c = plain(node);
    if (c.sha256 !== undefined && api.sha256Hex(c.canonical) !== c.sha256) {
      ctx.record(`valid: ${c.name} (file's own sha256)`, { op: 'none' }, 'err:FILE', 'ok:');
    }
    canon(`valid: ${c.name}`, c.input, null, expected(c));
  }
  for (const node of get(root, 'invalid').items) {
    const c = plain(node);
    canon(`invalid: ${c.name}`, c.input, null, `err:${c.code}`);
  }
  for (const node of get(root, 'invalid_utf8')?.items ?? []) {
    const c = plain(node);
    canon(`invalid_utf8: ${c.name}`, bytesFromHex(c.input_hex), null, `err:${c.code}`);
  }
  for (const node of get(root, 'depth')?.items ?? []) {
    const c = plain(node);
    const input = (c.prefix ?? '') + (c.open ?? c.repeat).repeat(c.count) + (c.inner ?? '')
      + (c.close ?? '').repeat(c.count) + (c.suffix ?? '');
    canon(`depth: ${c.name}`, input, null, expected(c));
  }
  for (const node of get(root, 'size')?.items ?? []) {
    const c = plain(node);
    const input = c.prefix + c.repeat.repeat(c.count) + c.suffix;
    canon(`size: ${c.name}`, input, c.max_bytes, expected(c));
  }
}

// RFC 8785's own test data: each input's canonical form is the matching output file, byte for byte.
function rfcInput(ctx, text) {
  const { api } = ctx;
  const outName = ctx.name.replace('/input/', '/output/');
  const out = ctx.file(outName);
  const expected = out === undefined ? 'err:NO_OUTPUT_FILE' : `ok:sha256:${api.sha256Hex(out)}:${enc.encode(out).length}`;
  ctx.record(ctx.name, { op: 'canon', input: enc.encode(text) },
    ctx.attempt(() => canonResult(api, api.canonicalize(text))), expected);
}

// The ECMAScript number test sequence (README.md of rfc8785-testdata): the first N lines
// `<hex>,<String(x)>` written by our number writer (through canonicalize), hashed, against the
// published hash for N.
function es6Numbers(ctx, text) {
  const { api } = ctx;
  const hashes = new Map(text.trim().split('\n').map((l) => l.split('\t')).map(([n, h]) => [Number(n), h]));
  const n = ctx.es6Lines;
  if (!hashes.has(n)) throw new Error(`es6-hashes.tsv has no hash for ${n} lines`);
  const statics = ctx.file(`${RFC}numgen-static.txt`).trim().split('\n').map((l) => BigInt(`0x${l.trim()}`));
  const view = new DataView(new ArrayBuffer(8));
  const bitsToDouble = (bits) => { view.setBigUint64(0, bits); return view.getFloat64(0); };
  const lines = [];
  const emit = (bits) => {
    const x = bitsToDouble(bits);
    // Handed over in exponent form so that the core reads a double (an integer literal beyond
    // 2^53 would be refused), then written by the core's number writer.
    const written = new TextDecoder().decode(api.canonicalize(`[${x.toExponential()}]`)).slice(1, -1);
    lines.push(`${bits.toString(16)},${written}\n`);
  };
  for (const b of statics) { if (lines.length < n) emit(b); }
  for (let i = 0n; i < 2000n && lines.length < n; i++) emit(0x0010000000000000n + i);
  let block = new Uint8Array(32);
  while (lines.length < n) {
    block = bytesFromHex(api.sha256Hex(block));
    const dv = new DataView(block.buffer);
    for (let k = 0; k < 4 && lines.length < n; k++) {
      const x = dv.getFloat64(k * 8, true);
      if (x === 0 || !Number.isFinite(x)) continue;
      emit(dv.getBigUint64(k * 8, true));
    }
  }
  ctx.record(`es6 numbers: first ${n} lines`, { op: 'none' },
    `ok:${api.sha256Hex(lines.join(''))}`, `ok:${hashes.get(n)}`);
}

// ---- MAC receipts (§9.5): the published receipt, key rotation and mismatch cases ----

/** A verdict as a comparable string: accepted, the non-passing checks (sorted) and their details. */
function verdictResult(v, detailsOf) {
  const notPass = v.checks.filter((c) => c.outcome !== 'pass').map((c) => `${c.name}=${c.outcome}`).sort();
  const details = detailsOf.map((n) => `${n}:${(v.checks.find((c) => c.name === n) || {}).detail ?? ''}`);
  return `accepted=${v.accepted} not_pass=[${notPass}] details=[${details}] digest=${v.receipt_digest}`;
}
function verdictExpected(api, expected, receiptRaw) {
  const np = Object.entries(expected.not_pass).map(([k, v]) => `${k}=${v}`).sort();
  const names = Object.keys(expected.details || {});
  const details = names.map((n) => `${n}:${expected.details[n]}`);
  return [`ok:accepted=${np.length === 0} not_pass=[${np}] details=[${details}] digest=${api.receiptDigest(new api.JsonText(receiptRaw))}`, names];
}


function callReceipt(ctx, root) {
  const { api } = ctx;
  const doc = plain(root);
  const raw = (node, key) => new api.JsonText(get(node, key).raw);
  const receiptRaw = get(root, 'receipt').raw;
  const secret = doc.receipt_secret;
  ctx.record('published: receipt_key', { op: 'none' },
    ctx.attempt(() => api.receiptKey(secret, doc.receipt.key_id)), `ok:${doc.receipt_key}`);
  ctx.record('published: auth_tag', { op: 'none' },
    ctx.attempt(() => api.authTag(new api.JsonText(receiptRaw), secret)), `ok:${doc.auth_tag}`);
  ctx.record('published: sign_receipt', { op: 'none' },
    ctx.attempt(() => api.signReceipt(new api.JsonText(receiptRaw), secret).auth_tag), `ok:${doc.auth_tag}`);
  const tagged = { ...doc.receipt, auth_tag: doc.auth_tag };
  ctx.record('published: receipt_digest', { op: 'none' },
    ctx.attempt(() => api.receiptDigest(tagged)), `ok:${doc.receipt_digest}`);
  ctx.record('published: input_commitment', { op: 'none' },
    ctx.attempt(() => api.commitment(raw(root, 'input')).digest), `ok:${doc.receipt.input_commitment.digest}`);
  ctx.record('published: terms_hash', { op: 'none' },
    ctx.attempt(() => api.termsHash(raw(root, 'terms'))), `ok:${doc.receipt.terms_hash}`);
  const ownIn = api.commitment(raw(root, 'input'));
  const ownOut = api.commitment(raw(root, 'result'));
  ctx.record('published: verify against its call', { op: 'none' },
    ctx.attempt(() => api.verifyReceipt(tagged, secret, { ...doc.call, receipt_digest: doc.receipt_digest },
      { inputCommitment: ownIn, outputCommitment: ownOut }).accepted),
    'ok:true');
  const ring = get(root, 'key_ring');
  for (const node of get(ring, 'cases').items) {
    const c = plain(node);
    const rr = get(node, 'receipt').raw;
    const [expected, names] = verdictExpected(api, c.expected, rr);
    ctx.record(`key_ring: ${c.name}`, { op: 'none' },
      ctx.attempt(() => verdictResult(api.verifyReceipt(new api.JsonText(rr), plain(get(ring, 'keys')),
        plain(get(ring, 'call')), { inputCommitment: ownIn, outputCommitment: ownOut }), names)),
      expected);
  }
  for (const node of get(get(root, 'mismatch'), 'cases').items) {
    const c = plain(node);
    const rr = get(node, 'receipt').raw;
    const [expected, names] = verdictExpected(api, c.expected, rr);
    const opts = c.own_salt ? { salt: c.own_salt } : undefined;
    ctx.record(`mismatch: ${c.name}`, { op: 'none' },
      ctx.attempt(() => verdictResult(api.verifyReceipt(new api.JsonText(rr), secret, c.call ?? doc.call,
        { inputCommitment: api.commitment(raw(node, 'own_input'), opts), outputCommitment: api.commitment(raw(node, 'own_result'), opts) }), names)),
      expected);
  }
  // Receipts issued from the call answered: the digest of the receipt, or the refusal's code.
  for (const node of get(get(root, 'issue'), 'cases').items) {
    const c = plain(node);
    const options = { issuedAt: c.issued_at, inputSalt: c.input_salt, outputSalt: c.output_salt };
    if (c.key_id !== undefined) options.keyId = c.key_id;
    if (c.receipt_id !== undefined) options.receiptId = c.receipt_id;
    ctx.record(`issue: ${c.name}`, { op: 'none' },
      ctx.attempt(() => api.receiptDigest(api.issueMacReceipt(raw(node, 'call'), raw(node, 'input'), raw(node, 'output'),
        c.status, c.rel_ver_at_admission, c.dsc_ver, c.secret, options))),
      c.error ? `err:${c.error}` : `ok:${api.receiptDigest(new api.JsonText(get(node, 'expected').raw))}`);
  }
}

// ---- endpoint proofs v1/v2, enrollment authority, ekl_verify, no downgrade (§3.1, §4, §15.2) ----
function endpointProof(ctx, root) {
  const { api } = ctx;
  const d = plain(root);
  ctx.record('proof_key', { op: 'none' }, ctx.attempt(() => api.proofKey(d.agent_key)), `ok:${d.proof_key}`);
  ctx.record('agent_key_sha256', { op: 'none' }, ctx.attempt(() => api.sha256Hex(d.agent_key)), `ok:${d.agent_key_sha256}`);
  for (const c of d.challenges) {
    ctx.record(`challenge: ${c.name} (v1)`, { op: 'none' }, ctx.attempt(() => api.challengeProofV1(d.agent_key, c.challenge, c.endpoint)), `ok:${c.proof}`);
    ctx.record(`challenge: ${c.name} (v2)`, { op: 'none' }, ctx.attempt(() => api.challengeProofV2(d.proof_key, c.challenge, c.endpoint)), `ok:${c.proof_v2}`);
  }
  for (const e of d.enroll) {
    ctx.record(`enroll: ${e.name} (v1)`, { op: 'none' }, ctx.attempt(() => api.enrollAuthorityV1(d.agent_key, e.enrollment_id, e.nonce, e.endpoint)), `ok:${e.authority_v1}`);
    ctx.record(`enroll: ${e.name} (v2)`, { op: 'none' }, ctx.attempt(() => api.enrollAuthorityV2(d.proof_key, e.enrollment_id, e.nonce, e.endpoint)), `ok:${e.authority_v2}`);
  }
  for (const v of d.verify_signature) {
    ctx.record(`verify_signature: ${v.name}`, { op: 'none' }, ctx.attempt(() => api.verifySignature(v.registration_secret, v.agent_id, v.enrollment_id, v.challenge)), `ok:${v.signature}`);
    ctx.record(`verify_signature: ${v.name} (check)`, { op: 'none' }, ctx.attempt(() => api.checkVerifySignature(v.registration_secret, v.agent_id, v.enrollment_id, v.challenge, v.signature)), 'ok:true');
  }
  const ch = d.challenges[0];
  for (const n of d.downgrade.network) {
    const holds = n.holds === 'proof_key' ? { proofKey: d.proof_key } : { credentialHash: d.agent_key_sha256 };
    ctx.record(`downgrade network: ${n.name}`, { op: 'none' },
      ctx.attempt(() => api.verifyChallengeProof(ch.challenge, ch.endpoint, { ...holds, proof: n.proof, proofV2: n.proof_v2 })),
      /^v[12]$/.test(n.expected) ? `ok:${n.expected}` : `err:${n.expected}`);
  }
  const en = d.enroll[0];
  for (const a of d.downgrade.agent) {
    ctx.record(`downgrade agent: ${a.name}`, { op: 'none' },
      ctx.attempt(() => api.verifyEnrollAuthority(a.announced, d.agent_key, en.enrollment_id, en.nonce, en.endpoint, { authority: a.authority, authorityVersion: a.authority_version })),
      /^v[12]$/.test(a.expected) ? `ok:${a.expected}` : `err:${a.expected}`);
  }
}

// ---- network-signed receipts (§9.5.1): compact JWS and receipt objects ----
function receiptJws(ctx, root) {
  const { api } = ctx;
  const doc = plain(root);
  const jwks = new api.Jwks(new api.JsonText(get(root, 'jwks').raw));
  for (const node of get(root, 'cases').items) {
    const c = plain(node);
    const call = { ...doc.call, ...(c.call || {}) };
    const e = c.expected;
    const expected = e.error ? `err:${e.error}` : `ok:accepted=${e.accepted} checks=[${Object.entries(e.checks).map(([k, v]) => `${k}=${v}`).sort()}] digest=${e.receipt_digest}`;
    ctx.record(`case: ${c.name}`, { op: 'none' }, ctx.attempt(() => {
      const v = c.receipt !== undefined
        ? api.verifySignedReceipt(new api.JsonText(get(node, 'receipt').raw), jwks, call)
        : api.verifyReceiptJws(c.receipt_jws, jwks, call);
      return `accepted=${v.accepted} checks=[${v.checks.map((x) => `${x.name}=${x.outcome}`).sort()}] digest=${v.receipt_digest}`;
    }), expected);
  }
}

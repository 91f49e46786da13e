// The operations of the conformance protocol (docs/conformance-protocol.md) over the JS API shared
// by the Node package `ekl-evidence` and the wasm package `ekl-wasm`. No Node built-ins: the same file
// runs in a browser page (tools/cross-surface/chromium_adapter.mjs).

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const text = (bytes) => decoder.decode(bytes);

/** The JS value a description stands for (the protocol's canonicalize_host). */
function host(d) {
  if (d === null || typeof d === 'boolean' || typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map(host);
  if ('$num' in d) return Number(d.$num);
  if ('$int' in d) return BigInt(d.$int);
  if ('$str' in d) return String.fromCharCode(...d.$str);
  if ('$obj' in d) return Object.fromEntries(d.$obj.map(([k, v]) => [typeof k === 'string' ? k : host(k), host(v)]));
  throw new Error('BAD_REQUEST: bad description');
}

/** An operation the package does not have. */
class Unsupported extends Error {}

/**
 * `answer(request object) -> answer object` for the package `ekl`. `optionsProto`, when given, is
 * the prototype of every options object the adapter passes (Object.create(optionsProto)): its
 * members must change nothing (options are read as own properties only).
 */
export function makeAnswer(ekl, { optionsProto } = {}) {
  // The JSON text of a request member: `name` (a string) or `name_hex` (bytes).
  const raw = (r, name) => {
    if (typeof r[name] === 'string') return r[name];
    if (typeof r[`${name}_hex`] === 'string') return hexBytes(r[`${name}_hex`]);
    throw new Error(`BAD_REQUEST: no ${name}`);
  };
  const json = (r, name) => new ekl.JsonText(raw(r, name));

  // `call` (docs/conformance-protocol.md#call): any operation of the registry, dispatched from the
  // package's own manifest: required parameters positional, optional ones in the options object.
  const MANIFEST = new Map(ekl.operations().map((op) => [op.name, op]));
  // The handle forms (docs/conformance-protocol.md#handles) build a Jwks or a SigningKey first.
  const argument = (kind, v) => {
    if (kind === 'jwks' && v !== null && typeof v === 'object') {
      return '$jwks' in v ? new ekl.Jwks(new ekl.JsonText(v.$jwks)) : new ekl.Jwks(JSON.parse(v.$jwks_value));
    }
    if (kind === 'value' || kind === 'jwks') return new ekl.JsonText(v);
    if (kind === 'key') {
      if ('jwk' in v) return ekl.signingKeyFromJwk(new ekl.JsonText(v.jwk));
      if ('pem' in v) return ekl.signingKeyFromPem(v.pem, v.kid);
      return ekl.signingKey(v.seed, v.kid);
    }
    return v;
  };
  // The async variants of the package, by operation (a `call` with "async": true).
  const ASYNC = { canonicalize: 'canonicalizeAsync', canonicalize_value: 'canonicalizeValueAsync', verify_receipts: 'verifyReceiptsAsync' };
  const wireOf = (v) => ({ accepted: v.accepted, checks: v.checks, receipt_digest: v.receipt_digest ?? null });
  const wire = (returns, result) => {
    if (returns === 'Verdict') result = wireOf(result);
    else if (returns === 'Verdicts') result = result.map((r) => (ekl.isEklError(r) ? { error: { code: r.code, message: r.detail ?? r.message.replace(/^[A-Z0-9_]+: /, '') } } : wireOf(r)));
    else if (returns === 'Jwks') result = result.toJSON();
    else if (returns === 'KeySet') result = result.jwks.toJSON();
    else if (returns === 'SigningKey') result = ekl.publicJwk(result);
    else if (returns === 'bytes') result = text(result);
    return text(ekl.canonicalizeValue(result));
  };
  const call = (r) => {
    const op = MANIFEST.get(r.name);
    if (!op) return undefined;
    const args = r.args ?? {};
    for (const k of Object.keys(args)) {
      if (!op.params.some((p) => p.name === k)) throw new ekl.EklError('INVALID_ARGUMENT', 'unknown argument');
    }
    const own = (name) => (Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined);
    const positional = [];
    const options = optionsProto === undefined ? {} : Object.create(optionsProto);
    for (const p of op.params) {
      const v = own(p.name) ?? null;
      const a = v === null ? null : argument(p.kind, v);
      if (p.required) positional.push(a);
      else if (a !== null) options[p.js] = a;
    }
    const f = op.class ? (...a) => new ekl[op.js](...a) : r.async === true && ASYNC[op.name] ? ekl[ASYNC[op.name]] : ekl[op.js];
    const hasOptions = op.params.some((p) => !p.required);
    const result = hasOptions ? f(...positional, options) : f(...positional);
    return result instanceof Promise ? result.then((x) => wire(op.returns, x)) : wire(op.returns, result);
  };

  // `host` (docs/conformance-protocol.md#host): the package's host-only helpers
  // (docs/host-apis.json); where this package has none, its registry twin.
  const HOST = {
    jwks_kids: (a) => (typeof a.jwks === 'string' ? new ekl.Jwks(new ekl.JsonText(a.jwks)) : argument('jwks', a.jwks)).kids,
    signing_key_kid: (a) => argument('key', a.key).kid,
    signing_key_public_jwks: (a) => new ekl.Jwks({ keys: [ekl.publicJwk(argument('key', a.key))] }).toJSON(),
    canonicalize_many: (a) => a.texts.map((t) => text(ekl.canonicalize(t, { maxBytes: a.max_bytes ?? null }))),
    error_codes: () => ekl.errorCodes(),
    core_version: () => ekl.coreVersion(),
  };

  const OPS = {
    host: (r) => {
      const f = HOST[r.name];
      if (!f) throw new Unsupported();
      return text(ekl.canonicalizeValue(f(r.args ?? {})));
    },
    call: (r) => {
      const out = call(r);
      if (out === undefined) throw new Unsupported();
      return out;
    },
    canonicalize: (r) => text(ekl.canonicalize(raw(r, 'input'), { maxBytes: r.max_bytes ?? null })),
    digest: (r) => ekl.sha256Hex(ekl.canonicalize(raw(r, 'input'))),
    sha256: (r) => {
      const input = raw(r, 'input');
      return ekl.sha256Hex(typeof input === 'string' ? new TextEncoder().encode(input) : input);
    },
    commitment: (r) =>
      text(ekl.canonicalizeValue(ekl.commitment(json(r, 'input'), { salt: r.salt ?? null, saltId: r.salt_id ?? null }))),
    fingerprint: (r) => ekl.fingerprint(r.salt, json(r, 'input')),
    output_fingerprint: (r) => ekl.outputFingerprint(r.salt, json(r, 'input')),
    upstream_fingerprint: (r) => ekl.upstreamFingerprint(json(r, 'input'), { offered: r.offered ?? null }),
    proof_key: (r) => ekl.proofKey(r.agent_key),
    challenge_proof_v1: (r) => ekl.challengeProofV1(r.credential, r.challenge, r.endpoint),
    challenge_proof_v2: (r) => ekl.challengeProofV2(ekl.proofKey(r.agent_key), r.challenge, r.endpoint),
    enroll_authority_v1: (r) => ekl.enrollAuthorityV1(r.agent_key, r.enrollment_id, r.nonce, r.endpoint),
    enroll_authority_v2: (r) => ekl.enrollAuthorityV2(ekl.proofKey(r.agent_key), r.enrollment_id, r.nonce, r.endpoint),
    verify_signature: (r) => ekl.verifySignature(r.secret, r.agent_id, r.enrollment_id, r.challenge),
    verify_challenge_proof: (r) =>
      ekl.verifyChallengeProof(r.challenge, r.endpoint, {
        proof: r.proof ?? null,
        proofV2: r.proof_v2 ?? null,
        proofKey: r.proof_key ?? null,
        credentialHash: r.proof_key != null ? null : (r.credential_hash ?? null),
      }),
    receipt_auth_tag: (r) => ekl.authTag(json(r, 'input'), r.secret),
    receipt_digest: (r) => ekl.receiptDigest(json(r, 'input')),
    jws_verify: (r) => {
      const v = ekl.verifyJws(r.token, r.typ, new ekl.Jwks(new ekl.JsonText(r.jwks)), {
        now: r.now,
        issuer: r.iss ?? null,
        audience: r.aud ?? null,
        requireExp: r.require_exp ?? null,
      });
      return text(ekl.canonicalizeValue(v.claims));
    },
    canonicalize_host: (r) => text(ekl.canonicalizeValue(host(r.value))),
    screen: (r) => {
      const rules = r.rules !== undefined || r.rules_hex !== undefined ? json(r, 'rules') : null;
      return text(ekl.canonicalizeValue(ekl.screen(json(r, 'input'), { rules })));
    },
  };
  const refusal = (req, e) => {
    if (e instanceof Unsupported) return { id: req.id, error: 'UNSUPPORTED_OP' };
    if (ekl.isEklError(e)) return { id: req.id, error: e.code };
    return { id: req.id, error: `ADAPTER_ERROR: ${e && e.message}` };
  };
  /** The answer object, or a promise of it (an async variant). */
  return function answer(req) {
    const op = OPS[req.op];
    if (!op) return { id: req.id, error: 'UNSUPPORTED_OP' };
    try {
      const ok = op(req);
      if (ok instanceof Promise) return ok.then((x) => ({ id: req.id, ok: x }), (e) => refusal(req, e));
      return { id: req.id, ok };
    } catch (e) {
      return refusal(req, e);
    }
  };
}

/** A JSON.parse reviver that makes every object of a request null-prototype (own members only). */
export const nullPrototypes = (_k, v) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.assign(Object.create(null), v) : v;

/**
 * Hostile values for every option name of every operation (`Object.prototype` polluted with them
 * must change no answer): each would change the result, or refuse the call, if it were read.
 */
export function hostileOptions(ekl) {
  const attacker = ekl.jwksFromSeed('ff'.repeat(32), ['attacker']).jwks.toJSON();
  const byKind = {
    str: 'polluted',
    int: 1,
    now: 1,
    bool: false,
    jwks: new ekl.JsonText(JSON.stringify(attacker)),
    value: new ekl.JsonText('"polluted"'),
    str_list: ['polluted'],
    salt: '5a'.repeat(32),
  };
  const out = {};
  for (const op of ekl.operations()) {
    for (const p of op.params) if (!p.required && p.kind in byKind) out[p.js] = byKind[p.kind];
  }
  // RemoteJwks's options too.
  Object.assign(out, { timeoutMs: -1, maxBytes: -1, cooldown: NaN, defaultMaxAge: -1, maxStale: -1, clock: 1, fetch: 1 });
  return out;
}

/**
 * Answers one request line (text) with `answer`, as an answer line without the newline (or a
 * promise of it, for a request through an async variant: write answers in request order).
 * `reviver` is JSON.parse's (nullPrototypes where Object.prototype is polluted).
 */
export function answerLine(answer, line, reviver) {
  let req;
  try {
    req = JSON.parse(line, reviver);
  } catch {
    return JSON.stringify({ id: null, error: 'BAD_REQUEST' });
  }
  const a = answer(req);
  return a instanceof Promise ? a.then((x) => JSON.stringify(x)) : JSON.stringify(a);
}

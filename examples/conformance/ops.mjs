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
 * `answer(request object) -> answer object` for the package `ekl`. `legacy` is the table of the
 * legacy operations (examples/conformance/legacy-ops.json, parsed). `optionsProto`, when given, is
 * the prototype of every options object the adapter passes (Object.create(optionsProto)): its
 * members must change nothing (options are read as own properties only).
 */
export function makeAnswer(ekl, { legacy, optionsProto } = {}) {
  // `call` (docs/conformance-protocol.md#call): any operation of the registry, dispatched from the
  // package's own manifest: required parameters positional, optional ones in the options object.
  const MANIFEST = new Map(ekl.operations().map((op) => [op.name, op]));
  // A method row's `self` (docs/decisions/handles.md) is described as {new: ARGS, then: [[METHOD,
  // ARGS], ...]}: the class's constructor, then each method in turn (its refusals are its next
  // state too). The class's constructor row is the one named as the class returns.
  const CLASSES = new Map([...MANIFEST.values()].filter((op) => op.class && op.returns === op.js).map((op) => [op.js, op]));
  const handle = (cls, v) => {
    const ctor = CLASSES.get(cls);
    const obj = invoke(ctor, (p) => byKind(p, own(v.new ?? {}, p.name) ?? null), (...a) => new ekl[cls](...a));
    for (const [method, args] of v.then ?? []) {
      const op = MANIFEST.get(`${ctor.name}_${method}`);
      if (!op || op.method_of !== cls) throw new ekl.EklError('INVALID_ARGUMENT', 'no such method');
      try {
        invoke(op, (p) => byKind(p, own(args, p.name) ?? null), (...a) => obj[op.js](...a));
      } catch (e) {
        if (!ekl.isEklError(e)) throw e;
      }
    }
    return obj;
  };
  const byKind = (p, v) => (v === null ? null : p.kind === 'handle' ? handle(p.handle, v) : argument(p.kind, v));
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
    else if (CLASSES.has(returns)) result = returns; // a new handle: its class name
    return text(ekl.canonicalizeValue(result));
  };
  // A member of a request object that is its own (never one of a polluted prototype's).
  const own = (o, name) => (Object.prototype.hasOwnProperty.call(o, name) ? o[name] : undefined);
  // Calls `f` (the operation `op` of the package) with `arg(p)` for each parameter (null: left
  // out): required ones positional, optional ones in the options object.
  const invoke = (op, arg, f = ekl[op.js]) => {
    const positional = [];
    const options = optionsProto === undefined ? {} : Object.create(optionsProto);
    const params = op.params.filter((p) => p.kind !== 'handle'); // a method's self is bound in f
    for (const p of params) {
      const a = arg(p);
      if (p.required) positional.push(a);
      else if (a !== null) options[p.js] = a;
    }
    return params.some((p) => !p.required) ? f(...positional, options) : f(...positional);
  };
  const call = (r) => {
    const op = MANIFEST.get(r.name);
    if (!op) return undefined;
    const args = r.args ?? {};
    for (const k of Object.keys(args)) {
      if (!op.params.some((p) => p.name === k)) throw new ekl.EklError('INVALID_ARGUMENT', 'unknown argument');
    }
    let f = op.class ? (...a) => new ekl[op.js](...a) : r.async === true && ASYNC[op.name] ? ekl[ASYNC[op.name]] : ekl[op.js];
    if (op.method_of) {
      const obj = handle(op.method_of, own(args, 'self'));
      f = (...a) => obj[op.js](...a);
    }
    const result = invoke(op, (p) => byKind(p, own(args, p.name) ?? null), f);
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

  // The legacy operations: calls of the registry, as the table says (legacy-ops.json).
  const fromRequest = (r, spec, kind) => {
    if (typeof spec === 'object') return legacyCall(r, spec);
    const hex = own(r, `${spec}_hex`);
    const v = own(r, spec) ?? (typeof hex === 'string' ? hexBytes(hex) : null);
    return v === null ? null : argument(kind, v);
  };
  const legacyCall = (r, spec) =>
    invoke(MANIFEST.get(spec.call), (p) => (spec.args[p.name] === undefined ? null : fromRequest(r, spec.args[p.name], p.kind)));
  const legacyAnswer = (spec) => (r) => {
    let out = legacyCall(r, spec);
    if (spec.pick) out = out[spec.pick];
    if (typeof out === 'string') return out;
    return text(out instanceof Uint8Array ? out : ekl.canonicalizeValue(out));
  };

  const OPS = {
    ...Object.fromEntries(Object.entries(legacy.ops).map(([name, spec]) => [name, legacyAnswer(spec)])),
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
    canonicalize_host: (r) => text(ekl.canonicalizeValue(host(r.value))),
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

#!/usr/bin/env node
// Independent re-check of vectors/receipt-jws.json, vectors/screening-rules-jws.json and
// vectors/credentials-jws.json.
// Uses only Node's standard library (node:crypto = OpenSSL), none of our Rust code: strict
// base64url, a duplicate-detecting JSON reader, JCS for the receipt object's signature, ES256 with
// ieee-p1363 signatures, and every check re-derived from the protocol text (PROTOCOL §9.5.1, §15.5;
// the credentials of §3, §4, §9.1, §9.2, §9.3.1, §15.1 with the decisions of docs/decisions.md#jws
// 10 and 12, written out again below).
// It also re-derives the key set from the seed (HMAC-SHA256(seed, "ekl-jwks-seed" 0 kid 0 i)).
// Usage: node vectors/check/check_jws.mjs [vectors-dir]   (exit status 1 on any difference)
import { createHash, createHmac, createPublicKey, createECDH, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
let failures = 0;
let checked = 0;
const fail = (msg) => { failures++; console.error('FAIL ' + msg); };

// ---------- strict base64url ----------
class Refusal extends Error { constructor(code) { super(code); this.code = code; } }
function b64(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Refusal('INVALID_BASE64URL');
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw new Refusal('INVALID_BASE64URL'); // stray bits
  return bytes;
}

// ---------- JSON with duplicate detection (syntax by JSON.parse, duplicates by a scan) ----------
function parseStrict(bytes, badCode) {
  const text = bytes.toString('utf8');
  let value;
  try { value = JSON.parse(text); } catch { throw new Refusal(badCode); }
  // Scan object keys with a small tokenizer; JSON.parse already proved the syntax.
  const stack = [];
  let i = 0;
  const readString = () => { // at '"', returns decoded string
    let j = i + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    const s = JSON.parse(text.slice(i, j + 1));
    i = j + 1;
    return s;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '{') { stack.push({ keys: new Set(), expectKey: true }); i++; }
    else if (c === '[') { stack.push(null); i++; }
    else if (c === '}' || c === ']') { stack.pop(); i++; }
    else if (c === ',') { const top = stack[stack.length - 1]; if (top) top.expectKey = true; i++; }
    else if (c === '"') {
      const top = stack[stack.length - 1];
      const s = readString();
      if (top && top.expectKey) {
        if (top.keys.has(s)) throw new Refusal('DUPLICATE_KEY');
        top.keys.add(s); top.expectKey = false;
      }
    } else i++;
  }
  return value;
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------- JCS (RFC 8785) for strings, integers, booleans, null, arrays, objects ----------
function jcs(v) {
  if (Array.isArray(v)) return '[' + v.map(jcs).join(',') + ']';
  if (isObject(v)) {
    return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + jcs(v[k])).join(',') + '}';
  }
  return JSON.stringify(v); // numbers as ECMAScript writes them, strings escaped as JCS does
}
const sha256hex = (data) => createHash('sha256').update(data).digest('hex');
const without = (o, names) => Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));

// ---------- keys ----------
function loadJwks(doc) {
  const keys = new Map();
  for (const k of doc.jwks.keys) {
    if (k.kty !== 'EC' || k.crv !== 'P-256' || 'd' in k) fail('jwks: key shape');
    if (b64(k.x).length !== 32 || b64(k.y).length !== 32) fail('jwks: coordinate length');
    keys.set(k.kid, createPublicKey({ key: k, format: 'jwk' }));
  }
  // Re-derive every key from the seed and compare the public points.
  const seed = Buffer.from(doc.key_seed_hex, 'hex');
  const n = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');
  for (const k of doc.jwks.keys) {
    let d;
    for (let i = 0; i < 256; i++) {
      const h = createHmac('sha256', seed).update('ekl-jwks-seed').update(Buffer.from([0]))
        .update(k.kid).update(Buffer.from([0, i])).digest();
      const v = BigInt('0x' + h.toString('hex'));
      if (v >= 1n && v < n) { d = h; break; }
    }
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(d);
    const pub = ecdh.getPublicKey();
    if (pub.subarray(1, 33).toString('base64url') !== k.x || pub.subarray(33).toString('base64url') !== k.y) {
      fail(`jwks: ${k.kid} is not the key derived from the seed`);
    }
  }
  return keys;
}
function es256(key, data, sig) {
  if (!key || sig.length !== 64) return false;
  try { return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig); } catch { return false; }
}

// ---------- time ----------
const MAX_TIME = 2 ** 53;
const isTime = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_TIME;
function rfc3339Seconds(s) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const t = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) return null;
  return Math.floor(t / 1000);
}

// ---------- receipts (§9.5.1) ----------
function decodeToken(token) {
  const segs = token.split('.');
  if (segs.length !== 3) throw new Refusal('JWS_MALFORMED');
  const [h, p, s] = segs.map(b64);
  const header = parseStrict(h, 'JWS_MALFORMED');
  if (!isObject(header)) throw new Refusal('JWS_MALFORMED');
  return { header, payload: p, sig: s, input: Buffer.from(segs[0] + '.' + segs[1], 'ascii') };
}

function receiptJwsChecks(token, keys, call) {
  const { header, payload, sig, input } = decodeToken(token);
  const claims = parseStrict(payload, 'JWS_MALFORMED');
  if (!isObject(claims)) throw new Refusal('JWS_MALFORMED');
  const checks = {};
  checks.alg_typ = header.alg === 'ES256' && !('crit' in header) && header.typ === 'ekl-receipt+jwt' ? 'pass' : 'fail';
  if (typeof header.kid !== 'string' || header.kid === '') checks.signature = 'fail';
  else if (!keys.has(header.kid)) throw new Refusal('UNKNOWN_KID');
  else checks.signature = es256(keys.get(header.kid), input, sig) ? 'pass' : 'fail';
  checks.iss = claims.iss === call.network_issuer ? 'pass' : 'fail';
  const aud = claims.aud;
  checks.aud = aud === call.own_agent_id || (Array.isArray(aud) && aud.length === 1 && aud[0] === call.own_agent_id) ? 'pass' : 'fail';
  for (const f of ['execution_id', 'provider_agent_id', 'requester_agent_id', 'capability_id']) {
    checks[f] = claims[f] === call[f] ? 'pass' : 'fail';
  }
  const fp = claims.input_fingerprint;
  checks.input_fingerprint = fp === call.input_fingerprint ? 'pass' : typeof fp === 'string' ? 'mismatch' : 'fail';
  const iat = claims.iat;
  const issued = typeof claims.issued_at === 'string' ? rfc3339Seconds(claims.issued_at) : null;
  checks.iat_matches_issued_at = isTime(iat) && issued !== null && issued === iat ? 'pass' : 'fail';
  checks.iat_in_call_window = isTime(iat) && call.sent_at - 60 <= iat && iat <= call.received_at + 60 ? 'pass' : 'fail';
  return { checks, claims };
}

function receiptCase(doc, keys, c) {
  const call = { ...doc.call, ...(c.call ?? {}) };
  try {
    let checks;
    let token;
    if (c.receipt) {
      const r = c.receipt;
      token = r.receipt_jws;
      checks = {};
      const key = keys.get(r.key_id);
      if (typeof r.key_id === 'string' && !key) throw new Refusal('UNKNOWN_KID');
      let sig;
      try { sig = b64(r.signature); } catch { sig = Buffer.alloc(0); }
      checks.object_signature = es256(key, Buffer.from(jcs(without(r, ['signature', 'receipt_jws'])), 'utf8'), sig) ? 'pass' : 'fail';
      const jwsPart = receiptJwsChecks(token, keys, call);
      Object.assign(checks, jwsPart.checks);
      checks.object_matches_jws =
        jcs(without(r, ['key_id', 'signature', 'receipt_jws'])) === jcs(without(jwsPart.claims, ['iss', 'aud', 'iat'])) ? 'pass' : 'fail';
    } else {
      token = c.receipt_jws;
      checks = receiptJwsChecks(token, keys, call).checks;
    }
    return {
      accepted: Object.values(checks).every((v) => v === 'pass'),
      checks,
      receipt_digest: sha256hex(Buffer.from(token, 'ascii')),
    };
  } catch (e) {
    if (e instanceof Refusal) return { error: e.code };
    throw e;
  }
}

// ---------- screening rules (§15.5) ----------
function screeningCase(doc, keys, c) {
  try {
    const { header, payload, sig, input } = decodeToken(c.token);
    if (header.alg !== 'ES256') throw new Refusal('ALG_NOT_ALLOWED');
    if ('crit' in header) throw new Refusal('CRIT_NOT_SUPPORTED');
    if (header.typ !== 'ekl-screening-rules+jwt') throw new Refusal('TYP_MISMATCH');
    if (typeof header.kid !== 'string' || header.kid === '') throw new Refusal('KID_MISSING');
    if (!keys.has(header.kid)) throw new Refusal('UNKNOWN_KID');
    if (!es256(keys.get(header.kid), input, sig)) throw new Refusal('SIGNATURE_INVALID');
    const claims = parseStrict(payload, 'JWS_MALFORMED');
    if (!isObject(claims)) throw new Refusal('JWS_MALFORMED');
    if (!('iss' in claims)) throw new Refusal('CLAIM_MISSING');
    if (typeof claims.iss !== 'string' || claims.iss === '') throw new Refusal('CLAIM_INVALID');
    if (claims.iss !== doc.network_issuer) throw new Refusal('ISSUER_MISMATCH');
    for (const t of ['iat', 'exp', 'nbf']) if (t in claims && !isTime(claims[t])) throw new Refusal('CLAIM_INVALID');
    if (!('iat' in claims) || !('exp' in claims)) throw new Refusal('CLAIM_MISSING');
    const { iat, exp } = claims;
    const now = c.now;
    if (now >= exp + 60) throw new Refusal('TOKEN_EXPIRED');
    if ('nbf' in claims && claims.nbf > now + 60) throw new Refusal('TOKEN_NOT_YET_VALID');
    if (iat > now + 60) throw new Refusal('TOKEN_NOT_YET_VALID');
    if (exp < iat) throw new Refusal('CLAIM_INVALID');
    if (now >= exp) throw new Refusal('TOKEN_EXPIRED'); // never used after exp, no skew
    // The rule set (§15.5), as the scanner validates it: both present, then their shape.
    if (!('rules_version' in claims) || !('rules' in claims)) throw new Refusal('CLAIM_MISSING');
    const nonEmpty = (s) => typeof s === 'string' && s !== '';
    if (!nonEmpty(claims.rules_version) || claims.rules_version === 'local') throw new Refusal('CLAIM_INVALID');
    if (!Array.isArray(claims.rules)) throw new Refusal('CLAIM_INVALID');
    const ids = new Set();
    for (const r of claims.rules) {
      if (!isObject(r) || !nonEmpty(r.rule_id) || !nonEmpty(r.category) || ids.has(r.rule_id)) throw new Refusal('CLAIM_INVALID');
      ids.add(r.rule_id);
      // (The scanner refuses a phrase that is empty after NFKC + case folding; NFKC + lower case
      // approximates that here, enough for these vectors.)
      if (!Array.isArray(r.phrases) || r.phrases.length === 0 ||
          !r.phrases.every((p) => typeof p === 'string' && p.normalize('NFKC').toLowerCase() !== '')) {
        throw new Refusal('CLAIM_INVALID');
      }
    }
    return { iss: claims.iss, iat, exp, rules_version: claims.rules_version, rules: claims.rules };
  } catch (e) {
    if (e instanceof Refusal) return { error: e.code };
    throw e;
  }
}

// ---------- per-type credentials (§3, §4, §9.1, §9.2, §9.3.1, §15.1) ----------
// Each operation's typ, expected aud (from the case's args), lifetime bound, whether exp is
// required, the claims it requires and the members its result adds to the verified token. Written
// here from the protocol and docs/decisions.md#jws, not read from the file: the file's own `rules`
// table must agree with it.
const CREDENTIALS = {
  verify_relationship_assertion: {
    typ: 'ekl-relationship+jwt', aud: (a) => a.token_endpoint, maxLifetime: 120, requireExp: true,
    required: ['iss', 'aud', 'iat', 'exp', 'sub', 'jti', 'org', 'auth_profile', 'con', 'rel_ver', 'dsc_ver', 'caps'],
    result: ['iss', 'iat', 'exp', 'sub', 'aud', 'jti', 'org', 'con', 'rel_ver', 'dsc_ver', 'caps'],
  },
  verify_platform_call: {
    typ: 'ekl-platform-call+jwt', aud: (a) => a.audience ?? null, maxLifetime: 60, requireExp: true,
    required: ['iss', 'iat', 'exp', 'jti', 'purpose'],
    result: ['iss', 'iat', 'exp', 'jti', 'purpose'],
  },
  verify_revocation_feed: {
    typ: 'ekl-revocation-feed+jwt', aud: (a) => a.provider_agent_id, maxLifetime: null, requireExp: false,
    required: ['iss', 'aud', 'iat'],
    result: ['iss', 'iat', 'exp'],
  },
  verify_access_token: {
    typ: 'ekl-access+jwt', aud: (a) => `ekl:agent:${a.provider_id}`, maxLifetime: 900, requireExp: true,
    required: ['iss', 'aud', 'iat', 'exp'],
    result: ['iss', 'iat', 'exp'],
  },
};
const PURPOSES = ['enroll', 'validation', 'revalidation', 'deliver'];
const SKEW = 60;

function checkCredentialRules(doc) {
  const ops = Object.keys(CREDENTIALS).sort();
  if (jcs(Object.keys(doc.rules ?? {}).sort()) !== jcs(ops)) fail('credentials-jws.json: rules names other operations');
  for (const op of ops) {
    const mine = CREDENTIALS[op];
    const theirs = doc.rules?.[op] ?? {};
    for (const [k, v] of [['typ', mine.typ], ['max_lifetime', mine.maxLifetime], ['required', mine.required], ['result', mine.result]]) {
      if (jcs(theirs[k]) !== jcs(v)) fail(`credentials-jws.json: rules.${op}.${k} is ${jcs(theirs[k])}, expected ${jcs(v)}`);
    }
  }
}

function credentialCase(doc, keys, c) {
  try {
    const rule = CREDENTIALS[c.op];
    if (!rule) throw new Error(`unknown op ${c.op}`);
    const args = c.args;
    // The caller's expected purpose is an argument: checked before the token is read.
    if (c.op === 'verify_platform_call' && !PURPOSES.includes(args.purpose)) throw new Refusal('INVALID_ARGUMENT');
    const { header, payload, sig, input } = decodeToken(c.token);
    if (header.alg !== 'ES256') throw new Refusal('ALG_NOT_ALLOWED');
    if ('crit' in header) throw new Refusal('CRIT_NOT_SUPPORTED');
    if (header.typ !== rule.typ) throw new Refusal('TYP_MISMATCH');
    if (typeof header.kid !== 'string' || header.kid === '') throw new Refusal('KID_MISSING');
    if (!keys.has(header.kid)) throw new Refusal('UNKNOWN_KID');
    if (!es256(keys.get(header.kid), input, sig)) throw new Refusal('SIGNATURE_INVALID');
    const claims = parseStrict(payload, 'JWS_MALFORMED');
    if (!isObject(claims)) throw new Refusal('JWS_MALFORMED');
    const str = (name) => {
      if (!(name in claims)) throw new Refusal('CLAIM_MISSING');
      if (typeof claims[name] !== 'string' || claims[name] === '') throw new Refusal('CLAIM_INVALID');
      return claims[name];
    };
    // iss, then aud (exactly the expected string, or an array of exactly that one string).
    if (str('iss') !== doc.network_issuer) throw new Refusal('ISSUER_MISMATCH');
    const aud = rule.aud(args);
    if (aud !== null) {
      if (!('aud' in claims)) throw new Refusal('CLAIM_MISSING');
      const a = claims.aud;
      let ok;
      if (typeof a === 'string') ok = a === aud;
      else if (Array.isArray(a)) ok = a.length === 1 && a[0] === aud;
      else throw new Refusal('CLAIM_INVALID');
      if (!ok) throw new Refusal('AUDIENCE_MISMATCH');
    }
    // Time claims: integers in [0, 2^53]; iat required, exp unless a feed; 60 s skew.
    for (const t of ['iat', 'exp', 'nbf']) if (t in claims && !isTime(claims[t])) throw new Refusal('CLAIM_INVALID');
    if (!('iat' in claims)) throw new Refusal('CLAIM_MISSING');
    if (rule.requireExp && !('exp' in claims)) throw new Refusal('CLAIM_MISSING');
    const { iat, exp, nbf } = claims;
    const now = c.now;
    if (exp !== undefined && now >= exp + SKEW) throw new Refusal('TOKEN_EXPIRED');
    if (nbf !== undefined && nbf > now + SKEW) throw new Refusal('TOKEN_NOT_YET_VALID');
    if (iat > now + SKEW) throw new Refusal('TOKEN_NOT_YET_VALID');
    if (exp !== undefined && exp < iat) throw new Refusal('CLAIM_INVALID');
    if (rule.maxLifetime !== null && exp - iat > rule.maxLifetime) throw new Refusal('LIFETIME_TOO_LONG');
    const out = {
      claims, header, kid: header.kid, token_sha256: sha256hex(Buffer.from(c.token, 'ascii')), typ: rule.typ,
      iss: claims.iss, iat, exp: exp ?? null,
    };
    const isVersion = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_TIME) || (typeof v === 'string' && v !== '');
    const version = (name) => {
      if (!(name in claims)) throw new Refusal('CLAIM_MISSING');
      if (!isVersion(claims[name])) throw new Refusal('CLAIM_INVALID');
      return claims[name];
    };
    if (c.op === 'verify_relationship_assertion') {
      // §9.1: sub, jti, org, auth_profile (ekl-auth-1.1 only: refused rather than downgraded),
      // con, rel_ver, dsc_ver, caps[{id, ver}].
      out.sub = str('sub');
      out.jti = str('jti');
      out.org = str('org');
      if (str('auth_profile') !== 'ekl-auth-1.1') throw new Refusal('CLAIM_INVALID');
      out.con = str('con');
      out.rel_ver = version('rel_ver');
      out.dsc_ver = version('dsc_ver');
      if (!('caps' in claims)) throw new Refusal('CLAIM_MISSING');
      if (!Array.isArray(claims.caps) || claims.caps.length === 0) throw new Refusal('CLAIM_INVALID');
      out.caps = claims.caps.map((cap) => {
        const ok = isObject(cap) && typeof cap.id === 'string' && cap.id !== '' && 'ver' in cap && isVersion(cap.ver);
        if (!ok) throw new Refusal('CLAIM_INVALID');
        return { id: cap.id, ver: cap.ver };
      });
      out.aud = args.token_endpoint;
    } else if (c.op === 'verify_platform_call') {
      // §3, §4: single use (jti), and the purpose the tool accepts.
      out.jti = str('jti');
      const purpose = str('purpose');
      if (!PURPOSES.includes(purpose)) throw new Refusal('CLAIM_INVALID');
      if (purpose !== args.purpose) throw new Refusal('PURPOSE_MISMATCH');
      out.purpose = purpose;
    }
    return out;
  } catch (e) {
    if (e instanceof Refusal) return { error: e.code };
    throw e;
  }
}

// ---------- run ----------
function run(file, fn, checkDoc = () => {}) {
  const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const keys = loadJwks(doc);
  checkDoc(doc);
  for (const c of doc.cases) {
    checked++;
    const got = fn(doc, keys, c);
    if (jcs(got) !== jcs(c.expected)) fail(`${file} ${c.name}: expected ${jcs(c.expected)}, got ${jcs(got)}`);
  }
  console.log(`${file}: ${doc.cases.length} cases checked`);
}
run('receipt-jws.json', receiptCase);
run('screening-rules-jws.json', screeningCase);
run('credentials-jws.json', credentialCase, checkCredentialRules);
if (failures) { console.error(`${failures} of ${checked} cases differ`); process.exit(1); }
console.log(`all ${checked} cases agree (node ${process.versions.node}, OpenSSL ${process.versions.openssl})`);

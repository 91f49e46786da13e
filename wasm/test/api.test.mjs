// The wasm package's API in Node: every operation of docs/operations.json in every entry and in the
// TypeScript declarations, the error identity and codes, the conversion, known answers, text path =
// value path on a random corpus.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { dist, loadCjs, operations, ekl } from './helpers.mjs';

const api = loadCjs();
const SALT = '00112233445566778899aabbccddeeff'.repeat(2);
const text = (bytes) => new TextDecoder().decode(bytes);

test('every operation of docs/operations.json is in the CommonJS, ESM and TypeScript surfaces', async () => {
  const esm = await import(join(dist, 'index.node.mjs'));
  const dts = readFileSync(join(dist, 'index.d.ts'), 'utf8');
  const web = readFileSync(join(dist, 'index.web.mjs'), 'utf8');
  const missing = [];
  for (const { js, method_of: methodOf } of operations()) {
    if (methodOf) {
      // a method of a handle class (docs/decisions/handles.md)
      if (typeof api[methodOf].prototype[js] !== 'function') missing.push(`method: ${methodOf}.${js}`);
      continue;
    }
    if (typeof api[js] !== 'function') missing.push(`require: ${js}`);
    if (typeof esm[js] !== 'function') missing.push(`import: ${js}`);
    if (!new RegExp(`export declare (function ${js}[(<]|class ${js}\\b|const ${js}: \\{\\n  new\\b)`).test(dts)) missing.push(`index.d.ts: ${js}`);
    if (!new RegExp(`\\b${js}\\b`).test(web)) missing.push(`index.web.mjs: ${js}`);
  }
  assert.deepEqual(missing, []);
  // The ESM entries export exactly what the CommonJS entry has.
  const names = Object.keys(api).sort();
  assert.deepEqual(Object.keys(esm).filter((k) => k !== 'default').sort(), names);
  const webNames = /export const \{([^}]*)\}/.exec(web)[1].split(',').map((s) => s.trim()).filter(Boolean).sort();
  assert.deepEqual(webNames, names);
  assert.equal(esm.default, api, 'import and require share one instance');
  // The module binds the registry it was built from: the manifest it carries is the checked-in one.
  const glue = (await import('node:module')).createRequire(import.meta.url)(join(dist, 'node', 'ekl_wasm.js'));
  assert.equal(glue.operations(), readFileSync(join(dist, '..', '..', 'docs', 'operations.json'), 'utf8'));
});

test('the ErrorCode union of index.d.ts and errorCodes equal the Rust enum', () => {
  const dts = readFileSync(join(dist, 'index.d.ts'), 'utf8');
  const union = /export type EklErrorCode =([^;]*);/.exec(dts)[1].match(/'([A-Z0-9_]+)'/g).map((s) => s.slice(1, -1));
  const rust = spawnSync(ekl, ['error-codes']).stdout.toString().split('\n').filter(Boolean);
  assert.ok(rust.length > 10, 'the ekl CLI lists the codes');
  assert.deepEqual([...api.errorCodes()], rust, 'errorCodes (from the wasm module) = ekl error-codes');
  assert.deepEqual(union, rust, 'index.d.ts ErrorCode union = the Rust enum; update node/index.d.ts');
});

test('refusals are real Errors with name EklError and the core code', () => {
  const e = assert.throws(() => api.canonicalize('{"a":1,"\\u0061":2}'), (e) => {
    assert.ok(e instanceof Error);
    assert.ok(e instanceof api.EklError);
    assert.equal(e.name, 'EklError');
    assert.equal(e.code, 'DUPLICATE_KEY');
    assert.match(e.message, /^DUPLICATE_KEY: /);
    assert.ok(api.isEklError(e));
    return true;
  });
  assert.equal(e, undefined);
  assert.equal(api.isEklError(new Error('x')), false);
  const foreign = Object.assign(new Error('X: y'), { name: 'EklError', code: 'X' });
  assert.ok(api.isEklError(foreign), 'the guard accepts an EklError of another copy (the Node package)');
});

test('known answers', () => {
  assert.equal(text(api.canonicalize('{"b": 1.0, "a": [true, null, "\\u00e9"]}')), '{"a":[true,null,"é"],"b":1}');
  assert.equal(text(api.canonicalize(new TextEncoder().encode('[1e21, -0.0]'))), '[1e+21,0]');
  assert.equal(text(api.canonicalizeValue({ b: -0, a: [1.5, 'x'] })), '{"a":[1.5,"x"],"b":0}');
  const v = { min_beds: 3, area_ref: 'loc:ca:dublin' };
  assert.equal(api.fingerprint(SALT, v), '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c');
  assert.equal(api.fingerprint(SALT, new api.JsonText('{"area_ref":"loc:ca:dublin","min_beds":3}')),
    '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c');
  assert.equal(api.sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(api.sha256Hex(new Uint8Array([0x61, 0x62, 0x63])),
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const c = api.commitment({ a: 1 }, { salt: SALT, saltId: 's1' });
  assert.deepEqual(Object.keys(c), ['alg', 'canon', 'digest', 'salt', 'salt_id']);
  assert.equal(c.digest, spawnSync(ekl, ['commit', '--salt', SALT, '--salt-id', 's1', '-'], { input: '{"a":1}' })
    .stdout.toString().match(/"digest":"([0-9a-f]{64})"/)[1]);
  assert.equal(api.termsHash({ hash: 'x', b: 1 }), api.sha256Hex('{"b":1}'));
  assert.deepEqual(api.selectResultBody({ structuredContent: null, content: [{ type: 'text', text: 'x' }] }),
    { member: 'content', value: [{ text: 'x', type: 'text' }] });
  const pk = api.proofKey('agent-key');
  assert.match(pk, /^[0-9a-f]{64}$/);
  assert.match(api.challengeProofV2(pk, 'c', 'https://e'), /^[0-9a-f]{64}$/);
  assert.match(api.enrollAuthorityV2(pk, 'en', 'n', 'https://e'), /^[0-9a-f]{64}$/);
  assert.match(api.enrollAuthorityV1('agent-key', 'en', 'n', 'https://e'), /^[0-9a-f]{64}$/);
  const sig = api.verifySignature('secret', 'agent', 'en', 'ch');
  assert.equal(api.checkVerifySignature('secret', 'agent', 'en', 'ch', sig), true);
  assert.equal(api.checkVerifySignature('secret', 'agent', 'en', 'ch2', sig), false);
});

test('time members of issuing values take a Date, as in the Node package (docs/decisions.md#times)', () => {
  const { keys: [key] } = api.jwksFromSeed('42'.repeat(32), ['net-1']);
  const secs = { iss: 'https://n.example', iat: 1780000000, exp: 1780000060 };
  const dated = { iss: 'https://n.example', iat: new Date(1780000000500), exp: new Date(1780000060000) };
  assert.equal(api.signJws('ekl-access+jwt', dated, key), api.signJws('ekl-access+jwt', secs, key));
  assert.throws(() => api.signJws('ekl-access+jwt', { iat: new Date(NaN) }, key), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => api.signJws('ekl-access+jwt', { iat: 1, other: new Date() }, key), { code: 'UNSUPPORTED_TYPE' });
  // undefined members are absent, undefined elements refused (the shared conversion)
  assert.equal(api.signJws('ekl-access+jwt', { ...secs, nbf: undefined }, key), api.signJws('ekl-access+jwt', secs, key));
  assert.throws(() => api.canonicalizeValue({ a: [undefined] }), { code: 'UNSUPPORTED_TYPE' });
});

test('valueDigest, upstreamProjection, jwksFromSeed', () => {
  const v = { b: [1, 'é'], a: null };
  const canon = text(api.canonicalizeValue(v));
  assert.equal(api.valueDigest(v), api.sha256Hex(canon));
  assert.equal(api.valueDigest(v, { salt: SALT }), api.fingerprint(SALT, v));
  assert.equal(api.valueDigest(new api.JsonText(canon), { salt: null }), api.commitment(v).digest);
  assert.throws(() => api.valueDigest(v, { salt: '00' }), { name: 'EklError', code: 'INVALID_SALT' });
  const tools = [{ name: 'b', description: 'd', x: 1 }, { name: 'a', inputSchema: {} }];
  const p = api.upstreamProjection({ tools });
  assert.deepEqual(p, [
    { name: 'a', description: null, inputSchema: {}, outputSchema: null, annotations: null },
    { name: 'b', description: 'd', inputSchema: null, outputSchema: null, annotations: null },
  ]);
  assert.equal(api.sha256Hex(text(api.canonicalizeValue(p))), api.upstreamFingerprint({ tools }));
  assert.deepEqual(api.upstreamProjection(tools, { offered: ['b'] }), [p[1]]);
  assert.throws(() => api.upstreamProjection([{ name: 'a' }, { name: 'a' }]), { code: 'INVALID_SHAPE' });
  const seed = '11'.repeat(32);
  const { jwks, keys } = api.jwksFromSeed(seed, ['net-1', 'net-2']);
  assert.ok(jwks instanceof api.Jwks);
  assert.deepEqual(jwks.kids, ['net-1', 'net-2']);
  assert.deepEqual(keys.map((k) => k.kid), ['net-1', 'net-2']);
  const claims = { iss: 'https://n.example', iat: 1780000000, exp: 1780000060 };
  const token = api.signJws('ekl-receipt+jwt', claims, keys[1]);
  assert.equal(token, api.signJws('ekl-receipt+jwt', claims, api.signingKey(seed, 'net-2')));
  assert.equal(api.verifyJws(token, 'ekl-receipt+jwt', jwks, { now: 1780000010 }).kid, 'net-2');
  assert.throws(() => api.jwksFromSeed(seed, ['k', 'k']), { code: 'INVALID_KEY' });
  assert.throws(() => api.jwksFromSeed('11', ['k']), { code: 'INVALID_KEY' });
});

test('the strict conversion refuses what is not JSON, with the core codes', () => {
  const cases = [
    [[NaN], 'NON_FINITE_NUMBER'], [{ a: Infinity }, 'NON_FINITE_NUMBER'],
    [[2n ** 60n], 'INTEGER_OUT_OF_RANGE'],
    [[1, undefined], 'UNSUPPORTED_TYPE'], [[() => 1], 'UNSUPPORTED_TYPE'], [new Map(), 'UNSUPPORTED_TYPE'],
    [new Date(0), 'UNSUPPORTED_TYPE'], [[Symbol('s')], 'UNSUPPORTED_TYPE'], [['\ud800'], 'LONE_SURROGATE'],
    [{ '\udc00': 1 }, 'LONE_SURROGATE'], [{ [Symbol('k')]: 1 }, 'NON_STRING_KEY'],
  ];
  for (const [value, code] of cases) {
    assert.throws(() => api.canonicalizeValue(value), (e) => e.code === code, `${String(code)}`);
  }
  // A member holding undefined is absent (the rule of JSON.stringify), as in the Node package.
  assert.equal(text(api.canonicalizeValue({ b: undefined, a: 1 })), '{"a":1}');
  const cyclic = []; cyclic.push(cyclic);
  assert.throws(() => api.canonicalizeValue(cyclic), { code: 'CYCLIC_VALUE' });
  let deep = []; for (let i = 0; i < 64; i++) deep = [deep];
  assert.throws(() => api.canonicalizeValue(deep), { code: 'INPUT_TOO_DEEP' });
  assert.equal(text(api.canonicalizeValue([2n ** 53n, -0, Object.create(null)])), '[9007199254740992,0,{}]');
  // A JS number is a double: beyond 2^53 it is accepted as one (docs/decisions.md#numbers #2), while
  // the integer literal in JSON text is refused.
  assert.equal(text(api.canonicalizeValue([2 ** 53 + 2, 2e20])), '[9007199254740994,200000000000000000000]');
  assert.throws(() => api.canonicalize('[9007199254740994]'), { code: 'INTEGER_OUT_OF_RANGE' });
  assert.throws(() => api.canonicalize('["\ud800"]'), { code: 'LONE_SURROGATE' }, 'raw lone surrogate in JSON text');
  assert.throws(() => api.proofKey('k\udfff'), { code: 'LONE_SURROGATE' }, 'string arguments are checked too');
  assert.throws(() => api.fingerprint(42, {}), { code: 'INVALID_ARGUMENT' });
});

// A small deterministic generator of JSON values (strings with astral and escaped characters,
// numbers across magnitudes), for text path = value path.
function corpus(n) {
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const chars = ['a', 'Z', 'é', '😀', 'ｱ', '"', '\\', '\n', '\u0001', '\u2028', '/', ' '];
  const str = () => Array.from({ length: Math.floor(rnd() * 6) }, () => chars[Math.floor(rnd() * chars.length)]).join('');
  const num = () => {
    const k = rnd();
    if (k < 0.3) return Math.floor((rnd() - 0.5) * 2 ** 20);
    if (k < 0.6) return (rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20);
    if (k < 0.7) return -0;
    return Math.round((rnd() - 0.5) * 2 ** 53);
  };
  const value = (d) => {
    const k = rnd();
    if (d > 4 || k < 0.35) return [null, true, false, num(), str(), num()][Math.floor(rnd() * 6)];
    if (k < 0.65) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(d + 1));
    const o = {};
    for (let i = Math.floor(rnd() * 5); i > 0; i--) o[str()] = value(d + 1);
    return o;
  };
  return Array.from({ length: n }, () => value(0));
}

const outcome = (f) => {
  try {
    const r = f();
    return typeof r === 'string' ? r : text(r);
  } catch (e) {
    if (!api.isEklError(e)) throw e;
    return `refused ${e.code}`;
  }
};

// JSON text of a corpus value in which every number reads back as the same double: an integer
// beyond 2^53 gets a fraction ("….0"), so the text path reads a double instead of refusing the literal.
function textOf(v) {
  if (typeof v === 'number') {
    const t = Object.is(v, -0) ? '0' : String(v);
    return Number.isInteger(v) && Math.abs(v) > 2 ** 53 && !t.includes('e') ? `${t}.0` : t;
  }
  if (Array.isArray(v)) return `[${v.map(textOf).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${textOf(x)}`).join(',')}}`;
  return JSON.stringify(v);
}

test('text path = value path on a random corpus of 2,000 values', () => {
  let big = 0;
  for (const v of corpus(2000)) {
    const t = textOf(v);
    if (t.includes('.0')) big++;
    assert.equal(outcome(() => api.canonicalizeValue(v)), outcome(() => api.canonicalize(t)));
    assert.equal(outcome(() => api.fingerprint(SALT, v)), outcome(() => api.fingerprint(SALT, new api.JsonText(t))));
  }
  assert.ok(big > 0, 'the corpus has integers beyond 2^53');
});

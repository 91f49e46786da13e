// Hardening cases shared by every JS surface: the Node package (native addon), the wasm package in
// Node and the wasm package in headless Chromium (wasm/test/browser.test.mjs imports this file
// from the page). Plain ES module, no Node API. `hardeningProblems(api)` runs every case against
// an API object (the package's exports) and returns the problems found: [] when all hold.
//
// Each case is [what, call, expected]: `expected` is an error code (the call must throw an
// EklError with it, its message never quoting the input), or a function of the result that
// returns true or a description of what is wrong. After every case a known good call must still
// give its known answer: a refused input leaves the library serving.

/** A 32-byte seed (64 lowercase hex) for the signing-key cases. */
export const SEED = '7e57c0de'.repeat(8);
const SALT = '00112233445566778899aabbccddeeff'.repeat(2);
const GOOD = '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c';
/** A string that must never appear in a message: it is the content of the refused values. */
const SECRET = 'hunter2-do-not-print';

/** The value `[[...[leaf]...]]` with `n` arrays around `leaf`. */
export function nest(n, leaf) {
  let v = leaf;
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/** A graph of `n` arrays, each holding the previous one twice: its JSON form has 2^n leaves. */
export function dag(n, leaf = []) {
  let v = leaf;
  for (let i = 0; i < n; i++) v = [v, v];
  return v;
}

/** Claims whose nesting is exactly 64 (the claims object is level 1), valid 1000..2000. */
export function deepClaims() {
  return { iat: 1000, exp: 2000, deep: nest(62, [1]) };
}

const text = (b) => (typeof b === 'string' ? b : new TextDecoder().decode(b));

function equals(want) {
  return (got) => (text(got) === want ? true : `gave ${text(got).slice(0, 80)}, not ${want.slice(0, 80)}`);
}

/** An array whose element `i` is an accessor with these parts. */
function withAccessor(items, i, parts) {
  const a = items.slice();
  Object.defineProperty(a, i, { enumerable: true, configurable: true, ...parts });
  return a;
}

/** [what, call, expected] */
export function hardeningCases(api) {
  const MAX = api.MAX_INPUT_BYTES;
  let reads = 0;
  const counting = () => withAccessor([1, 2, 3], 1, { get() { reads += 1; return reads; } });
  const throwing = () => withAccessor([1, 2], 1, { get() { throw new Error(SECRET); } });
  const cases = [
    // --- 14.7: accessor elements of arrays are refused like getters of objects, never run ---
    ['accessor element: a throwing getter', () => api.canonicalizeValue(throwing()), 'UNSUPPORTED_TYPE'],
    ['accessor element: a stateful getter', () => api.canonicalizeValue(counting()), 'UNSUPPORTED_TYPE'],
    ['accessor element: the getter never ran', () => reads, (n) => (n === 0 ? true : `the getter ran ${n} times`)],
    ['accessor element: setter only', () => api.canonicalizeValue(withAccessor([1], 0, { set() {} })), 'UNSUPPORTED_TYPE'],
    ['accessor element: nested', () => api.fingerprint(SALT, { a: [{ b: throwing() }] }), 'UNSUPPORTED_TYPE'],
    ['accessor element: inputCommitment', () => api.inputCommitment({ q: counting() }), 'UNSUPPORTED_TYPE'],
    ['accessor member: still refused', () => api.canonicalizeValue({ get a() { throw new Error(SECRET); } }), 'UNSUPPORTED_TYPE'],
    ['accessor element: document order (NaN first)', () => api.canonicalizeValue(withAccessor([NaN, 1], 1, { get() { throw new Error(SECRET); } })), 'NON_FINITE_NUMBER'],
    ['accessor element: document order (getter first)', () => api.canonicalizeValue(withAccessor([1, NaN], 0, { get() { throw new Error(SECRET); } })), 'UNSUPPORTED_TYPE'],
    ['accessor member: document order (NaN first)', () => api.canonicalizeValue({ a: NaN, get b() { return 1; } }), 'NON_FINITE_NUMBER'],
    // --- Proxies: walked through their traps; a trap that throws is UNSUPPORTED_TYPE ---
    ['Proxy of a plain object', () => api.canonicalizeValue(new Proxy({ b: 1, a: [2] }, {})), equals('{"a":[2],"b":1}')],
    ['Proxy of an array', () => api.canonicalizeValue(new Proxy([3, { x: 1 }], {})), equals('[3,{"x":1}]')],
    ['Proxy: ownKeys throws', () => api.canonicalizeValue({ a: new Proxy({}, { ownKeys() { throw new Error(SECRET); } }) }), 'UNSUPPORTED_TYPE'],
    ['Proxy: getOwnPropertyDescriptor throws', () => api.canonicalizeValue(new Proxy({ a: 1 }, { getOwnPropertyDescriptor() { throw new TypeError(SECRET); } })), 'UNSUPPORTED_TYPE'],
    ['Proxy: getPrototypeOf throws', () => api.canonicalizeValue([new Proxy({}, { getPrototypeOf() { throw new Error(SECRET); } })]), 'UNSUPPORTED_TYPE'],
    ['Proxy: a get trap is not what is read for members', () => api.canonicalizeValue(new Proxy({ a: 1 }, { get() { return SECRET; } })), equals('{"a":1}')],
    ['Proxy: describes an accessor', () => api.canonicalizeValue(new Proxy({ a: 1 }, { getOwnPropertyDescriptor: () => ({ get: () => 1, enumerable: true, configurable: true }) })), 'UNSUPPORTED_TYPE'],
    ['Proxy: revoked', () => { const r = Proxy.revocable({}, {}); r.revoke(); return api.canonicalizeValue({ a: r.proxy }); }, 'UNSUPPORTED_TYPE'],
    // --- 12.6: a member holding undefined is absent; an element holding it is refused ---
    ['undefined member: absent', () => api.canonicalizeValue({ b: undefined, a: 1, c: { d: undefined } }), equals('{"a":1,"c":{}}')],
    ['undefined member: the same fingerprint as without it', () => api.fingerprint(SALT, { area_ref: 'loc:ca:dublin', min_beds: 3, page: undefined }), (fp) => fp === GOOD || `gave ${fp}`],
    ['undefined element: refused', () => api.canonicalizeValue([1, undefined]), 'UNSUPPORTED_TYPE'],
    // --- 14.3: the conversion stops as soon as a bound is passed ---
    ['a DAG of 28 arrays: inputCommitment stops at 256 KB', () => api.inputCommitment(dag(28)), 'BODY_TOO_LARGE'],
    ['a DAG of 28 objects: inputCommitment stops at 256 KB', () => { let v = {}; for (let i = 0; i < 28; i++) v = { a: v, b: v }; return api.inputCommitment(v); }, 'BODY_TOO_LARGE'],
    ['a DAG of 40 arrays: maxBytes stops the conversion', () => api.canonicalizeValue(dag(40), { maxBytes: 1000 }), 'BODY_TOO_LARGE'],
    ['a shared long string 100,000 times: the default bound', () => api.canonicalizeValue(new Array(100_000).fill('x'.repeat(1000))), 'BODY_TOO_LARGE'],
    ['the bound counts the canonical form (2^53+2 is 16 digits)', () => api.canonicalizeValue([2 ** 53 + 2], { maxBytes: 18 }), equals('[9007199254740994]')],
    ['the bound counts the canonical form (1e20 is 21 digits)', () => api.canonicalizeValue([1e20], { maxBytes: 22 }), 'BODY_TOO_LARGE'],
    ['a value exactly at maxBytes', () => api.canonicalizeValue({ a: 'xy' }, { maxBytes: 10 }), equals('{"a":"xy"}')],
    ['a value one byte past maxBytes', () => api.canonicalizeValue({ a: 'xyz' }, { maxBytes: 10 }), 'BODY_TOO_LARGE'],
    ['a value past 256 KB: inputCommitment', () => api.inputCommitment({ a: 'x'.repeat(262144) }), 'BODY_TOO_LARGE'],
    ['a value of 256 KB exactly: inputCommitment', () => api.inputCommitment({ a: 'x'.repeat(262144 - 8) }), (c) => (c && /^[0-9a-f]{64}$/.test(c.digest)) || 'no commitment'],
    // --- 14.8: the maximum input, refused before anything is read or copied ---
    ['text one code unit past the maximum', () => api.canonicalize('x'.repeat(MAX + 1)), 'BODY_TOO_LARGE'],
    ['bytes one past the maximum', () => api.canonicalize(new Uint8Array(MAX + 1)), 'BODY_TOO_LARGE'],
    ['a string whose UTF-8 form passes the maximum', () => api.canonicalize(`"${'é'.repeat(MAX / 2)}"`), 'BODY_TOO_LARGE'],
    ['JsonText past the maximum', () => api.fingerprint(SALT, new api.JsonText(new Uint8Array(MAX + 1))), 'BODY_TOO_LARGE'],
    ['sha256Hex past the maximum', () => api.sha256Hex(new Uint8Array(MAX + 1)), 'BODY_TOO_LARGE'],
    ['a string argument past the maximum', () => api.proofKey('k'.repeat(MAX + 1)), 'BODY_TOO_LARGE'],
    // --- the value bound, the same on every surface (Python's dicts too): 8 MiB of JSON form ---
    ['the value bound is 8 MiB', () => api.MAX_VALUE_BYTES, (n) => (n === 8 * 1024 * 1024 ? true : `is ${n}`)],
    ['a value at the value bound', () => api.canonicalizeValue(['x'.repeat(api.MAX_VALUE_BYTES - 4)]).length, (n) => (n === api.MAX_VALUE_BYTES ? true : `gave ${n} bytes`)],
    ['a value one byte past the value bound', () => api.canonicalizeValue(['x'.repeat(api.MAX_VALUE_BYTES - 3)]), 'BODY_TOO_LARGE'],
    ['the value bound in document order', () => api.inputCommitment({ big: 'x'.repeat(300000), n: NaN }), 'BODY_TOO_LARGE'],
    // --- 14.6: a token whose claims reach depth 64 verifies everywhere ---
    ['JWS with depth-64 claims: sign and verify', () => {
      const { jwks, keys } = api.jwksFromSeed(SEED, ['k1']);
      const token = api.signJws('ekl-access+jwt', deepClaims(), keys[0]);
      return text(api.canonicalizeValue(api.verifyJws(token, 'ekl-access+jwt', jwks, { now: 1500 }).claims));
    }, (got) => got === text(api.canonicalizeValue(deepClaims())) || `claims came back as ${got.slice(0, 60)}`],
    ['JWS with depth-65 claims: refused by the signer', () => {
      const claims = deepClaims();
      claims.deep = nest(63, [1]);
      return api.signJws('ekl-access+jwt', claims, api.signingKey(SEED, 'k1'));
    }, 'INPUT_TOO_DEEP'],
    // --- 14.4: a signing key shows nothing of its seed ---
    ['a signing key holds no secret in any reachable property', () => secretsOf(api.signingKey(SEED, 'k1')), (found) => found.length === 0 || `found ${found.join(', ')}`],
    ['jwksFromSeed keys hold no secret either', () => api.jwksFromSeed(SEED, ['a', 'b']).keys.flatMap(secretsOf), (found) => found.length === 0 || `found ${found.join(', ')}`],
    ['a signing key signs as the one from jwksFromSeed', () => {
      const { keys } = api.jwksFromSeed(SEED, ['k1']);
      const claims = { iat: 1, exp: 2, sub: 'x' };
      return api.signJws('ekl-access+jwt', claims, api.signingKey(SEED, 'k1')) === api.signJws('ekl-access+jwt', claims, keys[0]);
    }, (same) => same === true || 'different tokens'],
  ];
  // --- 14.9: a panic below the API is INTERNAL_ERROR with a fixed message ---
  const panic = api[Symbol.for('ekl-core.testPanic')];
  if (typeof panic === 'function') {
    for (let i = 0; i < 3; i++) {
      cases.push([`a panic (${i + 1}) is INTERNAL_ERROR`, () => panic(), 'INTERNAL_ERROR']);
    }
    cases.push(['a panic: its text never reaches the message', () => {
      try {
        panic();
      } catch (e) {
        return e.message;
      }
      return 'no error';
    }, (m) => (/^INTERNAL_ERROR: internal error in ekl-core \(a bug/.test(m) && !/deliberate/.test(m)) || `message: ${m}`]);
  } else {
    cases.push(['the test hook is there', () => panic, 'INTERNAL_ERROR']);
  }
  return cases;
}

/**
 * Every string reachable from `root` through own properties (string- and symbol-keyed, enumerable
 * or not, data or the values of getters on the object's own prototype chain up to the class) that
 * holds the seed, in hex or as any base64url / hex of its bytes; plus the JSON and string forms.
 */
export function secretsOf(root) {
  const found = [];
  const needles = [SEED, SEED.toUpperCase()];
  const check = (where, s) => {
    if (typeof s !== 'string') return;
    for (const n of needles) if (s.includes(n)) found.push(where);
  };
  check('JSON.stringify', JSON.stringify(root) ?? '');
  check('String', (() => { try { return String(root); } catch { return ''; } })());
  const seen = new Set();
  const stack = [[root, 'key']];
  while (stack.length > 0 && seen.size < 10_000) {
    const [v, where] = stack.pop();
    if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) {
      check(where, v);
      continue;
    }
    seen.add(v);
    if (typeof v === 'function') continue; // methods: code, not data
    for (const k of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      const name = `${where}.${String(k)}`;
      if ('value' in d) stack.push([d.value, name]);
    }
    if (v instanceof Uint8Array) found.push(`${where} is bytes`);
  }
  return found;
}

/** Runs every case; returns the problems ([] when every case holds). */
export function hardeningProblems(api) {
  const problems = [];
  for (const [what, call, expected] of hardeningCases(api)) {
    let result;
    let error;
    try {
      result = call();
    } catch (e) {
      error = e;
    }
    if (typeof expected === 'string') {
      if (error === undefined) problems.push(`${what}: accepted, ${expected} expected`);
      else if (!api.isEklError(error) || error.code !== expected) problems.push(`${what}: ${error && error.name} ${error && error.code} ${error && String(error.message).slice(0, 120)}`);
      else if (!(error instanceof Error)) problems.push(`${what}: not an Error`);
      else if (error.message.includes(SECRET)) problems.push(`${what}: the message quotes the input`);
    } else if (error !== undefined) {
      problems.push(`${what}: threw ${error && error.name} ${error && error.code} ${error && String(error.message).slice(0, 120)}`);
    } else {
      const verdict = expected(result);
      if (verdict !== true) problems.push(`${what}: ${verdict}`);
    }
    try {
      const got = api.fingerprint(SALT, { area_ref: 'loc:ca:dublin', min_beds: 3 });
      if (got !== GOOD) problems.push(`${what}: the next good call gave ${got}`);
    } catch (e) {
      problems.push(`${what}: the next good call threw ${e && e.name} ${e && e.code}`);
    }
  }
  return problems;
}

// Hardening of the wasm package in Node: the cases shared with the Node package and with Chromium
// (node/test/hardening-cases.mjs), those that need Node (node/test/hardening-node.mjs: shared
// memory written by another thread, what a signing key shows to inspection), and what is the wasm
// package's own: a trap (a panic aborts the instance) is INTERNAL_ERROR and a fresh instance, the
// signing keys of the trapped instance are dropped and refused, the seed is wiped from the
// module's memory, and the web glue's factory (used by browsers) restarts the same way.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { dist, loadCjs, require } from './helpers.mjs';
import { hardeningProblems, hardeningCases, SEED } from '../../node/test/hardening-cases.mjs';
import { sharedMemoryRace, keyInspectionProblems } from '../../node/test/hardening-node.mjs';

const api = loadCjs();
const PANIC = Symbol.for('ekl-core.testPanic');

test('the shared hardening cases: accessors, Proxies, undefined members, bounds, deep JWS claims, keys, panics', () => {
  assert.ok(hardeningCases(api).length >= 40);
  assert.deepEqual(hardeningProblems(api), []);
});

test('a Uint8Array over a SharedArrayBuffer that a worker keeps writing: valid output or a code', async () => {
  const { problems, seen, writes } = await sharedMemoryRace(api);
  assert.deepEqual(problems, []);
  assert.ok(seen.ok + seen.refused > 1000, JSON.stringify(seen));
  assert.ok(writes > 0);
});

test('a signing key is the module\'s own object: util.inspect (showHidden), JSON and property names show no seed', () => {
  assert.deepEqual(keyInspectionProblems(api), []);
  const key = api.signingKey(SEED, 'k1');
  const handle = Object.getOwnPropertySymbols(key).map((s) => key[s])[0];
  assert.equal(handle.constructor.name, 'SigningKeyHandle');
  assert.deepEqual(Object.keys(handle), ['__wbg_ptr'], 'a pointer into the module, nothing else');
  assert.equal(typeof handle.__wbg_ptr, 'number');
});

/** A fresh glue of the web build (the browsers' path) and its instance's exports, in Node. */
function webGlue() {
  const module = new WebAssembly.Module(readFileSync(join(dist, 'web', 'ekl_wasm_bg.wasm')));
  // The package is "type": "commonjs", so Node reads the ES module of the web build from a data URL.
  const source = readFileSync(join(dist, 'web', 'ekl_wasm.js'), 'utf8');
  return import(`data:text/javascript,${encodeURIComponent(source)}`).then(({ createGlue }) => {
    const glue = createGlue();
    const exports = glue.initSync({ module });
    return { glue, exports, module, createGlue };
  });
}

/** Where `needle` (bytes) occurs in the module's memory. */
function find(memory, needle) {
  const hay = new Uint8Array(memory.buffer);
  const at = [];
  for (let i = hay.indexOf(needle[0]); i !== -1 && at.length < 5; i = hay.indexOf(needle[0], i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) at.push(i);
  }
  return at;
}

test('the seed (text and bytes) and the scalar derived from it are not left in the module\'s memory', async () => {
  const { glue, exports } = await webGlue();
  const seedBytes = Uint8Array.from(SEED.match(/../g).map((h) => parseInt(h, 16)));
  // The scalar of kid k1 (docs/decisions.md, keys from a seed: HMAC-SHA256(seed, context ‖ 0 ‖ kid
  // ‖ 0 ‖ counter), counter 0 unless out of range), computed here with node:crypto.
  const scalar = createHmac('sha256', seedBytes)
    .update(Buffer.concat([Buffer.from('ekl-jwks-seed'), Buffer.from([0]), Buffer.from('k1'), Buffer.from([0, 0])])).digest();
  const secrets = { 'seed hex': new TextEncoder().encode(SEED), 'seed bytes': seedBytes, scalar };
  const left = (when) => Object.entries(secrets).filter(([, b]) => find(exports.memory, b).length > 0).map(([w]) => `${w} ${when}`);
  // The module's own exports, as the binding calls them (operation index, slots, bytes).
  const names = JSON.parse(glue.operations()).operations.map((op) => op.name);
  const at = (name) => names.indexOf(name);
  const none = new Uint8Array(0);
  const key = glue.call(at('signing_key'), [SEED, 'k1'], none);
  const problems = left('after the key was made');
  const claims = new TextEncoder().encode('{"iat":1,"exp":2}');
  glue.callWithKey(at('sign_jws'), ['ekl-access+jwt', claims.length, null], claims, key);
  problems.push(...left('after it signed'));
  const kids = new TextEncoder().encode('["k1","k2"]');
  glue.call(at('jwks_from_seed'), [SEED, kids.length], kids);
  problems.push(...left('after jwksFromSeed'));
  key.free();
  problems.push(...left('after free'));
  assert.deepEqual(problems, []);
  // The control: a string passed by reference stays in the module's memory as it was (so the
  // search would find the seed if it were left behind).
  const marker = `marker-${'5a'.repeat(16)}`;
  glue.call(at('screening_fold'), [marker], none);
  assert.notDeepEqual(find(exports.memory, new TextEncoder().encode(marker)), [], 'the control string is found');
});

test('a trap is INTERNAL_ERROR, the instance is replaced, the library keeps serving; old keys are refused', () => {
  const key = api.signingKey(SEED, 'k1');
  const claims = { iat: 1, exp: 2, sub: 's' };
  const token = api.signJws('ekl-access+jwt', claims, key);
  for (let i = 0; i < 3; i++) {
    assert.throws(() => api[PANIC](), (e) => api.isEklError(e) && e.code === 'INTERNAL_ERROR' && !/deliberate|unreachable/.test(e.message));
    assert.equal(new TextDecoder().decode(api.canonicalize('{"b":1,"a":2}')), '{"a":2,"b":1}');
  }
  // The key lived in the trapped instance: it was dropped, and is refused with a code.
  assert.throws(() => api.signJws('ekl-access+jwt', claims, key), (e) => api.isEklError(e) && e.code === 'INVALID_KEY');
  // A key made again signs as before (RFC 6979: the same token).
  assert.equal(api.signJws('ekl-access+jwt', claims, api.signingKey(SEED, 'k1')), token);
  const { jwks } = api.jwksFromSeed(SEED, ['k1']);
  assert.equal(api.verifyJws(token, 'ekl-access+jwt', jwks, { now: 1 }).claims.sub, 's');
});

test('the web glue factory restarts after a trap too (the browsers\' path, run in Node)', async () => {
  const { glue, module, createGlue } = await webGlue();
  const { wasmBinding } = require(join(dist, 'cjs', 'binding.cjs'));
  const { makeApi } = require(join(dist, 'cjs', 'api.cjs'));
  let reloads = 0;
  const web = makeApi(wasmBinding(glue, () => {
    reloads++;
    const g = createGlue();
    g.initSync({ module });
    return g;
  }), { backend: 'wasm' });
  const key = web.signingKey(SEED, 'k1');
  assert.throws(() => web[PANIC](), { name: 'EklError', code: 'INTERNAL_ERROR' });
  assert.equal(reloads, 1);
  assert.equal(new TextDecoder().decode(web.canonicalize('[1.0]')), '[1]');
  assert.throws(() => web.signJws('ekl-access+jwt', {}, key), { code: 'INVALID_KEY' });
  assert.deepEqual(hardeningProblems(web), []);
});

test('a trap inside a call is that call\'s INTERNAL_ERROR only (the next call runs on a fresh instance)', () => {
  const { wasmBinding } = require(join(dist, 'cjs', 'binding.cjs'));
  const { makeApi } = require(join(dist, 'cjs', 'api.cjs'));
  const glue = require(join(dist, 'node', 'ekl_wasm.js'));
  // A glue whose generic call traps once: the binding must restart and go on.
  let trapped = false;
  const trapOnce = {
    ...glue,
    call: (...args) => {
      if (!trapped) {
        trapped = true;
        glue.__testPanic();
      }
      return glue.call(...args);
    },
  };
  const web = makeApi(wasmBinding(trapOnce, () => glue), { backend: 'wasm' });
  const call = { execution_id: 'a', collaboration_id: 'b', capability_id: 'c', requester_agent_id: 'd', provider_agent_id: 'e' };
  assert.throws(() => web.verifyReceipts([{ receipt: {}, call }], 'secret'), { name: 'EklError', code: 'INTERNAL_ERROR' });
  assert.equal(trapped, true);
  const out = web.verifyReceipts([{ receipt: {}, call }, { receipt: [], call }], 'secret');
  assert.equal(typeof out[0].accepted, 'boolean', 'the next call has its verdicts');
  assert.equal(out[1].code, 'INVALID_RECEIPT', 'an item that cannot be read is its own EklError');
});

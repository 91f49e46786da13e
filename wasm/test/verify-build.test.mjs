// The verify build (wasm/dist-verify: the npm package's browser entry and the dashboard's module;
// docs/decisions/wasm.md#verify-build), against the full module (wasm/dist, Node's fallback):
//   - its size budget: at most 200 KB gzip (zlib level 9, as size.test.mjs measures the full one;
//     issue 43 asks 150 KB, not reached: docs/decisions/wasm.md#verify-build says where the bytes go);
//   - its operations, exactly VERIFY_OPS: a test fails when the build gains one (or loses one);
//   - its API, its ES module entry and its declarations follow the build: an operation that is not
//     in it is not a function, not an export and not declared (no SigningKey either);
//   - every line of vectors/calls.jsonl for its operations passes through it in Node;
//   - ES256 verification in Chromium within 10 % of the full module's: both modules in one page,
//     rounds interleaved, the best round of each (a ratio of one run, whatever the machine's load).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { repo, wasmDir, dist, require, operations } from './helpers.mjs';
import { withChromium } from './browser.mjs';
import { serve } from '../scripts/serve.mjs';
import { makeAnswer } from '../../examples/conformance/ops.mjs';
import { runVectorCalls } from '../../examples/conformance/vector-calls.mjs';

const verifyDist = join(wasmDir, 'dist-verify');
// 167.1 KB measured (issue 43: one small sort on wasm32, ES256 in ekl-es256 at opt-level 3 and the
// rest at "s"/"z"; 200.4 KB before, 200.7 KB with the full registry's shapes and ryu's full tables):
// docs/decisions/wasm.md#verify-build.
const BUDGET_GZIP = 172 * 1024;
/** The floor of issue 43: a minimal module with RustCrypto's ES256 verification, SHA-256, HMAC and serde_json. */
const FLOOR_GZIP = 67.6 * 1024;
/** ES256 verification of the verify build: at most this many times the full module's time. */
const MAX_ES256_RATIO = 1.1;

/** What verifying receipts and credentials needs, in manifest order (docs/decisions/wasm.md#verify-build). */
const VERIFY_OPS = [
  // canonical JSON, digests, commitments, fingerprints
  'canonicalize', 'canonicalize_value', 'sha256_hex', 'commitment', 'input_commitment', 'terms_hash', 'value_digest',
  'fingerprint', 'output_fingerprint', 'select_result_body', 'upstream_fingerprint', 'upstream_projection',
  // MAC receipts
  'format_timestamp', 'receipt_digest', 'verify_receipt', 'verify_receipts', 'verify_receipt_lines',
  'summarize_receipt_lines', 'verify_archive',
  // ES256 verification and JWKS, network-signed receipts, the per-type credential verifiers
  'parse_jwks', 'verify_jws', 'verify_receipt_jws', 'verify_signed_receipt', 'verify_execution_grant',
  'verify_relationship_assertion', 'verify_platform_call', 'verify_revocation_feed', 'verify_access_token',
  // the remote key set policy
  'remote_jwks_policy', 'remote_jwks_policy_need', 'remote_jwks_policy_need_failed', 'remote_jwks_policy_kid',
  'remote_jwks_policy_kid_fetched', 'remote_jwks_policy_kid_failed', 'remote_jwks_policy_response',
  'remote_jwks_policy_body', 'remote_jwks_policy_failed',
];

const full = () => require(join(dist, 'index.cjs'));
const verify = () => require(join(verifyDist, 'index.cjs'));
const gz = (f) => {
  const bytes = readFileSync(f);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

test('the verify build fits its size budget', () => {
  const v = gz(join(verifyDist, 'web', 'ekl_wasm_bg.wasm'));
  const f = gz(join(dist, 'web', 'ekl_wasm_bg.wasm'));
  const kb = (n) => (n / 1024).toFixed(1);
  console.log(`size: verify build ${v.raw} bytes raw, ${v.gzip} bytes gzip (${kb(v.gzip)} KB, ${(v.gzip / FLOOR_GZIP).toFixed(2)}x the floor); ` +
    `full module ${f.raw} bytes raw, ${f.gzip} bytes gzip (${kb(f.gzip)} KB)`);
  assert.ok(v.gzip <= BUDGET_GZIP, `the verify build is ${v.gzip} bytes gzip > ${BUDGET_GZIP}`);
  assert.ok(v.gzip < f.gzip, 'the verify build is smaller than the full module');
});

test('the verify build has exactly the verifying operations', () => {
  const got = verify().operations().map((op) => op.name);
  assert.deepEqual(got, VERIFY_OPS, 'the verify build gained or lost an operation: change VERIFY_OPS and docs/decisions/wasm.md#verify-build together');
  // Every one of them as the full module declares it (names, parameters, result).
  const all = new Map(operations().map((op) => [op.name, op]));
  for (const op of verify().operations()) assert.deepEqual(op, all.get(op.name), op.name);
});

test('the API, the ES module entry and the declarations follow the build', () => {
  const api = verify();
  const web = readFileSync(join(verifyDist, 'index.web.mjs'), 'utf8');
  const dts = readFileSync(join(verifyDist, 'index.d.ts'), 'utf8');
  const declared = (js) => new RegExp(`export declare (function|const) ${js}\\b`).test(dts);
  for (const op of operations()) {
    const has = VERIFY_OPS.includes(op.name);
    if (op.method_of) {
      // A handle's method row is a method of its class, not a function of the API.
      if (has) assert.equal(typeof api[op.method_of]?.prototype?.[op.js], 'function', `${op.method_of}.${op.js}`);
      continue;
    }
    assert.equal(op.js in api, has, `${op.js} in the API`);
    assert.equal(new RegExp(`^  ${op.js},$`, 'm').test(web), has, `${op.js} exported by index.web.mjs`);
    assert.equal(declared(op.js), has, `${op.js} declared in index.d.ts`);
    if (has) assert.equal(typeof api[op.js], 'function', op.js);
  }
  assert.ok(!('SigningKey' in api) && !/\bSigningKey\b|\bKeySet\b/.test(dts), 'no signing key in the verify build');
  assert.equal(typeof api.RemoteJwks, 'function', 'the remote key set stays');
  // The full module keeps every operation.
  assert.deepEqual(full().operations().map((op) => op.name), operations().map((op) => op.name));
});

test('every vector line of its operations passes through the verify build', () => {
  const text = readFileSync(join(repo, 'vectors', 'calls.jsonl'), 'utf8');
  const lines = text.split('\n').filter(Boolean);
  const ours = lines.filter((l) => {
    const { request } = JSON.parse(l);
    return request.op !== 'call' || VERIFY_OPS.includes(request.name);
  });
  const legacy = JSON.parse(readFileSync(join(repo, 'examples', 'conformance', 'legacy-ops.json'), 'utf8'));
  const api = verify();
  const results = runVectorCalls(makeAnswer(api, { legacy }), ours.join('\n'), (n) => readFileSync(join(repo, 'vectors', n), 'utf8'), { sha256: (x) => api.sha256Hex(x) });
  console.log(`vectors: ${results.length} of ${lines.length} lines of vectors/calls.jsonl through the verify build`);
  assert.ok(results.length > 500);
  assert.deepEqual(results.filter((r) => !r.pass || r.tamperedPasses), []);
});

test('ES256 verification in Chromium: the verify build within 10 % of the full module', { timeout: 180_000 }, async () => {
  const api = full();
  const { jwks, keys: [key] } = api.jwksFromSeed('5a'.repeat(32), ['bench-1']);
  const iat = 1_800_000_000;
  const token = api.signJws('ekl-receipt+jwt', { iss: 'https://net.example', aud: 'agt_me', iat, exp: iat + 300, jti: 'j-1' }, key);
  const server = await serve({ root: repo, port: 0 });
  try {
    await withChromium(async (page, _context, errors) => {
      await page.goto(`${server.url}wasm/test/blank.html`);
      const got = await page.evaluate(async ({ token, jwks, iat }) => {
        const builds = {
          full: await import('/wasm/dist/index.web.mjs'),
          verify: await import('/wasm/dist-verify/index.web.mjs'),
        };
        const runs = {};
        for (const [name, e] of Object.entries(builds)) {
          const keys = new e.Jwks(jwks);
          const one = () => e.verifyJws(token, 'ekl-receipt+jwt', keys, { now: iat });
          if (one().kid !== 'bench-1') throw new Error(`${name}: the token does not verify`);
          runs[name] = one;
        }
        const N = 300;
        for (const one of Object.values(runs)) for (let i = 0; i < 1500; i++) one();
        const best = { full: Infinity, verify: Infinity };
        for (let round = 0; round < 9; round++) {
          // Alternate which build goes first, so neither always follows the other.
          const order = round % 2 ? ['verify', 'full'] : ['full', 'verify'];
          for (const name of order) {
            const t0 = performance.now();
            for (let i = 0; i < N; i++) runs[name]();
            best[name] = Math.min(best[name], ((performance.now() - t0) * 1000) / N);
          }
        }
        return best;
      }, { token, jwks: jwks.toJSON(), iat });
      const ratio = got.verify / got.full;
      console.log(`chromium es256: verifyJws ${got.verify.toFixed(1)} µs (verify build) against ${got.full.toFixed(1)} µs (full module): ${ratio.toFixed(3)}x`);
      assert.ok(ratio <= MAX_ES256_RATIO, `ES256 in the verify build is ${ratio.toFixed(3)}x the full module's (> ${MAX_ES256_RATIO})`);
      assert.deepEqual(errors, []);
    });
  } finally {
    server.close();
  }
});

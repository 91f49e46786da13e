// The wasm package in headless Chromium, as plain ESM (no bundler): every vector file (and
// vectors/calls.jsonl through the conformance adapter's generic dispatch), with the
// result set equal to the one in Node (itself equal to the native one), every refusal followed
// by a good call on the same instance, and the hardening cases shared with Node
// (node/test/hardening-cases.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { repo, loadCjs, vectorFiles } from './helpers.mjs';
import { runVectors } from './vectors.mjs';
import { withChromium } from './browser.mjs';
import { serve } from '../scripts/serve.mjs';

test('vectors and refusals in Chromium equal Node', { timeout: 180_000 }, async () => {
  const server = await serve({ root: repo, port: 0 });
  try {
    const names = vectorFiles().map((f) => f.name);
    const node = runVectors(loadCjs(), vectorFiles());
    await withChromium(async (page, _context, errors) => {
      await page.goto(`${server.url}wasm/test/blank.html`);
      const got = await page.evaluate(async (names) => {
        const api = await import('/wasm/dist/index.web.mjs');
        const { runVectors } = await import('/wasm/test/vectors.mjs');
        const { checkRefusals } = await import('/wasm/test/refusals.mjs');
        const { hardeningProblems } = await import('/node/test/hardening-cases.mjs');
        const files = await Promise.all(names.map(async (name) => ({ name, text: await (await fetch(`/vectors/${name}`)).text() })));
        const t0 = performance.now();
        const r = runVectors(api, files);
        const ms = performance.now() - t0;
        // vectors/calls.jsonl, dispatched generically (the conformance adapter's ops.mjs).
        const { makeAnswer } = await import('/examples/conformance/ops.mjs');
        const { runVectorCalls, changedCopy } = await import('/examples/conformance/vector-calls.mjs');
        const legacy = await (await fetch('/examples/conformance/legacy-ops.json')).json();
        const texts = Object.fromEntries(files.map((f) => [f.name, f.text]));
        const calls = runVectorCalls(makeAnswer(api, { legacy }), texts['calls.jsonl'], (n) => texts[n], {
          sha256: (s) => api.sha256Hex(s),
        });
        // The meta-test on a copy: fingerprints.json with the first line's value changed.
        const first = texts['calls.jsonl'].split('\n').find((l) => l.includes('"file":"fingerprints.json"'));
        const copy = changedCopy(texts['fingerprints.json'], JSON.parse(first).pointer);
        const changedPasses = runVectorCalls(makeAnswer(api, { legacy }), first, () => copy, {})[0].pass;
        return {
          records: r.records.map(({ file, case: kase, result }) => ({ file, case: kase, result })),
          failures: r.failures, unknown: r.unknown, refusals: checkRefusals(api), ms,
          calls: calls.length, callFailures: calls.filter((c) => !c.pass || c.tamperedPasses), changedPasses,
          hardening: hardeningProblems(api.default), // the API object (the namespace has no symbol keys)
          userAgent: navigator.userAgent,
        };
      }, names);
      console.log(`chromium: ${got.userAgent}; ${got.calls} lines of vectors/calls.jsonl; the number file in ${got.ms.toFixed(0)} ms`);
      assert.deepEqual(got.unknown, []);
      assert.deepEqual(got.failures, []);
      assert.ok(got.calls > 0, 'no line of vectors/calls.jsonl ran');
      assert.deepEqual(got.callFailures, []);
      assert.equal(got.changedPasses, false, 'a changed copy of fingerprints.json passes');
      assert.deepEqual(got.refusals, []);
      // The hardening cases shared with Node (accessors, Proxies, bounds, deep JWS claims, keys,
      // panics: the web glue's factory restarts the instance after each trap).
      assert.deepEqual(got.hardening, []);
      assert.deepEqual(got.records, node.records.map(({ file, case: kase, result }) => ({ file, case: kase, result })));
      assert.deepEqual(errors, []);
    });
  } finally {
    server.close();
  }
});

// The size budget of the wasm module: at most 250 KB gzip (the module after wasm-opt -Oz, which is
// what the package ships). Prints raw and gzip sizes of the module and of the JS glue.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { dist } from './helpers.mjs';

const BUDGET_GZIP = 250 * 1024;

test('the wasm module fits the size budget', () => {
  const rows = [];
  for (const f of ['web/ekl_wasm_bg.wasm', 'node/ekl_wasm_bg.wasm', 'web/ekl_wasm.js', 'esm/convert.mjs', 'esm/api.mjs']) {
    const bytes = readFileSync(join(dist, f));
    rows.push({ f, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  for (const r of rows) console.log(`size: ${r.f}: ${r.raw} bytes raw, ${r.gzip} bytes gzip`);
  const wasm = rows[0];
  assert.ok(wasm.gzip <= BUDGET_GZIP, `${wasm.gzip} bytes gzip > ${BUDGET_GZIP}`);
  assert.ok(wasm.raw > 20_000, 'the module holds the core');
});

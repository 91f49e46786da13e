// Hardening checks that need Node (worker threads, util.inspect, child processes), shared by the
// Node package's tests (node/test/hardening.test.js, bounds.test.js) and the wasm package's
// (wasm/test/hardening.test.mjs), so that the native addon and the wasm module answer the same.
import { Worker } from 'node:worker_threads';
import { inspect } from 'node:util';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { SEED } from './hardening-cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The worker that rewrites a SharedArrayBuffer until told to stop: it sweeps the inside of the
 * JSON string `["…"]`, writing pairs of bytes that are "é" (C3 A9) on one sweep and "aa" on the
 * next, one byte at a time, so the text is valid UTF-8 most of the time and a reader that checks
 * it and then reads it again can see a torn pair (the time-of-check bug of reading shared memory).
 */
const HAMMER = `
const { workerData, parentPort } = require('node:worker_threads');
const view = new Uint8Array(workerData.sab);
const stop = new Int32Array(workerData.stop);
let writes = 0;
parentPort.postMessage('ready');
while (Atomics.load(stop, 0) === 0) {
  const [x, y] = writes % 2 === 0 ? [0xc3, 0xa9] : [0x61, 0x61];
  for (let i = 2; i + 1 < view.length - 2; i += 2) {
    view[i] = x;
    view[i + 1] = y;
  }
  writes++;
}
parentPort.postMessage(writes);
`;

/**
 * Feeds views of a SharedArrayBuffer that a worker keeps rewriting to every operation taking bytes
 * while the worker runs. Every answer must be valid (canonical output valid UTF-8, digests hex) or
 * an EklError with a core code: never a crash, a panic, an INTERNAL_ERROR, nor output that is not
 * UTF-8. Returns the problems and counts.
 */
export async function sharedMemoryRace(api, { rounds = 300 } = {}) {
  const sab = new SharedArrayBuffer(256 * 1024);
  const view = new Uint8Array(sab);
  view.set(Buffer.from('["'), 0);
  view.set(Buffer.from('"]'), view.length - 2);
  view.fill(0x61, 2, view.length - 2);
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HAMMER, { eval: true, workerData: { sab, stop: stop.buffer } });
  await new Promise((resolve) => worker.once('message', resolve));
  const codes = new Set(api.errorCodes());
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const problems = [];
  const seen = { ok: 0, refused: 0 };
  const SALT = '00'.repeat(32);
  const sub = view.subarray(1, view.length - 1); // a view with an offset
  const ops = [
    ['canonicalize', () => api.canonicalize(view), (out) => fatal.decode(out)],
    ['canonicalize(subarray)', () => api.canonicalize(sub), (out) => fatal.decode(out)],
    ['canonicalizeValue(JsonText)', () => api.canonicalizeValue(new api.JsonText(view)), (out) => fatal.decode(out)],
    ['sha256Hex', () => api.sha256Hex(view), (h) => { if (!/^[0-9a-f]{64}$/.test(h)) throw new Error('not hex'); }],
    ['fingerprint', () => api.fingerprint(SALT, new api.JsonText(view)), (h) => { if (!/^[0-9a-f]{64}$/.test(h)) throw new Error('not hex'); }],
    ['inputCommitment', () => api.inputCommitment(new api.JsonText(view)), (c) => { if (!/^[0-9a-f]{64}$/.test(c.digest)) throw new Error('not hex'); }],
    ['verifyReceipt', () => api.verifyReceipt(new api.JsonText(view), 'secret', { execution_id: 'a', collaboration_id: 'b', capability_id: 'c', requester_agent_id: 'd', provider_agent_id: 'e' }), (r) => { if (typeof r.accepted !== 'boolean') throw new Error('not a verdict'); }],
    ['verifyReceipts(JsonText)', () => api.verifyReceipts(new api.JsonText(view), 'secret'), (r) => { if (!Array.isArray(r)) throw new Error('not a list'); }],
  ];
  const check = (name, f, valid) => {
    try {
      valid(f());
      seen.ok++;
    } catch (e) {
      if (!api.isEklError(e) || !codes.has(e.code) || e.code === 'INTERNAL_ERROR') {
        problems.push(`${name}: ${e && e.name} ${e && e.code} ${e && String(e.message).slice(0, 100)}`);
      } else {
        seen.refused++;
      }
    }
  };
  try {
    for (let r = 0; r < rounds && problems.length < 5; r++) {
      for (const [name, f, valid] of ops) check(name, f, valid);
      try {
        const out = await api.canonicalizeAsync(view);
        fatal.decode(out);
        seen.ok++;
      } catch (e) {
        if (!api.isEklError(e) || !codes.has(e.code) || e.code === 'INTERNAL_ERROR') problems.push(`canonicalizeAsync: ${e && e.name} ${e && e.code}`);
        else seen.refused++;
      }
    }
  } finally {
    Atomics.store(stop, 0, 1);
  }
  const writes = await new Promise((resolve) => worker.once('message', resolve));
  await worker.terminate();
  return { problems, seen, writes };
}

/**
 * The native addon's raw exports (node/native.js: canonicalizeInto, canonicalizeStringInto, call),
 * which a caller can reach without the JS layer's copy of shared views, fed views of a
 * SharedArrayBuffer that a worker keeps rewriting: every output must be valid UTF-8 (the addon
 * reads a copy), or a refusal with a core code. Returns the problems and counts.
 */
export async function rawSharedMemoryRace(native, { rounds = 1000 } = {}) {
  const sab = new SharedArrayBuffer(64 * 1024);
  const view = new Uint8Array(sab);
  view.set(Buffer.from('["'), 0);
  view.set(Buffer.from('"]'), view.length - 2);
  view.fill(0x61, 2, view.length - 2);
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(HAMMER, { eval: true, workerData: { sab, stop: stop.buffer } });
  await new Promise((resolve) => worker.once('message', resolve));
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const ops = JSON.parse(native.operations()).operations;
  const canonicalizeOp = ops.findIndex((op) => op.name === 'canonicalize');
  const out = new Uint8Array(128 * 1024);
  const problems = [];
  const seen = { ok: 0, refused: 0 };
  const decoded = (name, bytes) => {
    try {
      fatal.decode(bytes);
      seen.ok++;
    } catch {
      problems.push(`${name}: output that is not UTF-8`);
    }
  };
  const refused = (name, e) => {
    if (typeof e?.code === 'string' && e.code !== 'INTERNAL_ERROR') seen.refused++;
    else problems.push(`${name}: ${e && e.code} ${e && String(e.message).slice(0, 80)}`);
  };
  try {
    for (let r = 0; r < rounds && problems.length < 5; r++) {
      for (const [name, f] of [
        ['canonicalizeInto', () => { const n = native.canonicalizeInto(view, null, out, 0); return n < 0 ? native.takeResult() : out.subarray(0, n); }],
        ['canonicalizeStringInto', () => { const n = native.canonicalizeStringInto(view, view.length, out, 0); return n === -2 ? new Uint8Array(0) : n < 0 ? native.takeResult() : out.subarray(0, n); }],
        ['call(canonicalize)', () => native.call(canonicalizeOp, [view, null])],
      ]) {
        try {
          decoded(name, f());
        } catch (e) {
          refused(name, e);
        }
      }
    }
  } finally {
    Atomics.store(stop, 0, 1);
  }
  const writes = await new Promise((resolve) => worker.once('message', resolve));
  await worker.terminate();
  return { problems, seen, writes };
}

/** Problems with what a signing key shows to inspection (util.inspect with showHidden, depth 10). */
export function keyInspectionProblems(api) {
  const problems = [];
  const { jwks, keys } = api.jwksFromSeed(SEED, ['k1']);
  for (const [what, key] of [['signingKey', api.signingKey(SEED, 'k1')], ['jwksFromSeed', keys[0]]]) {
    for (const opts of [{ showHidden: true, depth: 10, getters: true }, { depth: 10 }]) {
      const shown = inspect(key, opts);
      if (shown.toLowerCase().includes(SEED)) problems.push(`${what}: inspect(${JSON.stringify(opts)}) shows the seed`);
    }
    const all = [...Object.keys(key), ...Object.getOwnPropertyNames(key), ...Object.getOwnPropertySymbols(key).map(String)];
    if (all.some((k) => /seed|secret|private|^d$/i.test(k))) problems.push(`${what}: a property is named like a secret: ${all}`);
    if (JSON.stringify(key).includes(SEED)) problems.push(`${what}: JSON.stringify shows the seed`);
  }
  if (inspect(jwks, { showHidden: true, depth: 10 }).includes(SEED)) problems.push('jwks shows the seed');
  return problems;
}

/** The child process of the resource-bounds tests (node/test/bounds-child.cjs). */
export const BOUNDS_CHILD = join(here, 'bounds-child.cjs');

/**
 * Runs one case of bounds-child.cjs in a fresh Node process against the package at `entry` (a
 * path `require` takes) and returns what it printed: {what, code | out, ms, peakRssMB, baseRssMB}.
 */
export function boundsCase(entry, name, { env = {} } = {}) {
  const r = spawnSync(process.execPath, [BOUNDS_CHILD, entry, name], {
    encoding: 'utf8', env: { ...process.env, RUST_BACKTRACE: '0', ...env }, maxBuffer: 1 << 20,
  });
  const line = r.stdout.trim().split('\n').pop();
  if (r.status !== 0 || !line) {
    return { what: name, crashed: true, status: r.status, signal: r.signal, stderr: r.stderr.slice(-2000) };
  }
  return JSON.parse(line);
}

/**
 * The resource-bounds cases (bounds-child.cjs), each with the answer every surface gives and the
 * peak resident memory (MB, the whole Node process) it must stay under, per surface; the figures
 * measured here are in docs/decisions.md#limits. `refusedUnread`: refused before the input is read or
 * copied, so the peak is the memory the input itself took (`baseRssMB`) plus little.
 */
export const BOUNDS_CASES = [
  { name: 'max-text', out: 67108864, peakMB: { native: 600, wasm: 900 } },
  { name: 'max-bytes', out: 67108864, peakMB: { native: 600, wasm: 900 } },
  { name: 'over-text', code: 'BODY_TOO_LARGE', refusedUnread: true },
  { name: 'over-bytes-1gib', code: 'BODY_TOO_LARGE', refusedUnread: true },
  { name: 'over-utf8', code: 'BODY_TOO_LARGE', peakMB: { native: 400, wasm: 400 } },
  { name: 'deep-text', code: 'INPUT_TOO_DEEP', peakMB: { native: 500, wasm: 700 } },
  { name: 'wide-text', out: 67108863, peakMB: { native: 1200, wasm: 1600 } },
  { name: 'max-value', out: 8388608, peakMB: { native: 400, wasm: 500 } },
  { name: 'over-value', code: 'BODY_TOO_LARGE', peakMB: { native: 500, wasm: 500 } },
  { name: 'deep-value', code: 'INPUT_TOO_DEEP', peakMB: { native: 400, wasm: 400 } },
  { name: 'dag-arrays', code: 'BODY_TOO_LARGE', peakMB: { native: 500, wasm: 500 } },
  { name: 'dag-input-commitment', code: 'BODY_TOO_LARGE', peakMB: { native: 200, wasm: 200 } },
  { name: 'shared-strings', code: 'BODY_TOO_LARGE', peakMB: { native: 500, wasm: 500 } },
];

/** Runs every bounds case against `entry` on `surface` ('native' | 'wasm'); returns [problems, reports]. */
export function boundsProblems(entry, surface) {
  const problems = [];
  const reports = [];
  for (const c of BOUNDS_CASES) {
    const r = boundsCase(entry, c.name);
    reports.push(r);
    if (r.crashed) {
      problems.push(`${c.name}: the process failed (status ${r.status}, signal ${r.signal}): ${r.stderr}`);
      continue;
    }
    if (c.code !== undefined && r.code !== c.code) problems.push(`${c.name}: ${r.code ?? `output of ${r.out} bytes`}, not ${c.code}`);
    if (c.out !== undefined && r.out !== c.out) problems.push(`${c.name}: ${r.code ?? `output of ${r.out} bytes`}, not ${c.out} bytes`);
    const ceiling = c.refusedUnread ? r.baseRssMB + 32 : c.peakMB[surface];
    if (!(r.peakRssMB <= ceiling)) problems.push(`${c.name}: peak ${r.peakRssMB} MB, more than ${ceiling} MB`);
  }
  return [problems, reports];
}

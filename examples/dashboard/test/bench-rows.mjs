// The row store's cost at scale (not a test): stores N rows like the sample's (ids of 9–20
// characters, a label, no message), then times a full listing, a search that matches nothing, a
// search that matches one row, the problems filter and reading every row back; prints the bytes the
// store holds. Usage: node bench-rows.mjs [N] [path of rows.js] (default: the page's own).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const N = Number(process.argv[2] || 100_000);
const mod = await import(process.argv[3] ? pathToFileURL(resolve(process.argv[3])).href : '../rows.js');
const { RowStore } = mod;

function row(n) {
  const id = String(n + 1).padStart(6, '0');
  return {
    n, offset: n * 1500, size: 1490, line: n + 1, kind: 'jws', status: n % 7 === 0 ? 'failed' : 'verified', passed: 11,
    failing: n % 7 === 0 ? [['iat_in_call_window', 'fail', 'iat lies outside the call window']] : [], code: null, needs: null,
    digest: (n * 2654435761 >>> 0).toString(16).padStart(8, '0').repeat(8), message: null,
    receiptId: `rcpt_${id}`, executionId: `ex_${id}`, provider: 'agt_pr0v1d3r9b', capability: 'cap_invoice_extract',
    issuedAt: '2026-11-29T18:40:05Z', label: `network-signed ${n % 13}`,
  };
}
const rows = Array.from({ length: N }, (_, n) => row(n));
const time = (f, reps = 5) => {
  const t = [];
  let r;
  for (let k = 0; k < reps; k++) {
    const t0 = process.hrtime.bigint();
    r = f();
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  t.sort((a, b) => a - b);
  return { ms: +t[0].toFixed(1), median: +t[Math.floor(reps / 2)].toFixed(1), r };
};
const store = new RowStore();
const set = time(() => { const s = new RowStore(); for (const r of rows) s.set(r.n, r); return s; }, 3);
for (const r of rows) store.set(r.n, r);
const arena = store.arena.length ? (store.arena.length - 1) * (4 << 20) + store.arenaPos : 0;
const columns = store.blocks.reduce((n, b) => n + Object.values(b).reduce((m, a) => m + a.byteLength, 0), 0);
const out = {
  rows: N,
  setMsPerRow: +(set.ms / N * 1000).toFixed(2) + ' µs',
  textBytesPerRow: +(arena / N).toFixed(1),
  columnBytesPerRow: +(columns / (store.blocks.length * 65536)).toFixed(1),
  all: time(() => store.select({ mode: 'all' }).length),
  problems: time(() => store.select({ mode: 'problems' }).length),
  searchNone: time(() => store.select({ mode: 'all', q: 'nothing-here' }).length),
  searchOne: time(() => store.select({ mode: 'all', q: 'rcpt_054321' }).length),
  searchMany: time(() => store.select({ mode: 'all', q: 'signed 3' }).length),
  getAll: time(() => { let k = 0; for (let i = 0; i < N; i++) k += store.get(i).index; return k; }, 3),
};
for (const v of Object.values(out)) if (v && typeof v === 'object') delete v.r;
console.log(JSON.stringify(out));

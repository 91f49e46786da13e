// The coordinator (a module Web Worker started by app.js): owns the receipts file, streams it in
// slices (never the whole file in memory), splits it into items (scan.js), hands batches of items
// to the verification workers (worker.js, one per core, up to eight), keeps one bounded row per item
// (rows.js) and answers the page: pages of rows, filters, search, the summary, the inspector (it
// re-reads an item from the file by its byte offset) and the export. The page's own thread only
// renders what it is sent.
//
// Messages in (each may carry `req`, answered by {type: 'reply', req, ok, value | error}):
//   {type: 'context', settings, jwks}           settings and JWKS bytes (or null) for later runs
//   {type: 'check', kind: 'jwks'|'settings', bytes}   checks a file with the core when it is loaded
//   {type: 'check-ring', secrets}               checks receipt secrets typed into the page
//   {type: 'run', file, name}                   checks a receipts file (cancels a run under way)
//   {type: 'cancel'}  {type: 'clear'}
//   {type: 'query', mode, check, q, order, page, size} a page of rows (order: 'problems' first, the default, or 'file')
//   {type: 'find', receipt?, item?}             the index of a row by receipt id or item number
//   {type: 'inspect', index}                    everything about one item
//   {type: 'neighbours', index, mode, check, q, order} the rows before and after it in a filtered list
//   {type: 'export', selection?}                the results as a JSON Blob: 'all' (default) or
//                                               'failures' (failed and unreadable items alone)
// Messages out without `req`: {type: 'progress' | 'done' | 'cancelled' | 'run-error', run, ...}.
import { Splitter } from './scan.js';
import { RowStore, emptySummary, count, exportParts, itemNumber, MAX_ROWS } from './rows.js';

const READ_BYTES = 512 * 1024; // one slice of the file
const BATCH_BYTES = 256 * 1024; // one batch for a verification worker (about 175 network-signed receipts)
const BATCH_ITEMS = 256;
const IN_FLIGHT = 2; // batches queued per verification worker
const PROGRESS_MS = 250; // a progress message to the page (issue 43: 100 ms cost the page and the compositor ~5 µs a receipt)

// ---- verification workers ---------------------------------------------------------------------
// One per core the browser reports (every core it is given), at most 8 (a wasm instance each).
const size = Math.max(1, Math.min(8, self.navigator.hardwareConcurrency || 2));
const workers = [];
let nextReq = 1;
const waiting = new Map(); // req -> {resolve, reject}

function startWorkers() {
  for (let i = 0; i < size; i++) {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.busy = 0;
    w.ready = new Promise((resolve, reject) => {
      w.onerror = (e) => reject(new Error(`a verification worker failed to start: ${e.message || 'WebAssembly could not be loaded'}`));
      w.onmessage = (e) => {
        if (e.data.type === 'ready') resolve();
        else onWorkerMessage(w, e.data);
      };
    });
    w.ready.catch(() => {});
    workers.push(w);
  }
}

function onWorkerMessage(w, msg) {
  if (msg.type === 'rows') {
    w.busy--;
    onRows(msg);
    return;
  }
  const p = waiting.get(msg.req);
  if (!p) return;
  waiting.delete(msg.req);
  if (msg.ok) p.resolve(msg.value);
  else p.reject(Object.assign(new Error(msg.error.message), msg.error));
}

function ask(w, msg, transfer = []) {
  const req = nextReq++;
  return new Promise((resolve, reject) => {
    waiting.set(req, { resolve, reject });
    w.postMessage({ ...msg, req }, transfer);
  });
}

async function anyWorker() {
  await Promise.all(workers.map((w) => w.ready));
  return workers.reduce((a, b) => (b.busy < a.busy ? b : a));
}

// ---- state --------------------------------------------------------------------------------------
let context = { settings: null, jwks: null };
let contextSeq = 0;
let run = null; // the current run
let runSeq = 0;
let rows = new RowStore();
let summary = emptySummary();
let file = null;
let fileName = '';
const slotWaiters = [];

function freeSlot() {
  const free = workers.filter((w) => w.busy < IN_FLIGHT);
  if (free.length === 0) return null;
  return free.reduce((a, b) => (b.busy < a.busy ? b : a));
}

function slotOpened() {
  while (slotWaiters.length && freeSlot()) slotWaiters.shift()();
}

function onRows(msg) {
  slotOpened();
  const r = run;
  // a cancelled run counts nothing more: the "cancelled" summary and the table stay as they were
  if (!r || msg.run !== r.id || !r.active) return;
  for (const row of msg.rows) {
    count(summary, row);
    if (rows.set(row.n, row)) summary.listed = rows.stored;
  }
  r.itemsDone += msg.rows.length;
  r.bytesInFlight -= msg.bytes;
  r.batchesOpen--;
  progress(r, false);
  if (r.batchesOpen === 0 && r.drained) r.finish();
}

function progress(r, force) {
  const now = performance.now();
  if (!force && now - r.lastProgress < PROGRESS_MS) return;
  r.lastProgress = now;
  self.postMessage({
    type: 'progress', run: r.id, name: r.name, bytes: Math.max(0, r.bytesRead - r.bytesInFlight), size: r.size,
    items: r.itemsDone, summary,
  });
}

// ---- a run ----------------------------------------------------------------------------------------
async function startRun(f, name) {
  cancelRun();
  const id = ++runSeq;
  rows = new RowStore();
  summary = emptySummary();
  file = f;
  fileName = name;
  const r = {
    id, name, size: f.size, bytesRead: 0, bytesInFlight: 0, itemsDone: 0, items: 0, batchesOpen: 0, drained: false,
    active: true, lastProgress: 0, t0: performance.now(), warnings: [], batch: null, context: contextSeq,
  };
  run = r;
  const finished = new Promise((resolve) => {
    r.finish = () => {
      if (!r.active) return;
      r.active = false;
      if (run === r) {
        progress(r, true);
        self.postMessage({ type: 'done', run: id, name, summary, warnings: r.warnings, ms: performance.now() - r.t0, items: r.items });
      }
      resolve();
    };
  });
  try {
    await Promise.all(workers.map((w) => w.ready));
    const splitter = new Splitter();
    let pos = 0;
    while (pos < f.size && r.active) {
      const end = Math.min(f.size, pos + READ_BYTES);
      let chunk;
      try {
        chunk = new Uint8Array(await f.slice(pos, end).arrayBuffer());
      } catch (e) {
        throw new Error(`${name} could not be read (${e && e.name ? e.name : 'error'}): was it changed or removed?`);
      }
      pos = end;
      r.bytesRead = pos;
      await dispatch(r, splitter.push(chunk));
    }
    if (!r.active) return;
    await dispatch(r, splitter.finish());
    await flush(r);
    r.warnings.push(...splitter.warnings);
    if (r.items === 0) r.warnings.push('the file holds no receipts');
    if (r.items > MAX_ROWS) r.warnings.push(`the file holds ${r.items.toLocaleString('en')} items: all are checked and counted, the first ${MAX_ROWS.toLocaleString('en')} are listed`);
    r.drained = true;
    if (r.batchesOpen === 0) r.finish();
    await finished;
  } catch (e) {
    if (run === r && r.active) {
      r.active = false;
      self.postMessage({ type: 'run-error', run: id, name, message: e.message || String(e) });
    }
  }
}

/** Adds items to the open batch; sends full batches, waiting for a free worker. */
async function dispatch(r, items) {
  for (const it of items) {
    if (!r.active) return;
    if (!r.batch) r.batch = { items: [], bytes: 0 };
    it.n = r.items++; // the splitter's items are fresh objects, ours to keep
    r.batch.items.push(it);
    r.batch.bytes += it.bytes ? it.bytes.length : 0;
    if (r.batch.bytes >= BATCH_BYTES || r.batch.items.length >= BATCH_ITEMS) await flush(r);
  }
}

async function flush(r) {
  const batch = r.batch;
  if (!batch || batch.items.length === 0) return;
  r.batch = null;
  let w = freeSlot();
  while (!w) {
    await new Promise((resolve) => slotWaiters.push(resolve));
    if (!r.active) return;
    w = freeSlot();
  }
  // One buffer for the batch, transferred (not copied) to the worker.
  const buf = new Uint8Array(batch.bytes);
  let at = 0;
  const meta = batch.items.map((it) => {
    const m = { n: it.n, offset: it.offset, size: it.size, line: it.line, tooLarge: it.tooLarge, incomplete: it.incomplete, s: at, e: at };
    if (it.bytes) {
      buf.set(it.bytes, at);
      at += it.bytes.length;
      m.e = at;
    }
    return m;
  });
  const bytes = batch.items.reduce((s, it) => s + it.size, 0);
  w.busy++;
  r.batchesOpen++;
  r.bytesInFlight += bytes;
  w.postMessage({ type: 'batch', run: r.id, buf: buf.buffer, items: meta, bytes }, [buf.buffer]);
}

function cancelRun() {
  const r = run;
  if (!r || !r.active) return false;
  r.active = false;
  r.batch = null;
  while (slotWaiters.length) slotWaiters.shift()();
  return true;
}

// ---- answers ----------------------------------------------------------------------------------------
let selection = { key: '', version: -1, indexes: [] };
let storeVersion = 0;

/** The indexes of the rows matching a filter, cached until the rows change. */
function select({ mode, check, q, order }) {
  const key = JSON.stringify([mode, check, q, order]);
  const version = `${rows.stored}/${summary.total}/${storeVersion}`;
  if (selection.key !== key || selection.version !== version || selection.store !== rows) {
    selection = { key, version, store: rows, indexes: rows.select({ mode, check, q, order }) };
  }
  return selection.indexes;
}

function query({ mode, check, q, order, page, size: pageSize }) {
  select({ mode, check, q, order });
  const total = selection.indexes.length;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(Math.max(0, page), pages - 1);
  const list = selection.indexes.slice(p * pageSize, (p + 1) * pageSize).map((i) => rows.get(i));
  return { total, page: p, pages, rows: list, summary, name: fileName };
}

async function inspect(index) {
  if (!file || !rows.has(index)) throw new Error('this receipt is not loaded (load its file first)');
  const row = rows.get(index);
  if (row.size > 1 << 20 || row.code === 'BODY_TOO_LARGE') return { ...row, checks: [], tooLarge: true };
  let bytes;
  try {
    bytes = new Uint8Array(await file.slice(row.offset, row.offset + row.size).arrayBuffer());
  } catch {
    throw new Error(`${fileName} could not be read again: was it changed or removed?`);
  }
  const w = await anyWorker();
  const detail = await ask(w, { type: 'inspect', bytes }, []);
  // The row's first cause and knock-on checks, as the list counted it.
  return { ...detail, cause: row.status === 'failed' ? row.cause : null, index: row.index, offset: row.offset, size: row.size, line: row.line, fileName };
}

function exportBlob(selection = 'all') {
  return new Blob(exportParts(rows, summary, fileName, selection), { type: 'application/json' });
}

async function handle(msg) {
  switch (msg.type) {
    case 'context': {
      context = { settings: msg.settings, jwks: msg.jwks };
      contextSeq++;
      await Promise.all(workers.map((w) => w.ready.then(() => ask(w, { type: 'context', settings: context.settings, jwks: context.jwks }))));
      return contextSeq;
    }
    case 'check':
      return ask(await anyWorker(), { type: `check-${msg.kind}`, bytes: msg.bytes });
    case 'check-ring':
      return ask(await anyWorker(), { type: 'check-ring', secrets: msg.secrets });
    case 'run':
      startRun(msg.file, msg.name);
      return runSeq;
    case 'cancel': {
      const r = run;
      const was = cancelRun();
      if (was) {
        await Promise.all(workers.map((w) => w.ready));
        self.postMessage({ type: 'cancelled', run: r.id, name: r.name, summary, items: r.itemsDone });
      }
      return was;
    }
    case 'clear':
      cancelRun();
      run = null;
      rows = new RowStore();
      summary = emptySummary();
      file = null;
      fileName = '';
      storeVersion++;
      return true;
    case 'query':
      return query(msg);
    case 'find': {
      if (msg.item !== undefined && msg.item !== null) {
        // Only a canonical item number (1, 2, …; never 0, -1, 0x1, 1e0, 01) names an item.
        const n = itemNumber(String(msg.item), rows.length);
        return n !== null && rows.has(n - 1) ? n - 1 : -1;
      }
      return rows.findReceipt(String(msg.receipt || ''));
    }
    case 'inspect':
      return inspect(msg.index);
    case 'neighbours': {
      const list = select(msg);
      const at = list.indexOf(msg.index);
      return { prev: at > 0 ? list[at - 1] : null, next: at >= 0 && at < list.length - 1 ? list[at + 1] : null, position: at + 1, of: list.length };
    }
    case 'export':
      return exportBlob(msg.selection || 'all');
    default:
      throw new Error(`unknown request ${msg.type}`);
  }
}

self.onmessage = async (e) => {
  const msg = e.data;
  try {
    const value = await handle(msg);
    if (msg.req !== undefined) self.postMessage({ type: 'reply', req: msg.req, ok: true, value });
  } catch (err) {
    if (msg.req !== undefined) {
      self.postMessage({ type: 'reply', req: msg.req, ok: false, error: { message: err.message || String(err), code: err.code || null, at: err.at ?? null } });
    }
  }
};

startWorkers();
Promise.all(workers.map((w) => w.ready)).then(
  () => self.postMessage({ type: 'ready', workers: workers.length }),
  (e) => self.postMessage({ type: 'fatal', message: e.message }),
);

// A verification worker (a module Web Worker started by coordinator.js): loads ekl-evidence (its
// WebAssembly build, the browser entry of the npm package), and checks batches of items with it.
// Messages in:
//   {type: 'context', req, settings, jwks}       the verification context (JWKS bytes or null)
//   {type: 'batch', run, buf, items, bytes}      items = [{n, offset, size, line, tooLarge, incomplete, s, e}]
//                                                (their bytes are buf[s..e]) → {type: 'rows', run, rows, bytes}
//   {type: 'inspect', req, bytes}                → the inspector's detail of one item
//   {type: 'check-jwks' | 'check-settings' | 'check-keyring', req, bytes}, {type: 'check-ring', req, secrets}
// Requests are answered with {type: 'reply', req, ok, value | error: {code, message, at}}.
import * as api from './vendor/ekl-evidence/index.web.mjs';
import { makeContext, checkBatch, inspectItem, checkJwks, checkSettings, checkKeyRing, checkKeyRingFile } from './verify.js';
import { MAX_ITEM_BYTES } from './scan.js';

let ctx = makeContext(api, null, null);

/** The row of an item that was not handed over whole. */
function boundRow(it) {
  const base = {
    kind: 'unknown', status: 'unreadable', failing: [], cause: null, passed: 0, digest: null, needs: null, at: null, receiptId: null,
    executionId: null, provider: null, capability: null, issuedAt: null, label: null,
  };
  if (it.tooLarge) {
    return { ...base, code: 'BODY_TOO_LARGE', message: `the item is ${it.size.toLocaleString('en')} bytes; the page reads items up to ${MAX_ITEM_BYTES.toLocaleString('en')} bytes (1 MiB)` };
  }
  return null;
}

function batch(msg) {
  const buf = new Uint8Array(msg.buf);
  const checked = checkBatch(api, buf, msg.items.map((it) => (it.tooLarge ? { skip: true } : it)), ctx);
  const rows = msg.items.map((it, k) => {
    const row = boundRow(it) || checked[k];
    // A value that never closes runs to the end of the file, taking every item after it: say so,
    // whatever else is wrong with it (too large, or not JSON).
    if (it.incomplete && row.status === 'unreadable' && (row.code === 'INVALID_JSON' || it.tooLarge)) {
      row.message = `${row.message} (the item never closes and runs to the end of the file: a bracket missing, or the file cut off? the items after it are not counted)`;
    }
    row.n = it.n;
    row.offset = it.offset;
    row.size = it.size;
    row.line = it.line;
    if (row.lineInItem) row.lineInItem = it.line + row.lineInItem - 1;
    return row;
  });
  self.postMessage({ type: 'rows', run: msg.run, rows, bytes: msg.bytes });
}

function answer(msg) {
  switch (msg.type) {
    case 'context':
      ctx = makeContext(api, msg.settings, msg.jwks);
      return true;
    case 'inspect':
      return inspectItem(api, msg.bytes, ctx);
    case 'check-jwks':
      return checkJwks(api, msg.bytes);
    case 'check-settings':
      return checkSettings(api, msg.bytes);
    case 'check-keyring':
      return checkKeyRingFile(api, msg.bytes);
    case 'check-ring': {
      const problem = checkKeyRing(api, msg.secrets);
      if (problem) throw Object.assign(new Error(problem.message), { code: problem.code, index: problem.index });
      return true;
    }
    default:
      throw new Error(`unknown request ${msg.type}`);
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'batch') {
    batch(msg);
    return;
  }
  try {
    self.postMessage({ type: 'reply', req: msg.req, ok: true, value: answer(msg) });
  } catch (e) {
    self.postMessage({
      type: 'reply', req: msg.req, ok: false,
      error: { code: e.code || null, message: String(e.message || e).replace(/^[A-Z0-9_]+: /, ''), at: e.at ?? null, index: e.index ?? null },
    });
  }
};
self.postMessage({ type: 'ready' });

// The dashboard page: file handling, settings, the worker pool, progress, summary, table, filters,
// export. Verification itself runs in worker.js (ekl-wasm); this thread only renders.
import { summarise } from './verify.js';

const $ = (id) => document.getElementById(id);
const PAGE = 100;
const CHUNK = 200;

const state = {
  receipts: null, // {name, text}
  jwks: null, // {name, text}
  results: [],
  page: 0,
  running: false,
};

// ---- messages ---------------------------------------------------------------------------------
function showError(message) {
  const el = $('alert');
  el.textContent = message;
  el.hidden = false;
}
function clearError() {
  $('alert').hidden = true;
  $('alert').textContent = '';
}
window.addEventListener('error', (e) => showError(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => showError(`Unexpected error: ${e.reason && e.reason.message ? e.reason.message : e.reason}`));

function updateLoaded() {
  const parts = [];
  if (state.receipts) parts.push(`receipts: ${state.receipts.name}`);
  if (state.jwks) parts.push(`JWKS: ${state.jwks.name}`);
  $('loaded').textContent = parts.join(' · ');
  $('verify').disabled = !state.receipts || state.running;
}

// ---- settings -------------------------------------------------------------------------------------
function readSettings() {
  const secrets = [];
  const lines = $('secrets').value.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const m = /^([^=\s]+)=(\S+)(?:\s+(\S+))?(?:\s+(\S+))?$/.exec(line);
    if (!m) throw new Error(`Receipt secrets, line ${i + 1}: expected key_id=secret [valid_from [valid_until]]`);
    secrets.push({ key_id: m[1], secret: m[2], valid_from: m[3], valid_until: m[4] });
  }
  return { agent_id: $('agent-id').value.trim(), issuer: $('issuer').value.trim(), receipt_secrets: secrets };
}

function applySettings(name, text) {
  let s;
  try {
    s = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not JSON: ${e.message}`);
  }
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error(`${name} is not a settings object ({"agent_id", "issuer", "receipt_secrets"})`);
  const secrets = s.receipt_secrets ?? [];
  if (!Array.isArray(secrets) || secrets.some((x) => !x || typeof x.key_id !== 'string' || typeof x.secret !== 'string')) {
    throw new Error(`${name}: receipt_secrets must be a list of {"key_id", "secret"[, "valid_from", "valid_until"]}`);
  }
  if (s.agent_id !== undefined && typeof s.agent_id !== 'string') throw new Error(`${name}: agent_id must be a string`);
  if (s.issuer !== undefined && typeof s.issuer !== 'string') throw new Error(`${name}: issuer must be a string`);
  $('agent-id').value = s.agent_id ?? '';
  $('issuer').value = s.issuer ?? '';
  $('secrets').value = secrets.map((x) => [`${x.key_id}=${x.secret}`, x.valid_from, x.valid_until].filter(Boolean).join(' ')).join('\n');
}

function checkJwks(name, text) {
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name} is not JSON: ${e.message}`);
  }
  if (!j || typeof j !== 'object' || !Array.isArray(j.keys)) throw new Error(`${name} is not a JWKS: it needs a "keys" array`);
}

// ---- files ----------------------------------------------------------------------------------------
async function readFile(file) {
  if (file.size > 512 * 1024 * 1024) throw new Error(`${file.name} is larger than 512 MB`);
  return file.text();
}

/** What a dropped file is, from its content: 'jwks', 'settings' or 'receipts'. */
function classify(text) {
  const t = text.trimStart();
  if (t[0] === '{' && !/\n\s*\{/.test(t.trimEnd())) {
    try {
      const j = JSON.parse(t);
      if (Array.isArray(j.keys)) return 'jwks';
      if ('agent_id' in j || 'issuer' in j || 'receipt_secrets' in j) return 'settings';
    } catch { /* receipts or a bad file: the receipts path reports it */ }
  }
  return 'receipts';
}

async function load(kind, file) {
  const text = await readFile(file);
  accept(kind, file.name, text);
}

function accept(kind, name, text) {
  clearError();
  if (kind === 'jwks') {
    checkJwks(name, text);
    state.jwks = { name, text };
  } else if (kind === 'settings') {
    applySettings(name, text);
  } else {
    state.receipts = { name, text };
  }
  updateLoaded();
  if (state.receipts) verify();
}

function guard(f) {
  return async (...args) => {
    try {
      await f(...args);
    } catch (e) {
      showError(e.message || String(e));
    }
  };
}

for (const [id, kind] of [['file-receipts', 'receipts'], ['file-jwks', 'jwks'], ['file-settings', 'settings']]) {
  $(id).addEventListener('change', guard(async (e) => {
    const file = e.target.files[0];
    try {
      if (file) await load(kind, file);
    } finally {
      e.target.value = '';
    }
  }));
}

const drop = $('drop');
drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', guard(async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const files = [...e.dataTransfer.files];
  const texts = await Promise.all(files.map(async (f) => ({ name: f.name, text: await readFile(f) })));
  // Settings and keys first, so that the receipts are verified with them.
  const order = { settings: 0, jwks: 1, receipts: 2 };
  const sorted = texts.map((t) => ({ ...t, kind: classify(t.text) })).sort((a, b) => order[a.kind] - order[b.kind]);
  for (const t of sorted) accept(t.kind, t.name, t.text);
}));

$('load-sample').addEventListener('click', guard(async () => {
  const get = async (name) => {
    const r = await fetch(`sample/${name}`);
    if (!r.ok) throw new Error(`the sample file ${name} could not be loaded (${r.status}); run scripts/demo.d/50-dashboard.sh`);
    return r.text();
  };
  const [settings, jwks, receipts] = await Promise.all(['settings.json', 'jwks.json', 'receipts.jsonl'].map(get));
  accept('settings', 'sample/settings.json', settings);
  accept('jwks', 'sample/jwks.json', jwks);
  accept('receipts', 'sample/receipts.jsonl', receipts);
}));
$('verify').addEventListener('click', guard(() => verify()));
$('settings').addEventListener('change', () => { if (state.receipts && !state.running) verify(); });

// ---- workers --------------------------------------------------------------------------------------
let pool = null;

function startPool() {
  const n = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  const workers = [];
  for (let i = 0; i < n; i++) {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    w.ready = new Promise((resolve, reject) => {
      w.addEventListener('message', function first(e) {
        if (e.data.type === 'ready') { w.removeEventListener('message', first); resolve(); }
      });
      w.addEventListener('error', (e) => reject(new Error(`the verification worker failed to start: ${e.message || 'WebAssembly could not be loaded'}`)));
    });
    workers.push(w);
  }
  return workers;
}

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    const on = (e) => {
      if (e.data.type === 'ready') return;
      worker.removeEventListener('message', on);
      if (e.data.type === 'error') reject(new Error(e.data.message));
      else resolve(e.data);
    };
    worker.addEventListener('message', on);
    worker.postMessage(message);
  });
}

async function verify() {
  if (state.running) return;
  clearError();
  let settings;
  try {
    settings = readSettings();
  } catch (e) {
    showError(e.message);
    return;
  }
  state.running = true;
  updateLoaded();
  const progress = $('progress');
  progress.value = 0;
  progress.max = 1;
  $('progress-text').textContent = 'Reading the receipts…';
  const t0 = performance.now();
  try {
    pool = pool || startPool();
    await Promise.all(pool.map((w) => w.ready));
    const { items } = await ask(pool[0], { type: 'split', text: state.receipts.text })
      .catch((e) => { throw new Error(`${state.receipts.name}: ${e.message}`); });
    await Promise.all(pool.map((w) => ask(w, { type: 'context', settings, jwksText: state.jwks ? state.jwks.text : null })));
    const total = items.length;
    progress.max = Math.max(total, 1);
    const results = new Array(total);
    let done = 0;
    let next = 0;
    const run = async (w) => {
      while (next < total) {
        const offset = next;
        next += CHUNK;
        const reply = await ask(w, { type: 'verify', offset, items: items.slice(offset, offset + CHUNK) });
        for (let i = 0; i < reply.results.length; i++) results[offset + i] = reply.results[i];
        done += reply.results.length;
        progress.value = done;
        $('progress-text').textContent = `${done.toLocaleString('en')} / ${total.toLocaleString('en')} verified`;
      }
    };
    await Promise.all(pool.map(run));
    if (total === 0) progress.value = 1;
    const ms = performance.now() - t0;
    state.results = results.map((r, i) => ({ index: i + 1, ...r }));
    state.page = 0;
    $('progress-text').textContent = `${total.toLocaleString('en')} / ${total.toLocaleString('en')} verified`;
    $('timing').textContent = `in ${(ms / 1000).toFixed(2)} s with ${pool.length} worker${pool.length > 1 ? 's' : ''}`;
    document.body.dataset.verifyMs = String(Math.round(ms));
    render();
    document.body.dataset.state = 'done';
  } catch (e) {
    showError(e.message || String(e));
    $('progress-text').textContent = 'Not verified.';
    document.body.dataset.state = 'error';
  } finally {
    state.running = false;
    updateLoaded();
  }
}

// ---- rendering ------------------------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function filtered() {
  const mode = document.querySelector('input[name=filter]:checked').value;
  const check = $('filter-check').value;
  return state.results.filter((r) => {
    if (mode === 'failed' && r.accepted) return false;
    if (check) {
      if (check.startsWith('error:')) return r.error && r.error.code === check.slice(6);
      return r.checks.some((c) => c.name === check && c.outcome !== 'pass');
    }
    return true;
  });
}

function render() {
  const s = summarise(state.results);
  $('summary').hidden = false;
  $('results').hidden = false;
  $('count-total').textContent = s.total;
  $('count-verified').textContent = s.verified;
  $('count-failed').textContent = s.failed;
  $('count-errors').textContent = s.unreadable;
  const by = $('by-check');
  by.replaceChildren();
  const select = $('filter-check');
  const current = select.value;
  select.replaceChildren(el('option', { value: '', text: 'any' }));
  const entries = [...Object.entries(s.byCheck).map(([k, n]) => [k, n, k]),
    ...Object.entries(s.byError).map(([k, n]) => [`error:${k}`, n, `unreadable: ${k}`])].sort((a, b) => b[1] - a[1]);
  for (const [key, n, label] of entries) {
    const b = el('button', { type: 'button', 'data-check': key }, `${label} `, el('b', { text: String(n) }));
    b.addEventListener('click', () => { select.value = key; state.page = 0; renderTable(); });
    by.append(b);
    select.append(el('option', { value: key, text: `${label} (${n})` }));
  }
  if (entries.length === 0) by.append(el('span', { class: 'ok', text: 'No check failed.' }));
  select.value = [...select.options].some((o) => o.value === current) ? current : '';
  renderTable();
}

function renderTable() {
  const rows = filtered();
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  state.page = Math.min(state.page, pages - 1);
  const tbody = $('table').tBodies[0];
  const frag = document.createDocumentFragment();
  for (const r of rows.slice(state.page * PAGE, (state.page + 1) * PAGE)) {
    const verdict = r.error ? `unreadable (${r.error.code})` : r.accepted ? 'verified' : 'failed';
    const cls = r.error ? 'error' : r.accepted ? 'accepted' : 'rejected';
    const checks = el('td', { class: 'checks' });
    const sorted = [...r.checks].sort((a, b) => (a.outcome === 'pass') - (b.outcome === 'pass'));
    for (const c of sorted) {
      checks.append(el('span', { class: `check ${c.outcome}`, 'data-check': c.name, 'data-outcome': c.outcome,
        title: c.detail || c.outcome, text: `${c.name}: ${c.outcome}` }));
    }
    if (r.error) checks.append(el('div', { class: 'detail', text: r.error.message }));
    for (const c of sorted) if (c.detail && c.outcome !== 'pass') checks.append(el('div', { class: 'detail', text: `${c.name}: ${c.detail}` }));
    frag.append(el('tr', { 'data-index': String(r.index), 'data-verdict': cls },
      el('td', { text: String(r.index) }), el('td', { text: r.kind }),
      el('td', { class: `verdict ${cls}`, text: verdict }),
      el('td', { class: 'digest', title: r.receipt_digest || '', text: r.receipt_digest || '—' }), checks));
  }
  tbody.replaceChildren(frag);
  $('page').textContent = `page ${state.page + 1} of ${pages} · ${rows.length} row${rows.length === 1 ? '' : 's'}`;
  $('prev').disabled = state.page === 0;
  $('next').disabled = state.page >= pages - 1;
}

for (const r of document.querySelectorAll('input[name=filter]')) r.addEventListener('change', () => { state.page = 0; renderTable(); });
$('filter-check').addEventListener('change', () => { state.page = 0; renderTable(); });
$('prev').addEventListener('click', () => { state.page--; renderTable(); });
$('next').addEventListener('click', () => { state.page++; renderTable(); });
$('export').addEventListener('click', () => {
  const blob = new Blob([JSON.stringify({ summary: summarise(state.results), results: state.results }, null, 2)],
    { type: 'application/json' });
  const a = el('a', { href: URL.createObjectURL(blob), download: 'receipt-verification.json' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
});

document.body.dataset.state = 'idle';
updateLoaded();
// The README's demo opens the page with #sample: load the sample set at once.
if (location.hash === '#sample') $('load-sample').click();
window.addEventListener('hashchange', () => { if (location.hash === '#sample') $('load-sample').click(); });

// The dashboard page: inputs (each with its own state), settings, progress, summary, the table of
// receipts, the inspector, deep links. Everything heavy runs in the coordinator worker
// (coordinator.js) and its verification workers; this thread renders one page of rows at a time.
// Every value from a file is written with textContent (never as HTML).
import { topMembers } from './json.js';
import { shown, shownField, ITEM_NUMBER } from './rows.js';
import { checkWords, causeLabel, causeWords, blockedWords, REASON_WORDS } from './checks.js';
import { MAX_RECEIPTS_BYTES, MAX_SMALL_BYTES, PASTE_NAME, size, pastedFile, editable } from './inputs.js';

const $ = (id) => document.getElementById(id);
const phone = window.matchMedia('(max-width: 700px)');
const pageSize = () => (phone.matches ? 20 : 50);
const nf = new Intl.NumberFormat('en');
const n = (x) => nf.format(x);

// ---- rendering helpers -------------------------------------------------------------------------
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'hidden') e.hidden = true;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/**
 * A value's shown text (rows.js shown(): every backslash in it begins an escape) as nodes, each
 * escape (\uXXXX, \\) in a marked span, so that an escaped character stands out from the text
 * around it. The text content stays the shown text.
 */
function escNodes(t) {
  if (t === null || t === undefined) return [];
  if (!t.includes('\\')) return [t];
  const out = [];
  let at = 0;
  for (const m of t.matchAll(/\\u[0-9a-f]{4}|\\\\/g)) {
    if (m.index > at) out.push(t.slice(at, m.index));
    out.push(el('span', { class: 'esc', text: m[0] }));
    at = m.index + m[0].length;
  }
  if (at < t.length) out.push(t.slice(at));
  return out;
}

const pad = (x) => String(x).padStart(2, '0');
const localFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'local';

/** A time (RFC 3339 text or seconds) as {local, utc}, or null when it is not one. */
export function times(v) {
  let ms;
  if (typeof v === 'number' && Number.isFinite(v)) ms = v * 1000;
  else if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v)) ms = Date.parse(v);
  else return null;
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const utc = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
  return { local: `${localFmt.format(d)} (${zone})`, utc };
}

// ---- the coordinator ------------------------------------------------------------------------------
const coordinator = new Worker(new URL('./coordinator.js', import.meta.url), { type: 'module' });
let nextReq = 1;
const pending = new Map();
let workersReady;
const ready = new Promise((resolve, reject) => { workersReady = { resolve, reject }; });
ready.catch(() => {});

function ask(msg, transfer = []) {
  const req = nextReq++;
  return new Promise((resolve, reject) => {
    pending.set(req, { resolve, reject });
    coordinator.postMessage({ ...msg, req }, transfer);
  });
}

coordinator.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'reply') {
    const p = pending.get(m.req);
    if (!p) return;
    pending.delete(m.req);
    if (m.ok) p.resolve(m.value);
    else p.reject(Object.assign(new Error(m.error.message), m.error));
  } else if (m.type === 'ready') {
    workersReady.resolve();
  } else if (m.type === 'fatal') {
    workersReady.reject(new Error(m.message));
    showAlert(`The verification workers could not start: ${m.message}`);
  } else if (m.type === 'progress') onProgress(m);
  else if (m.type === 'done') onDone(m);
  else if (m.type === 'cancelled') onCancelled(m);
  else if (m.type === 'run-error') onRunError(m);
};
coordinator.onerror = (e) => {
  showAlert(`The verification worker failed: ${e.message || 'WebAssembly could not be loaded'}`);
  workersReady.reject(new Error('worker failed'));
};

// ---- page state -----------------------------------------------------------------------------------
const state = {
  receipts: { status: 'empty' }, // {status: empty|checking|done|cancelled|error, name, size, file, message}
  jwks: { status: 'empty' }, // {status: empty|ok|error, name, kids, bytes, message, active: {name, bytes, kids}}
  settings: { status: 'empty' }, // {status: empty|ok|error|typed, name, message}
  runId: 0,
  running: false,
  filter: { mode: 'all', check: '', q: '', order: 'problems' },
  page: 0,
  view: null, // the last query answer
  summary: null,
  openIndex: null, // the item index (0-based) in the inspector
  pendingOpen: null, // a deep link waiting for its file
  lastAnnounced: -1,
};

function showAlert(message) {
  const a = $('alert');
  a.textContent = message;
  a.hidden = false;
}
function clearAlert() {
  $('alert').hidden = true;
  $('alert').textContent = '';
}
function announce(text) {
  // Re-set the text so that a repeated message is announced again.
  const s = $('status');
  s.textContent = '';
  requestAnimationFrame(() => { s.textContent = text; });
}
window.addEventListener('error', (e) => showAlert(`Unexpected error: ${e.message}`));
window.addEventListener('unhandledrejection', (e) => showAlert(`Unexpected error: ${e.reason && e.reason.message ? e.reason.message : e.reason}`));

/** "name, line N: CODE — message" for an error of a file. */
function fileError(name, err, bytes) {
  const line = err.at !== null && err.at !== undefined && bytes ? lineOf(bytes, err.at) : null;
  return `${name}${line ? `, line ${line}` : ''}: ${err.code ? `${err.code} — ` : ''}${err.message}`;
}
function lineOf(bytes, offset) {
  let line = 1;
  for (let i = 0; i < Math.min(offset, bytes.length); i++) if (bytes[i] === 10) line++;
  return line;
}

// ---- the three inputs -------------------------------------------------------------------------------
function renderInputs() {
  const r = state.receipts;
  const rc = $('card-receipts');
  rc.dataset.state = r.status;
  $('state-receipts').textContent = {
    empty: 'No file yet.',
    checking: `${r.name} (${size(r.size)}): checking…`,
    done: `${r.name} (${size(r.size)}): ${n(r.items ?? 0)} item${r.items === 1 ? '' : 's'} checked.`,
    cancelled: `${r.name} (${size(r.size)}): cancelled after ${n(r.items ?? 0)} items.`,
    error: r.message,
  }[r.status];
  const j = state.jwks;
  $('card-jwks').dataset.state = j.status;
  const active = j.active ? `${j.active.name}: ${j.active.kids.length} key${j.active.kids.length === 1 ? '' : 's'} (${j.active.kids.join(', ')})` : null;
  const stop = (t) => (/[.!?)]$/.test(t) ? t : `${t}.`);
  $('state-jwks').textContent = j.status === 'error'
    ? `${stop(j.message)}${active ? ` Still using ${active}.` : ' Not used.'}`
    : active ? `${active}.` : 'No key set yet (needed for network-signed receipts).';
  document.querySelector('[data-remove="jwks"]').hidden = !j.active && j.status !== 'error';
  const s = state.settings;
  $('card-settings').dataset.state = s.status;
  const keys = readSecrets().length;
  const summary = `agent ${$('agent-id').value.trim() || '(none)'}, issuer ${$('issuer').value.trim() || '(none)'}, ${keys} receipt key${keys === 1 ? '' : 's'}`;
  $('state-settings').textContent = s.status === 'error' ? s.message
    : s.status === 'ok' ? `${s.name}: ${summary}.`
      : s.status === 'typed' ? `${s.name ? `${s.name}, edited below` : 'Entered below'}: ${summary}.` : 'No settings yet: load a file or enter them below.';
}

/** What a file is, from its name and content: 'jwks', 'settings' or 'receipts'. */
async function classify(file) {
  if (file.size > MAX_SMALL_BYTES) return { kind: 'receipts' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  // Only to tell the kinds apart: no depth bound here (the worker reads the file with the
  // package's MAX_DEPTH, the manifest's, and refuses a deeper one).
  const top = topMembers(bytes, Infinity);
  if (top.members) {
    const keys = new Set(top.members.map(([k]) => k));
    const receiptish = keys.has('receipt') || keys.has('receipt_jws') || keys.has('call');
    if (!receiptish && keys.has('keys')) return { kind: 'jwks', bytes };
    if (!receiptish && (keys.has('agent_id') || keys.has('issuer') || keys.has('receipt_secrets'))) return { kind: 'settings', bytes };
    return { kind: 'receipts', bytes };
  }
  // Not one JSON object: the CLI's key ring file (a list of keys, or the registration secret as a
  // JSON string), else a guess from the text, so that a broken JWKS is reported as a JWKS.
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  if (/^\uFEFF?\s*\[\s*\{/.test(head) && /"key_id"\s*:/.test(head) && /"secret"\s*:/.test(head) && !/"(receipt|receipt_jws|call)"\s*:/.test(head)) {
    return { kind: 'keyring', bytes };
  }
  if (!/"(receipt|receipt_jws|call)"\s*:/.test(head)) {
    if (/"keys"\s*:/.test(head)) return { kind: 'jwks', bytes };
    if (/"(agent_id|issuer|receipt_secrets)"\s*:/.test(head)) return { kind: 'settings', bytes };
  }
  return { kind: 'receipts', bytes };
}

/**
 * Whether a file chosen as settings is the CLI's key ring: a list of keys, or the registration
 * secret alone as a JSON string (only through the Settings chooser: a dropped or pasted string is
 * never taken for a secret).
 */
async function isKeyRing(file) {
  if ((await classify(file)).kind === 'keyring') return true;
  return file.size < 4096 && /^\uFEFF?\s*"[^"\n]*"\s*$/.test(await file.text());
}

async function smallBytes(file) {
  if (file.size > MAX_SMALL_BYTES) {
    throw Object.assign(new Error(`the file is ${size(file.size)}; a JWKS or settings file is at most 1 MB`), { code: 'BODY_TOO_LARGE' });
  }
  return new Uint8Array(await file.arrayBuffer());
}

async function loadJwks(file, bytes) {
  const name = file.name;
  try {
    bytes = bytes || await smallBytes(file);
    await ready;
    const { kids } = await ask({ type: 'check', kind: 'jwks', bytes });
    state.jwks = { status: 'ok', active: { name, kids, bytes } };
    renderInputs();
    announce(`JWKS ${name} loaded: ${kids.length} key${kids.length === 1 ? '' : 's'}.`);
    await pushContext();
  } catch (e) {
    state.jwks = { ...state.jwks, status: 'error', message: fileError(name, e, bytes) };
    renderInputs();
    announce(`The JWKS ${name} was not loaded: ${e.message}`);
  }
}

async function loadSettings(file, bytes) {
  const name = file.name;
  try {
    bytes = bytes || await smallBytes(file);
    await ready;
    const s = await ask({ type: 'check', kind: 'settings', bytes });
    $('agent-id').value = s.agent_id;
    $('issuer').value = s.issuer;
    renderSecrets(s.receipt_secrets);
    state.settings = { status: 'ok', name };
    $('settings-error').hidden = true;
    renderInputs();
    announce(`Settings ${name} loaded.`);
    await pushContext();
  } catch (e) {
    state.settings = { status: 'error', name, message: `${fileError(name, e, bytes)} (the settings were not changed)` };
    renderInputs();
    announce(`The settings ${name} were not loaded: ${e.message}`);
  }
}

/** The CLI's key ring file: its keys become the receipt secrets (agent id and issuer unchanged). */
async function loadKeyRing(file, bytes) {
  const name = file.name;
  try {
    bytes = bytes || await smallBytes(file);
    await ready;
    const s = await ask({ type: 'check', kind: 'keyring', bytes });
    renderSecrets(s.receipt_secrets);
    state.settings = { status: 'ok', name: `${name} (key ring)` };
    $('settings-error').hidden = true;
    renderInputs();
    announce(`Key ring ${name} loaded: ${s.receipt_secrets.length} key${s.receipt_secrets.length === 1 ? '' : 's'}.`);
    await pushContext();
  } catch (e) {
    state.settings = { status: 'error', name, message: `${fileError(name, e, bytes)} (the settings were not changed)` };
    renderInputs();
    announce(`The key ring ${name} was not loaded: ${e.message}`);
  }
}

function loadReceipts(file) {
  if (file.size > MAX_RECEIPTS_BYTES) {
    state.receipts = { status: 'error', message: `${file.name}: BODY_TOO_LARGE — the file is ${size(file.size)}; the page reads receipts files up to 512 MB.` };
    renderInputs();
    announce(state.receipts.message);
    return;
  }
  state.receipts = { status: 'checking', name: file.name, size: file.size, file };
  state.page = 0;
  closeInspector(false);
  startRun();
}

/** Files from the chooser or a drop, in a careful order: settings, then the JWKS, then receipts. */
async function takeFiles(files) {
  clearAlert();
  const list = [...files];
  if (list.length === 0) return;
  const typed = [];
  for (const f of list) typed.push({ file: f, ...(await classify(f)) });
  const order = { settings: 0, keyring: 1, jwks: 2, receipts: 3 };
  typed.sort((a, b) => order[a.kind] - order[b.kind]);
  const receipts = typed.filter((t) => t.kind === 'receipts');
  if (receipts.length > 1) showAlert(`One receipts file at a time: checking ${receipts[0].file.name}; not ${receipts.slice(1).map((t) => t.file.name).join(', ')}.`);
  for (const t of typed) {
    if (t.kind === 'settings') await loadSettings(t.file, t.bytes);
    else if (t.kind === 'keyring') await loadKeyRing(t.file, t.bytes);
    else if (t.kind === 'jwks') await loadJwks(t.file, t.bytes);
  }
  if (receipts.length) loadReceipts(receipts[0].file);
}

for (const b of document.querySelectorAll('button.pick')) {
  b.addEventListener('click', () => $(b.dataset.for).click());
}
for (const [id, kind] of [['file-receipts', 'receipts'], ['file-jwks', 'jwks'], ['file-settings', 'settings']]) {
  $(id).addEventListener('change', async (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (!file) return;
    clearAlert();
    if (kind === 'receipts') loadReceipts(file);
    else if (kind === 'jwks') await loadJwks(file);
    else if (await isKeyRing(file)) await loadKeyRing(file);
    else await loadSettings(file);
  });
}
$('drop').addEventListener('click', () => $('file-any').click());
$('file-any').addEventListener('change', async (e) => {
  const files = [...e.target.files];
  e.target.value = '';
  await takeFiles(files);
});
document.querySelector('[data-remove="jwks"]').addEventListener('click', async () => {
  state.jwks = { status: 'empty' };
  renderInputs();
  await pushContext();
});

// Drops anywhere on the page; the browser never opens a dropped file itself.
let dragDepth = 0;
const hasFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
window.addEventListener('dragenter', (e) => {
  if (!hasFiles(e)) return;
  e.preventDefault();
  dragDepth++;
  document.body.classList.add('dragging');
});
window.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (dragDepth === 0) document.body.classList.remove('dragging');
});
window.addEventListener('dragover', (e) => {
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = hasFiles(e) ? 'copy' : 'none';
});
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  document.body.classList.remove('dragging');
  if (e.dataTransfer && e.dataTransfer.files.length) takeFiles(e.dataTransfer.files);
});

// Pasted text: the paste box (its button, or a paste into it), or a paste anywhere on the page that
// is not into a field. It becomes a File (inputs.js) and takes the path of a chosen file: classified
// (receipts, a JWKS, settings), bounded, split and verified the same way, refused with the same codes.
async function takePaste(text) {
  clearAlert();
  let file;
  try {
    file = pastedFile(text);
  } catch (e) {
    state.receipts = { status: 'error', message: `${PASTE_NAME}: ${e.code} — ${e.message}.` };
    renderInputs();
    announce(state.receipts.message);
    return;
  }
  await takeFiles([file]);
}
$('paste-toggle').addEventListener('click', () => {
  const open = $('paste-box').hidden;
  $('paste-box').hidden = !open;
  $('paste-toggle').setAttribute('aria-expanded', String(open));
  if (open) $('paste-text').focus();
});
$('paste-check').addEventListener('click', () => takePaste($('paste-text').value));
$('paste-text').addEventListener('paste', (e) => {
  // A paste into the empty box is checked at once, and not shown in it (a large paste would make the
  // box slow to lay out); text pasted into text already there, or typed, when the button is pressed.
  const box = $('paste-text');
  const whole = box.value === '' || (box.selectionStart === 0 && box.selectionEnd === box.value.length);
  if (!whole || !e.clipboardData) return;
  e.preventDefault();
  if (e.clipboardData.files && e.clipboardData.files.length) takeFiles(e.clipboardData.files);
  else takePaste(e.clipboardData.getData('text/plain'));
});
document.addEventListener('paste', (e) => {
  if (editable(e.target) || !e.clipboardData) return;
  if (e.clipboardData.files && e.clipboardData.files.length) {
    e.preventDefault();
    takeFiles(e.clipboardData.files);
    return;
  }
  const text = e.clipboardData.getData('text/plain');
  if (!text) return;
  e.preventDefault();
  takePaste(text);
});

$('load-sample').addEventListener('click', () => loadSample());
async function loadSample() {
  clearAlert();
  try {
    const get = async (name) => {
      const r = await fetch(`sample/${name}`);
      if (!r.ok) throw new Error(`the sample file ${name} could not be loaded (${r.status}); run scripts/demo.d/50-dashboard.sh`);
      return new File([await r.blob()], `sample/${name}`);
    };
    const [settings, jwks, receipts] = await Promise.all(['settings.json', 'jwks.json', 'receipts.jsonl'].map(get));
    await loadSettings(settings);
    await loadJwks(jwks);
    loadReceipts(receipts);
  } catch (e) {
    showAlert(e.message);
  }
}

$('clear').addEventListener('click', async () => {
  await ask({ type: 'clear' });
  state.runId++;
  state.running = false;
  state.receipts = { status: 'empty' };
  state.jwks = { status: 'empty' };
  state.settings = { status: 'empty' };
  state.summary = null;
  state.view = null;
  state.filter = { mode: 'all', check: '', q: '', order: 'problems' };
  $('search').value = '';
  $('order').value = 'problems';
  $('paste-text').value = '';
  document.querySelector('input[name=filter][value=all]').checked = true;
  $('agent-id').value = '';
  $('issuer').value = '';
  renderSecrets([]);
  $('settings-error').hidden = true;
  closeInspector(false);
  clearAlert();
  $('summary').hidden = true;
  $('results').hidden = true;
  document.body.classList.remove('has-results');
  $('progress').value = 0;
  $('progress').max = 1;
  $('progress-text').textContent = 'Nothing checked yet.';
  $('cancel').hidden = true;
  document.body.dataset.state = 'idle';
  renderInputs();
  await pushContext(false);
  announce('Cleared: no files loaded.');
});

// ---- settings (typed) --------------------------------------------------------------------------------
function secretRow(k = {}) {
  const reveal = $('reveal').checked;
  const input = (name, value, label, type = 'text') => el('input', {
    name, value: value || '', type, 'aria-label': label, spellcheck: 'false', autocomplete: type === 'password' ? 'new-password' : 'off',
    placeholder: name.startsWith('valid') ? 'YYYY-MM-DDTHH:MM:SSZ' : null,
  });
  const tr = el('tr', {},
    el('td', {}, input('key_id', k.key_id, 'Key id')),
    el('td', {}, input('secret', k.secret, 'Secret', reveal ? 'text' : 'password')),
    el('td', {}, input('valid_from', k.valid_from, 'Valid from')),
    el('td', {}, input('valid_until', k.valid_until, 'Valid until')),
    el('td', {}, el('button', { type: 'button', class: 'remove-key', 'aria-label': 'Remove this key', text: 'Remove' })));
  tr.querySelector('.remove-key').addEventListener('click', () => { tr.remove(); settingsChanged(); });
  return tr;
}
function renderSecrets(list) {
  $('secrets').replaceChildren(...list.map(secretRow));
}
function readSecrets() {
  return [...$('secrets').rows].map((tr) => {
    const v = (name) => tr.querySelector(`[name=${name}]`).value.trim();
    return { key_id: v('key_id'), secret: tr.querySelector('[name=secret]').value, valid_from: v('valid_from') || undefined, valid_until: v('valid_until') || undefined };
  }).filter((k) => k.key_id || k.secret);
}
function readSettings() {
  return { agent_id: $('agent-id').value.trim(), issuer: $('issuer').value.trim(), receipt_secrets: readSecrets() };
}
$('add-secret').addEventListener('click', () => {
  const tr = secretRow();
  $('secrets').append(tr);
  tr.querySelector('input').focus();
});
$('reveal').addEventListener('change', () => {
  for (const i of $('secrets').querySelectorAll('[name=secret]')) i.type = $('reveal').checked ? 'text' : 'password';
});
let settingsTimer = null;
function settingsChanged() {
  clearTimeout(settingsTimer);
  settingsTimer = setTimeout(async () => {
    const secrets = readSecrets();
    const bad = secrets.findIndex((k) => !k.key_id || !k.secret);
    const err = $('settings-error');
    if (bad >= 0) {
      err.textContent = `Key ${bad + 1}: a key needs both a key id and a secret.`;
      err.hidden = false;
      return;
    }
    try {
      await ready;
      await ask({ type: 'check-ring', secrets });
    } catch (e) {
      err.textContent = `${e.code ? `${e.code} — ` : ''}${e.message.replace(/^receipt_secrets\[(\d+)\]/, (_, i) => `Key ${Number(i) + 1}`)}`;
      err.hidden = false;
      return;
    }
    err.hidden = true;
    state.settings = { status: 'typed', name: state.settings.status === 'ok' || state.settings.status === 'typed' ? state.settings.name : undefined };
    renderInputs();
    await pushContext();
  }, 350);
}
$('settings').addEventListener('input', settingsChanged);
$('settings').addEventListener('submit', (e) => e.preventDefault());

/** Sends the settings and the active JWKS to the workers; re-checks the receipts when loaded. */
async function pushContext(rerun = true) {
  await ready;
  const jwks = state.jwks.active ? state.jwks.active.bytes : null;
  await ask({ type: 'context', settings: readSettings(), jwks });
  if (rerun && state.receipts.file && state.receipts.status !== 'error') {
    state.receipts = { ...state.receipts, status: 'checking' };
    startRun();
  }
}

// ---- runs ---------------------------------------------------------------------------------------------
async function startRun() {
  const r = state.receipts;
  state.running = true;
  state.lastAnnounced = -1;
  state.view = null;
  refreshSeq++;
  $('table').tBodies[0].replaceChildren();
  $('count-line').textContent = '';
  $('page').textContent = '';
  document.body.dataset.state = 'checking';
  renderInputs();
  $('progress').max = Math.max(1, r.size);
  $('progress').value = 0;
  $('progress-text').textContent = `Checking ${r.name}…`;
  $('cancel').hidden = false;
  announce(`Checking ${r.name}.`);
  try {
    await ready;
    state.runId = -1; // messages of an earlier run are ignored from here on
    state.runId = await ask({ type: 'run', file: r.file, name: r.name });
  } catch (e) {
    onRunError({ run: state.runId, name: r.name, message: e.message });
  }
}

let lastProgressPaint = 0;
function onProgress(m) {
  if (m.run !== state.runId || !state.running) return;
  $('progress').max = Math.max(1, m.size);
  $('progress').value = m.bytes;
  const pct = m.size ? Math.floor((m.bytes / m.size) * 100) : 100;
  $('progress-text').textContent = `Checking ${m.name}: ${n(m.items)} receipt${m.items === 1 ? '' : 's'} checked (${pct} %).`;
  const quarter = Math.floor(pct / 25);
  if (quarter > state.lastAnnounced && quarter > 0 && quarter < 4) {
    state.lastAnnounced = quarter;
    announce(`${quarter * 25} % checked.`);
  }
  state.summary = m.summary;
  renderCounts(m.summary);
  // The problem buttons at most once a second while checking; the rows at the end (or when the
  // operator asks: a filter, a page, a search), so that checking costs this thread little.
  const now = performance.now();
  if (now - lastProgressPaint > 1000) {
    lastProgressPaint = now;
    renderSummary(m.summary, null);
    if (!state.view) $('count-line').textContent = 'Checking: the rows appear at the end, or now when you choose a filter or search.';
  }
}

function onDone(m) {
  if (m.run !== state.runId) return;
  state.running = false;
  if (m.items === 0) {
    onRunError({ ...m, message: `the ${m.name === PASTE_NAME ? 'pasted text' : 'file'} holds no receipts (JSON lines, a JSON array or one JSON object)` });
    return;
  }
  state.summary = m.summary;
  state.receipts = { ...state.receipts, status: 'done', items: m.items };
  $('progress').max = 1;
  $('progress').value = 1;
  $('cancel').hidden = true;
  const s = m.summary;
  const text = `Checked ${n(s.total)} receipt${s.total === 1 ? '' : 's'} in ${m.name}: ${n(s.verified)} verified, ${n(s.failed)} failed, ${n(s.unreadable)} unreadable${s.unchecked ? `, ${n(s.unchecked)} not checked` : ''}.`;
  $('progress-text').textContent = text;
  $('timing').textContent = `in ${(m.ms / 1000).toFixed(2)} s`;
  document.body.dataset.verifyMs = String(Math.round(m.ms));
  renderInputs();
  renderSummary(s, m.warnings);
  refresh().then(() => {
    document.body.dataset.state = 'done';
    announce(text);
    openPending();
  });
}

function onCancelled(m) {
  if (m.run !== state.runId) return;
  state.running = false;
  state.receipts = { ...state.receipts, status: 'cancelled', items: m.items };
  $('cancel').hidden = true;
  const text = `Cancelled: ${n(m.summary.total)} receipts of ${m.name} were checked before.`;
  $('progress-text').textContent = text;
  renderInputs();
  renderSummary(m.summary, [`cancelled: only the first ${n(m.summary.total)} receipts were checked`]);
  refresh().then(() => {
    document.body.dataset.state = 'cancelled';
    announce(text);
  });
}

function onRunError(m) {
  if (m.run !== state.runId) return;
  state.running = false;
  $('summary').hidden = true;
  $('results').hidden = true;
  document.body.classList.remove('has-results');
  $('progress').value = 0;
  state.receipts = { ...state.receipts, status: 'error', message: `${m.name}: ${m.message}` };
  $('cancel').hidden = true;
  $('progress-text').textContent = `Not checked: ${m.name}.`;
  renderInputs();
  document.body.dataset.state = 'error';
  announce(`${m.name} could not be checked: ${m.message}`);
}

$('cancel').addEventListener('click', () => ask({ type: 'cancel' }));

// ---- summary, filters, table ----------------------------------------------------------------------------
const NEEDS = { jwks: 'needs the JWKS', secrets: 'needs receipt secrets', agent_id: 'needs your agent id', issuer: 'needs the issuer' };

function renderCounts(s) {
  $('summary').hidden = false;
  $('count-total').textContent = n(s.total);
  $('count-verified').textContent = n(s.verified);
  $('count-failed').textContent = n(s.failed);
  $('count-errors').textContent = n(s.unreadable);
  $('count-unchecked').textContent = n(s.unchecked);
  $('unchecked-box').hidden = s.unchecked === 0;
}

function renderSummary(s, warnings) {
  renderCounts(s);
  $('results').hidden = false;
  document.body.classList.add('has-results');
  $('export-failures').disabled = s.failed + s.unreadable === 0;
  if (warnings) $('warnings').replaceChildren(...warnings.map((w) => el('p', { class: 'warning', text: `Note: ${w}.` })));
  const entries = [
    ...Object.entries(s.byCause).map(([k, c]) => [k, c, causeLabel(k)]),
    ...Object.entries(s.byError).map(([k, c]) => [`error:${k}`, c, `unreadable: ${k}`]),
    ...Object.entries(s.byNeeds).map(([k, c]) => [`needs:${k}`, c, `not checked: ${NEEDS[k] || k}`]),
  ].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const by = $('by-check');
  by.replaceChildren(...entries.map(([key, c, label]) => {
    const words = key.startsWith('error:') || key.startsWith('needs:') ? null : causeWords(key);
    const id = key.split(':')[0];
    const name = words ? [el('span', { class: 'words', text: words }), ' (', el('code', { class: 'id', text: id }), ')'] : [label];
    const b = el('button', { type: 'button', 'data-check': key, 'aria-pressed': String(state.filter.check === key) }, ...name, ' ', el('b', { text: n(c) }));
    b.addEventListener('click', () => setFilter({ check: state.filter.check === key ? '' : key }));
    return b;
  }));
  if (entries.length === 0) by.append(el('span', { class: 'ok', text: s.total ? 'No check failed.' : '' }));
  const select = $('filter-check');
  const current = state.filter.check;
  select.replaceChildren(el('option', { value: '', text: 'any' }), ...entries.map(([key, c, label]) => el('option', { value: key, text: `${label} — ${n(c)}` })));
  if (current && !entries.some(([k]) => k === current)) select.append(el('option', { value: current, text: causeLabel(current) }));
  select.value = current;
}

function setFilter(change) {
  Object.assign(state.filter, change);
  state.page = 0;
  $('filter-check').value = state.filter.check;
  for (const b of $('by-check').querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.check === state.filter.check));
  refresh();
}
for (const r of document.querySelectorAll('input[name=filter]')) r.addEventListener('change', () => setFilter({ mode: r.value }));
$('filter-check').addEventListener('change', () => setFilter({ check: $('filter-check').value }));
$('order').addEventListener('change', () => setFilter({ order: $('order').value }));
let searchTimer = null;
$('search').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => setFilter({ q: $('search').value }), 200);
});
$('prev').addEventListener('click', () => { state.page--; refresh(); });
$('next').addEventListener('click', () => { state.page++; refresh(); });

let refreshSeq = 0;
async function refresh() {
  const seq = ++refreshSeq;
  const view = await ask({ type: 'query', ...state.filter, page: state.page, size: pageSize() });
  if (seq !== refreshSeq) return;
  state.view = view;
  state.page = view.page;
  await renderTable(view, () => seq !== refreshSeq);
}

/** The next task (a short pause for the browser to handle input and paint). */
const yieldTask = () => new Promise((r) => setTimeout(r, 0));

const KIND = { mac: 'MAC', jws: 'signed (JWS)', object: 'signed (object)', unknown: '—' };
const VERDICT = { verified: 'verified', failed: 'failed', unreadable: 'unreadable', unchecked: 'not checked' };

function shortDigest(d) {
  return `${d.slice(0, 8)}…${d.slice(-4)}`;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const t = el('textarea', { class: 'visually-hidden', 'aria-hidden': 'true' });
    t.value = text;
    document.body.append(t);
    t.select();
    document.execCommand('copy');
    t.remove();
  }
  announce(`${what} copied.`);
}

function copyButton(text, what, label = 'Copy') {
  const b = el('button', { type: 'button', class: 'copy', 'aria-label': `Copy ${what}`, text: label });
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    copy(text, what);
    b.classList.add('copied');
    setTimeout(() => b.classList.remove('copied'), 1200);
  });
  return b;
}

function itemLink(r) {
  const params = new URLSearchParams({ item: String(r.index) });
  // The receipt id makes the link readable: the whole id, when the row keeps all of it and it is short.
  if (r.receiptId && r.receiptId.length <= 200 && !(r.cut && r.cut.includes('receiptId'))) params.set('receipt', r.receiptId);
  return `#${params.toString()}`;
}

function timeCell(r) {
  const v = r.issuedAt;
  const t = r.cut && r.cut.includes('issuedAt') ? null : times(v);
  if (!t) return el('td', { 'data-label': 'Issued', class: 'time' }, v !== null ? el('span', { class: 'issued' }, ...escNodes(shownField(r, 'issuedAt') || '""')) : el('span', { class: 'muted', text: '—' }));
  return el('td', { 'data-label': 'Issued', class: 'time' }, el('span', { text: t.local }), el('span', { class: 'muted utc', text: t.utc }));
}

function checksCell(r) {
  const td = el('td', { 'data-label': 'Checks', class: 'checks' });
  if (r.status === 'unreadable') {
    td.append(el('span', { class: 'check fail', 'data-code': r.code || '', text: r.code || 'unreadable' }));
    td.append(el('div', { class: 'detail', text: `${r.lineInItem ? `line ${r.lineInItem}: ` : ''}${shownField(r, 'message') || ''}` }));
    return td;
  }
  if (r.status === 'unchecked') {
    td.append(el('div', { class: 'detail', text: shownField(r, 'message') || 'not checked' }));
    return td;
  }
  // The first cause first (as the summary counts the receipt), then the other checks that failed,
  // then the knock-ons (not checked: a check they need failed). An unknown key, a key not yet
  // valid and an expired key read differently (the reason's words).
  const first = r.failing.find((f) => !f[4]) || r.failing[0];
  const ordered = first ? [first, ...r.failing.filter((f) => f !== first && !f[4]), ...r.failing.filter((f) => f !== first && f[4])] : [];
  for (const [name, outcome, , reason, blockedBy] of ordered) {
    const words = (reason && REASON_WORDS[reason]) || checkWords(name);
    const shownOutcome = blockedBy ? 'not checked' : outcome;
    td.append(el('span', {
      class: `check ${blockedBy ? 'blocked' : outcome}${name === first[0] ? ' cause' : ''}`, 'data-check': name, 'data-outcome': outcome,
      ...(reason ? { 'data-reason': reason } : {}), ...(blockedBy ? { 'data-blocked-by': blockedBy } : {}),
    }, ...(words ? [el('span', { class: 'words', text: words }), ' ('] : []), el('code', { class: 'id', text: name }), words ? ')' : null, `: ${shownOutcome}`));
  }
  td.append(el('span', { class: 'passed', 'data-passed': String(r.passed), text: `${r.passed} passed` }));
  return td;
}

/**
 * Renders a page of rows, ten rows a task, so that no task of this thread runs long; `stale()` stops
 * it when a newer render started.
 */
async function renderTable(view, stale = () => false) {
  const tbody = $('table').tBodies[0];
  const rows = [];
  for (const r of view.rows) {
    // Every value as shownField gives it: controls and invisible characters escaped, … when cut.
    // An empty value is shown as "" (it is not absent).
    const f = (k) => { const v = shownField(r, k); return v === '' ? '""' : v; };
    const name = r.receiptId !== null ? f('receiptId') : `item ${r.index}`;
    const link = el('a', { href: itemLink(r), class: 'open', 'aria-label': `Open ${name}${r.label !== null ? ` (${f('label')})` : ''}` }, ...escNodes(name));
    const who = [r.provider !== null ? el('span', { class: 'provider' }, ...escNodes(f('provider'))) : null,
      r.provider !== null && r.capability !== null ? ' · ' : null,
      r.capability !== null ? el('span', { class: 'capability' }, ...escNodes(f('capability'))) : null];
    const tr = el('tr', { 'data-index': String(r.index), 'data-verdict': r.status },
      el('td', { 'data-label': '#', class: 'num' }, el('span', { text: `#${r.index}` }), el('span', { class: 'muted small', text: ` · line ${r.line}` })),
      el('td', { 'data-label': 'Receipt', class: 'receipt' }, link, r.label !== null ? el('div', { class: 'muted small label' }, ...escNodes(f('label'))) : null),
      el('td', { 'data-label': 'Call', class: 'call' },
        r.executionId !== null ? el('div', { class: 'mono execution' }, ...escNodes(f('executionId'))) : el('div', { class: 'mono muted', text: '—' }),
        el('div', { class: 'muted small' }, ...who)),
      timeCell(r),
      el('td', { 'data-label': 'Kind', class: 'kind', text: KIND[r.kind] || r.kind }),
      el('td', { 'data-label': 'Verdict', class: 'verdict-cell' }, el('span', { class: `verdict ${r.status}`, text: VERDICT[r.status] })),
      checksCell(r),
      el('td', { 'data-label': 'Digest', class: 'digest' }, r.digest
        ? el('span', { class: 'digest-box' }, el('code', { title: r.digest, text: shortDigest(r.digest) }), copyButton(r.digest, `the receipt digest of item ${r.index}`))
        : el('span', { class: 'muted', text: '—' })));
    tr.addEventListener('click', (e) => {
      if (e.target.closest('button, a, input, select')) return;
      location.hash = itemLink(r).slice(1);
    });
    rows.push(tr);
  }
  tbody.replaceChildren(...rows.slice(0, 10));
  for (let i = 10; i < rows.length; i += 10) {
    await yieldTask();
    if (stale()) return;
    tbody.append(...rows.slice(i, i + 10));
  }
  const pages = view.pages;
  $('page').textContent = `Page ${view.page + 1} of ${pages}`;
  $('prev').disabled = view.page === 0;
  $('next').disabled = view.page >= pages - 1;
  const all = view.summary.total;
  $('count-line').textContent = view.total === all || state.running
    ? `${n(view.total)} receipt${view.total === 1 ? '' : 's'}${view.summary.listed < all ? ` listed (${n(all)} checked)` : ''}.`
    : `${n(view.total)} of ${n(all)} receipts match.`;
}

/** Downloads the results: every row ('all') or the failed and unreadable ones ('failures'), one format. */
async function exportResults(selection) {
  const blob = await ask({ type: 'export', selection });
  const name = selection === 'failures' ? 'receipt-failures.json' : 'receipt-verification.json';
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  announce(`The ${selection === 'failures' ? 'failures' : 'results'} were exported as ${name}.`);
}
$('export').addEventListener('click', () => exportResults('all'));
$('export-failures').addEventListener('click', () => exportResults('failures'));

// ---- the inspector ----------------------------------------------------------------------------------------
const dialog = $('inspector');
let returnFocus = null;

function parseHash() {
  const h = location.hash.replace(/^#/, '');
  const p = new URLSearchParams(h);
  return { sample: h === 'sample' || p.has('sample'), item: p.get('item'), receipt: p.get('receipt') };
}

async function openFromHash() {
  const h = parseHash();
  if (h.item === null && !h.receipt) {
    if (dialog.open) closeInspector(false);
    return;
  }
  if (state.running || !state.view) {
    state.pendingOpen = h;
    return;
  }
  // An item number is canonical (1, 2, …) or the link names nothing: 0, -1, 0x1, 1e0, 01 open no item.
  if (h.item !== null && !ITEM_NUMBER.test(h.item)) {
    const what = h.item.length > 40 ? `${shown(h.item.slice(0, 40))}…` : shown(h.item);
    showAlert(`The link names item "${what}", which is not an item number: items are numbered 1, 2, 3, … in the file.`);
    if (dialog.open) closeInspector(false);
    return;
  }
  let index = -1;
  if (h.item) index = await ask({ type: 'find', item: h.item });
  if (index < 0 && h.receipt) index = await ask({ type: 'find', receipt: h.receipt });
  if (index < 0) {
    showAlert(`The link names ${h.receipt ? `receipt ${shown(h.receipt.length > 80 ? `${h.receipt.slice(0, 80)}…` : h.receipt)}` : `item ${h.item}`}, which is not in the loaded receipts.`);
    return;
  }
  await openInspector(index);
}

function openPending() {
  if (state.pendingOpen) {
    state.pendingOpen = null;
    openFromHash();
  }
}

function section(title, ...children) {
  return el('section', { class: 'insp-section' }, el('h3', { text: title }), ...children);
}

function preBlock(textValue, what) {
  const LIMIT = 200_000;
  const shown = textValue.length > LIMIT ? `${textValue.slice(0, LIMIT)}\n… (${n(textValue.length - LIMIT)} more characters: copy to see all)` : textValue;
  return el('div', { class: 'pre-box' }, copyButton(textValue, what), el('pre', { tabindex: '0', 'aria-label': what, text: shown }));
}

function dl(pairs) {
  const d = el('dl', { class: 'meta' });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === '') continue;
    d.append(el('dt', { text: k }), el('dd', {}, ...(v instanceof Node ? [v] : escNodes(String(v)))));
  }
  return d;
}

function timeValue(v) {
  const t = times(v);
  if (!t) return null;
  return el('span', {}, el('span', { text: t.local }), el('br'), el('span', { class: 'muted', text: t.utc }));
}

/**
 * The Detail cell of a check: the core's reason when it did not pass; for a passing check what
 * passing means (the received value is what was expected, or the tag or signature verified).
 */
function checkDetail(c) {
  if (c.detail) return c.detail;
  if (c.outcome !== 'pass') return '';
  return c.expected != null && c.received != null ? 'as expected' : 'verified';
}

function renderInspector(d) {
  const name = d.receiptId !== null ? `Receipt ${shown(d.receiptId.length > 80 ? `${d.receiptId.slice(0, 79)}…` : d.receiptId)}` : `Item ${d.index}`;
  $('insp-title').textContent = name;
  const v = $('insp-verdict');
  v.className = `verdict ${d.status}`;
  v.textContent = VERDICT[d.status];
  const body = [];
  body.push(dl([
    ['Item', `${d.index} (line ${d.line} of ${d.fileName})`],
    ['Label', d.label === '' ? '""' : shown(d.label)],
    ['Kind', KIND[d.kind] || d.kind],
    ['Receipt id', d.receiptId === '' ? '""' : shown(d.receiptId)],
    ['Execution id', d.executionId === '' ? '""' : shown(d.executionId)],
    ['Provider', d.provider === '' ? '""' : shown(d.provider)],
    ['Capability', d.capability === '' ? '""' : shown(d.capability)],
    ['Issued at', d.issuedAt !== null ? el('span', {}, el('code', { text: shown(d.issuedAt) }), el('br'), timeValue(d.issuedAt) || '') : null],
    ['Receipt digest', d.digest ? el('span', { class: 'digest-full' }, el('code', { text: d.digest }), ' ', copyButton(d.digest, 'the receipt digest')) : null],
  ]));
  if (d.tooLarge) body.push(el('p', { class: 'alert-inline', text: `${d.code}: ${d.message}` }));
  if (d.status === 'unreadable' && !d.tooLarge) {
    body.push(section('Why it cannot be read', el('p', { class: 'alert-inline' }, el('b', { text: d.code || 'error' }), ` ${d.lineInItem ? `(line ${d.lineInItem}) ` : ''}${d.message || ''}`)));
  }
  if (d.status === 'unchecked') body.push(section('Not checked', el('p', { text: d.message })));
  if (d.checks.length) {
    const rows = [...d.checks].sort((a, b) => (a.outcome === 'pass') - (b.outcome === 'pass'));
    const table = el('table', { class: 'checks-table' },
      el('caption', { class: 'visually-hidden', text: 'Every check with the expected and the received value' }),
      el('thead', {}, el('tr', {}, ...['Check', 'Outcome', 'Expected', 'Received', 'Detail'].map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, ...rows.map((c) => el('tr', { 'data-check': c.name, 'data-outcome': c.outcome },
        el('th', { scope: 'row', 'data-label': 'Check' }, ...(checkWords(c.name) ? [el('span', { class: 'words', text: checkWords(c.name) }), el('br')] : []), el('code', { class: 'id', text: c.name })),
        el('td', { 'data-label': 'Outcome' }, el('span', { class: `check ${c.blocked_by ? 'blocked' : c.outcome}`, text: c.blocked_by ? 'not checked' : c.outcome })),
        el('td', { 'data-label': 'Expected', class: 'mono expected', text: c.expected ?? '—' }),
        el('td', { 'data-label': 'Received', class: 'mono received', text: c.received ?? '—' }),
        el('td', { 'data-label': 'Detail', class: 'detail', text: c.blocked_by ? blockedWords(c.blocked_by, d.checks) : checkDetail(c) })))));
    const failing = d.checks.filter((c) => c.outcome !== 'pass');
    const blocked = failing.filter((c) => c.blocked_by).length;
    const cause = failing.find((c) => !c.blocked_by);
    const failed = failing.length;
    // Every failing check a mismatch: authentic evidence that differs from your own copy (the
    // CLI's words, cli/src/human.rs).
    const dispute = failed > 0 && failing.every((c) => c.outcome === 'mismatch')
      ? el('p', { class: 'alert-inline dispute', text: 'A dispute: the evidence is authentic but differs from your own copy; report it.' })
      : null;
    // The first cause, as the list counts the receipt (the knock-ons are not causes of their own).
    const first = cause ? el('p', { class: 'first-cause' }, 'First cause: ', el('b', { text: causeLabel(cause.reason ? `${cause.name}:${cause.reason}` : cause.name) }),
      blocked ? ` (${blocked} check${blocked === 1 ? '' : 's'} not checked because of it)` : '') : null;
    body.push(section(`Checks: ${failed ? `${failed - blocked} of ${d.checks.length} failed${blocked ? `, ${blocked} not checked` : ''}` : `all ${d.checks.length} passed`}`, first, dispute, el('div', { class: 'scroll-x' }, table),
      el('p', { class: 'muted small', text: 'Tags, signatures and secrets are never shown.' })));
  }
  if (d.jwsHeader || d.jwsClaims) {
    const claimTimes = [];
    for (const k of ['iat', 'nbf', 'exp']) {
      if (d.jwsClaims && d.jwsClaims[k] !== undefined) claimTimes.push([k, el('span', {}, el('code', { text: String(d.jwsClaims[k]) }), el('br'), timeValue(d.jwsClaims[k]) || '')]);
    }
    body.push(section('JWS header', preBlock(d.jwsHeaderText || 'null', 'the JWS header')));
    body.push(section('JWS claims', claimTimes.length ? dl(claimTimes) : null, preBlock(d.jwsClaimsText || 'null', 'the JWS claims')));
  }
  if (d.token) body.push(section('Compact JWS', preBlock(d.token, 'the compact JWS')));
  if (d.receiptText) body.push(section('Receipt (as in the file)', preBlock(d.receiptText, 'the receipt')));
  if (d.callText) body.push(section('Call', preBlock(d.callText, 'the call')));
  if (d.itemText && !d.receiptText) body.push(section('Item (as in the file)', preBlock(d.itemText, 'the item')));
  $('insp-body').replaceChildren(...body);
}

async function openInspector(index) {
  let d;
  try {
    d = await ask({ type: 'inspect', index });
  } catch (e) {
    showAlert(e.message);
    return;
  }
  state.openIndex = index;
  renderInspector(d);
  const pos = await ask({ type: 'neighbours', index, ...state.filter }).catch(() => ({ prev: null, next: null }));
  $('insp-prev').disabled = pos.prev === null;
  $('insp-next').disabled = pos.next === null;
  $('insp-prev').dataset.index = pos.prev ?? '';
  $('insp-next').dataset.index = pos.next ?? '';
  const link = itemLink(d);
  if (location.hash !== link) history.replaceState(null, '', link);
  if (!dialog.open) {
    returnFocus = document.activeElement;
    dialog.showModal();
    $('insp-close').focus();
  }
  document.body.dataset.inspector = String(index + 1);
}

function closeInspector(updateUrl = true) {
  if (dialog.open) dialog.close();
  state.openIndex = null;
  delete document.body.dataset.inspector;
  if (updateUrl && parseHash().item !== null) history.replaceState(null, '', location.pathname + location.search);
  if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
  returnFocus = null;
}

$('insp-close').addEventListener('click', () => closeInspector());
dialog.addEventListener('cancel', (e) => { e.preventDefault(); closeInspector(); });
for (const id of ['insp-prev', 'insp-next']) {
  $(id).addEventListener('click', () => {
    const i = $(id).dataset.index;
    if (i !== '') openInspector(Number(i));
  });
}

window.addEventListener('hashchange', () => {
  const h = parseHash();
  if (h.sample && state.receipts.status === 'empty') {
    if (h.item !== null || h.receipt) state.pendingOpen = h;
    loadSample();
  } else openFromHash();
});

phone.addEventListener('change', () => { if (state.view) { state.page = 0; refresh(); } });

// ---- start ----------------------------------------------------------------------------------------------
document.body.dataset.state = 'idle';
renderInputs();
{
  const h = parseHash();
  if (h.item !== null || h.receipt) state.pendingOpen = h;
  if (h.sample) loadSample();
}

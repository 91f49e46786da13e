// One receipt item checked with the ekl-evidence API: shared by the verification workers and the Node
// tests. No DOM, no Node APIs.
//
// An item (one line of JSON lines, one element of a JSON array, or one top-level value) is a JSON
// object:
//   {"receipt": {...MAC receipt...}, "call": {...}, "input_commitment"?: {...}, "output_commitment"?: {...}}
//   {"receipt_jws": "<compact JWS>", "call": {...}}                 network-signed receipt (§9.5.1)
//   {"receipt": {..., "receipt_jws", "signature"}, "call": {...}}  network-signed receipt object
// plus an optional "label" (shown in the row). The call of a MAC receipt: execution_id,
// collaboration_id, capability_id, provider_agent_id and optionally requester_agent_id (default:
// your agent id), capability_version, connection_id, terms_hash, execution_kind, reservation_id,
// grant_id, admission_id, receipt_digest. The call of a network-signed receipt: execution_id,
// provider_agent_id, capability_id, input_fingerprint, sent_at, received_at (RFC 3339 or seconds
// since the epoch) and optionally requester_agent_id, own_agent_id and network_issuer (which must equal
// your settings).
//
// The receipt reaches the core as its exact bytes (never re-serialised), so duplicate keys, big
// numbers and every other ekl-json-1 refusal are the core's. No item is handed to JSON.parse before
// its nesting is known to be within ekl-json-1's 64 levels; a deeper item is refused by the core
// (INPUT_TOO_DEEP).
import { topMembers, depthOf, base64url, text, pretty, byteOfMessage, lineAt, locate } from './json.js';

/** A refusal of the dashboard itself, with a core error code. */
export class ItemError extends Error {
  constructor(code, message, at = null) {
    super(message);
    this.code = code;
    this.at = at; // byte offset in the item, when known
  }
}

/** An item that cannot be checked yet: a setting or the JWKS is missing. */
class Unchecked extends Error {
  constructor(needs, message) {
    super(message);
    this.needs = needs;
  }
}

const CALL_MAC = ['execution_id', 'collaboration_id', 'capability_id', 'requester_agent_id', 'provider_agent_id',
  'capability_version', 'connection_id', 'terms_hash', 'execution_kind', 'reservation_id', 'grant_id', 'admission_id',
  'receipt_digest'];
const CALL_SIGNED = ['execution_id', 'provider_agent_id', 'requester_agent_id', 'capability_id', 'input_fingerprint',
  'sent_at', 'received_at', 'own_agent_id', 'network_issuer'];
const REQUIRED_MAC = ['execution_id', 'collaboration_id', 'capability_id', 'provider_agent_id'];
const REQUIRED_SIGNED = ['execution_id', 'provider_agent_id', 'capability_id', 'input_fingerprint', 'sent_at', 'received_at'];

/** Refuses a call without the members its receipt kind needs, or with strings of the wrong type. */
function callMembers(call, required, allowed, what) {
  for (const k of Object.keys(call)) {
    if (!allowed.includes(k)) throw new ItemError('INVALID_ARGUMENT', `call.${k.slice(0, 40)} is not a member of ${what}'s call`);
  }
  for (const k of required) {
    if (call[k] === undefined || call[k] === null) throw new ItemError('INVALID_ARGUMENT', `call.${k} is required for ${what}`);
  }
  for (const k of allowed) {
    if (k === 'sent_at' || k === 'received_at') continue;
    if (call[k] !== undefined && call[k] !== null && typeof call[k] !== 'string') throw new ItemError('INVALID_ARGUMENT', `call.${k} must be a string`);
  }
}

/**
 * A field value as row text: strings as they are, anything else as JSON. Not cut here: the row
 * store (rows.js) keeps a bounded prefix and says that it did, the inspector shows all.
 */
export function fieldText(v) {
  if (v === undefined || v === null) return null;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === undefined ? null : s;
}

/** Seconds since the epoch from RFC 3339 text or an integer. */
export function seconds(v, what) {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/.test(v)) {
    const t = Date.parse(v);
    if (Number.isFinite(t)) return Math.floor(t / 1000);
  }
  throw new ItemError('INVALID_ARGUMENT', `call.${what} must be RFC 3339 or an integer number of seconds since the epoch`);
}

/** The core's refusal of JSON text (its code and message), or null when the core accepts it. */
export function coreRefusal(api, bytes) {
  try {
    api.canonicalize(new api.JsonText(bytes));
    return null;
  } catch (e) {
    if (!api.isEklError(e)) throw e;
    return e;
  }
}

/** The refusal of an item that the byte scanner found malformed or too deep: the core's words. */
function refuse(api, bytes, fallbackCode, fallback) {
  const e = coreRefusal(api, bytes);
  if (e) throw new ItemError(e.code, e.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(e.message));
  throw new ItemError(fallbackCode, fallback);
}

/** JSON.parse of a span of an item already known to nest within 64 levels. */
function parseSpan(api, bytes, [, s, e], what) {
  const t = text(bytes.subarray(s, e));
  let v;
  try {
    v = JSON.parse(t);
  } catch {
    return refuse(api, bytes, 'INVALID_JSON', `${what} is not JSON`);
  }
  // JSON.parse keeps a lone surrogate escape (\ud800 alone); the core's reading of the item refuses
  // it (LONE_SURROGATE), so the page does too, with the core's words (issue 24).
  if (/\\u[dD][89a-fA-F]/.test(t)) {
    const refused = coreRefusal(api, bytes);
    if (refused) throw new ItemError(refused.code, refused.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(refused.message));
  }
  return v;
}

/**
 * The verification context from settings {agent_id, issuer, receipt_secrets} and the JWKS bytes
 * (or null): {agentId, issuer, keys, jwks}. Throws ItemError when the JWKS is refused.
 */
export function makeContext(api, settings, jwksBytes) {
  const s = settings || {};
  return {
    agentId: s.agent_id || '',
    issuer: s.issuer || '',
    keys: (s.receipt_secrets || []).map((k) => ({
      key_id: k.key_id, secret: k.secret,
      valid_from: k.valid_from || '0000-01-01T00:00:00Z',
      ...(k.valid_until ? { valid_until: k.valid_until } : {}),
    })),
    jwks: jwksBytes ? new api.Jwks(new api.JsonText(jwksBytes)) : null,
  };
}

/** The parts of an item: its members, kind and the values the checks need. */
function readItem(api, bytes) {
  const top = topMembers(bytes, api.MAX_DEPTH);
  if (top.error === 'not-object') {
    const e = coreRefusal(api, bytes);
    if (e) throw new ItemError(e.code, e.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(e.message));
    throw new ItemError('INVALID_RECEIPT', 'an item must be a JSON object {"receipt" or "receipt_jws", "call"}');
  }
  if (top.error) return refuse(api, bytes, top.error === 'deep' ? 'INPUT_TOO_DEEP' : 'INVALID_JSON', 'the item is not JSON');
  const m = new Map();
  for (const member of top.members) {
    if (m.has(member[0])) throw new ItemError('DUPLICATE_KEY', `the item has "${member[0].slice(0, 40)}" twice`, member[1]);
    m.set(member[0], member);
  }
  const item = { members: m, label: null, call: null, kind: 'unknown', receipt: null, token: null, maxDepth: api.MAX_DEPTH };
  if (m.has('label')) item.label = parseSpan(api, bytes, m.get('label'), 'label');
  if (m.has('call')) item.call = parseSpan(api, bytes, m.get('call'), 'call');
  if (m.has('receipt_jws')) {
    item.kind = 'jws';
    item.token = parseSpan(api, bytes, m.get('receipt_jws'), 'receipt_jws');
  } else if (m.has('receipt')) {
    const [, s, e] = m.get('receipt');
    item.receipt = bytes.subarray(s, e);
    const inner = topMembers(item.receipt, api.MAX_DEPTH - 1);
    const signed = inner.members && inner.members.some(([k]) => k === 'receipt_jws' || k === 'signature');
    item.kind = signed ? 'object' : 'mac';
  }
  return item;
}

/** The claims of a compact JWS whose payload the core has read (null when they cannot be shown). */
function claimsOf(token, limit) {
  if (typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const decode = (seg) => {
    const b = base64url(seg, 0, seg.length);
    if (!b || depthOf(b, limit) > limit) return null;
    try {
      const v = JSON.parse(text(b));
      return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    } catch {
      return null;
    }
  };
  return { header: decode(parts[0]), claims: decode(parts[1]), headerText: parts[0], claimsText: parts[1] };
}

/** The members an archive item may have (the core's `batch::ITEM_MEMBERS`). */
const ITEM_MEMBERS = ['receipt', 'receipt_jws', 'call', 'input_commitment', 'output_commitment', 'label'];

/**
 * Runs the core's verification of an item; returns {verdict, fields} or throws. The item's own
 * rules are the core's reading of an archive item (batch::verify_item), in its order: known
 * members only, a receipt or a receipt_jws (not both), a call, own commitments for MAC receipts.
 */
function check(api, item, bytes, ctx) {
  const call = item.call;
  for (const name of item.members.keys()) {
    if (!ITEM_MEMBERS.includes(name)) {
      throw new ItemError('INVALID_ARGUMENT', `item has an unknown member ${JSON.stringify(name.slice(0, 40))} (allowed: ${ITEM_MEMBERS.join(', ')})`, item.members.get(name)[1]);
    }
  }
  if (item.members.has('receipt') && item.members.has('receipt_jws')) {
    throw new ItemError('INVALID_ARGUMENT', 'an item has a receipt or a receipt_jws, not both');
  }
  if (call === null || typeof call !== 'object' || Array.isArray(call)) {
    throw new ItemError('INVALID_ARGUMENT', 'the item has no "call" object');
  }
  if (item.kind === 'unknown') {
    throw new ItemError('INVALID_RECEIPT', 'the item has neither "receipt" nor "receipt_jws"');
  }
  if (item.kind === 'jws' || item.kind === 'object') {
    if (item.members.has('input_commitment') || item.members.has('output_commitment')) {
      throw new ItemError('INVALID_ARGUMENT', 'own commitments are for MAC receipts (a signed receipt has input_fingerprint)');
    }
    if (!ctx.jwks) throw new Unchecked('jwks', 'not checked: load the network\'s JWKS to check network-signed receipts');
    if (!ctx.agentId) throw new Unchecked('agent_id', 'not checked: enter your agent id (Settings) to check network-signed receipts');
    if (!ctx.issuer) throw new Unchecked('issuer', 'not checked: enter the network issuer (Settings) to check network-signed receipts');
    // Your agent id and the issuer are the settings': a call may repeat them, never name others
    // (as the core's reading of an archive, batch::verify_item).
    for (const [k, mine] of [['own_agent_id', ctx.agentId], ['network_issuer', ctx.issuer]]) {
      if (call[k] !== undefined && call[k] !== null && call[k] !== mine) {
        throw new ItemError('INVALID_ARGUMENT', `call.${k} differs from the ${k} the archive is verified with`);
      }
    }
    callMembers(call, REQUIRED_SIGNED, CALL_SIGNED, 'a network-signed receipt');
    const context = {
      execution_id: call.execution_id,
      provider_agent_id: call.provider_agent_id,
      requester_agent_id: call.requester_agent_id ?? ctx.agentId,
      capability_id: call.capability_id,
      input_fingerprint: call.input_fingerprint,
      own_agent_id: ctx.agentId,
      network_issuer: ctx.issuer,
      sent_at: seconds(call.sent_at, 'sent_at'),
      received_at: seconds(call.received_at, 'received_at'),
    };
    if (item.kind === 'jws') {
      if (typeof item.token !== 'string') throw new ItemError('JWS_MALFORMED', 'receipt_jws must be a string');
      return api.verifyReceiptJws(item.token, ctx.jwks, context);
    }
    return api.verifySignedReceipt(new api.JsonText(item.receipt), ctx.jwks, context);
  }
  if (ctx.keys.length === 0) throw new Unchecked('secrets', 'not checked: enter your receipt secrets (Settings) to check MAC receipts');
  callMembers(call, REQUIRED_MAC, CALL_MAC, 'a MAC receipt');
  const expectation = { ...call };
  if (expectation.requester_agent_id === undefined || expectation.requester_agent_id === null) { // as the core: null is absent
    if (!ctx.agentId) throw new Unchecked('agent_id', 'not checked: enter your agent id (Settings) or give call.requester_agent_id');
    expectation.requester_agent_id = ctx.agentId;
  }
  const own = (name) => (item.members.has(name) ? parseSpan(api, bytes, item.members.get(name), name) : undefined);
  return api.verifyReceipt(new api.JsonText(item.receipt), ctx.keys, expectation, {
    inputCommitment: own('input_commitment'), outputCommitment: own('output_commitment'),
  });
}

const ROW_FIELDS = ['receipt_id', 'execution_id', 'provider_agent_id', 'capability_id', 'issued_at'];

/** The members `names` of a JSON object's bytes (only those are parsed), or {} when it is not one. */
function pick(bytes, names, maxDepth) {
  const out = {};
  const m = bytes && topMembers(bytes, maxDepth);
  if (!m || !m.members) return out;
  for (const [k, s, e] of m.members) {
    if (!names.includes(k)) continue;
    try {
      out[k] = JSON.parse(text(bytes.subarray(s, e)));
    } catch { /* shown as absent */ }
  }
  return out;
}

/** The payload bytes of a compact JWS (null when it has no second segment of base64url). */
function payloadOf(token) {
  if (typeof token !== 'string') return null;
  const a = token.indexOf('.');
  const b = a < 0 ? -1 : token.indexOf('.', a + 1);
  return b < 0 ? null : base64url(token, a + 1, b);
}

/** The fields a row shows, from the receipt (its claims for a JWS), else from the call. */
function fieldsOf(item) {
  const from = item.kind === 'jws' ? pick(payloadOf(item.token), ROW_FIELDS, item.maxDepth) : pick(item.receipt, ROW_FIELDS, item.maxDepth);
  const call = item.call && typeof item.call === 'object' && !Array.isArray(item.call) ? item.call : {};
  return {
    receiptId: fieldText(from.receipt_id),
    executionId: fieldText(from.execution_id ?? call.execution_id),
    provider: fieldText(from.provider_agent_id ?? call.provider_agent_id),
    capability: fieldText(from.capability_id ?? call.capability_id),
    issuedAt: fieldText(from.issued_at),
    label: fieldText(item.label),
  };
}

const STATUS = (v) => (v.accepted ? 'verified' : 'failed');

/**
 * A failing check as a row keeps it: [name, outcome, detail, reason, blockedBy] (reason: why
 * key_id failed, a code of the core's REASONS; blockedBy: the check whose failure left this one
 * unchecked, a knock-on). From a verdict's check or a summary's failing check (the same members).
 */
const failingOf = (c) => [c.name, c.outcome, c.detail ?? null, c.reason ?? null, c.blocked_by ?? null];

/**
 * The key a failed receipt is counted under: its first cause, the check (and for key_id the
 * reason: `key_id:unknown_key`, `key_id:key_expired`, …). The core says which check is the first
 * cause (`cause` of summarizeReceiptLines, ekl_core::verdict::Verdict::first_cause: the first
 * failing check not blocked by another's failure); from a verdict, the same rule over its checks'
 * `blocked_by` marks. Null when nothing failed.
 */
export function causeKey(cause) {
  if (!cause || typeof cause.check !== 'string') return null;
  return cause.reason ? `${cause.check}:${cause.reason}` : cause.check;
}

/** The first cause of a row's failing checks ([name, outcome, detail, reason, blockedBy]), as causeKey. */
export function causeOfFailing(failing) {
  const first = failing.find((f) => !f[4]) || failing[0];
  return first ? causeKey({ check: first[0], reason: first[3] }) : null;
}

/**
 * Checks one item (its bytes). Returns a row: {kind, status ('verified' | 'failed' | 'unreadable'
 * | 'unchecked'), failing: [[name, outcome, detail]], passed, digest, code, message, at, needs,
 * receiptId, executionId, provider, capability, issuedAt, label}. Never throws for bad input.
 */
export function checkItem(api, bytes, ctx) {
  return run(api, bytes, ctx, false);
}

/** The row of an item the core verified in one batch (a summary of summarizeReceiptLines). */
function rowOfSummary(sm) {
  return {
    kind: sm.kind, status: STATUS(sm), failing: sm.failing.map(failingOf), cause: sm.accepted ? null : causeKey(sm.cause), passed: sm.passed,
    digest: sm.receipt_digest ?? null, code: null, message: null, at: null, needs: null,
    receiptId: fieldText(sm.receipt_id), executionId: fieldText(sm.execution_id), provider: fieldText(sm.provider_agent_id),
    capability: fieldText(sm.capability_id), issuedAt: fieldText(sm.issued_at), label: fieldText(sm.label),
  };
}

/**
 * Checks the items of a batch, `spans` [{s, e, skip}] of `buf` (skip: not checked, null in the
 * result).
 * Once the settings are complete, the items of one line (every item of a JSON-lines file: no line
 * break inside) go to the core in one call, summarizeReceiptLines, which reads, verifies and
 * summarises each (the same verification as checkItem's, without a verdict and an item read in JS
 * per item). An item the core cannot verify, and every item with a line break inside, is checked
 * by checkItem, whose refusals name their place in the item. The rows are checkItem's.
 */
export function checkBatch(api, buf, spans, ctx) {
  const rows = new Array(spans.length).fill(null);
  const complete = ctx.agentId && (ctx.jwks ? ctx.issuer : ctx.keys.length > 0);
  const lines = [];
  if (complete) {
    for (let k = 0; k < spans.length; k++) {
      const { s, e } = spans[k];
      if (!spans[k].skip && e > s && buf.subarray(s, e).indexOf(10) < 0) lines.push(k);
    }
  }
  if (lines.length > 0) {
    const text = new Uint8Array(lines.reduce((n, k) => n + spans[k].e - spans[k].s + 1, 0));
    let at = 0;
    for (const k of lines) {
      text.set(buf.subarray(spans[k].s, spans[k].e), at);
      at += spans[k].e - spans[k].s;
      text[at++] = 10;
    }
    let summaries = [];
    try {
      summaries = api.summarizeReceiptLines(text, {
        jwks: ctx.jwks, keys: ctx.keys.length ? ctx.keys : null, ownAgentId: ctx.agentId, networkIssuer: ctx.issuer || null,
      });
    } catch (e) {
      if (!api.isEklError(e)) throw e;
    }
    for (const sm of summaries) {
      const k = lines[sm.line - 1];
      if (k !== undefined && sm.error === null) rows[k] = rowOfSummary(sm);
    }
  }
  // An item the core refused in one call is checked again by checkItem, whose reading is the
  // core's item rules (check()) plus the page's own extensions (RFC 3339 call times): the unit
  // tests hold both paths to the same row for every item.
  for (let k = 0; k < spans.length; k++) {
    const { s, e } = spans[k];
    if (rows[k] === null && !spans[k].skip) rows[k] = checkItem(api, buf.subarray(s, e), ctx);
  }
  return rows;
}

/**
 * Everything the inspector shows about one item: the row, every check (with `expected` and
 * `received` where the core gives them), the receipt and the call as pretty JSON (tokens as written),
 * and for a JWS its decoded header and claims.
 */
export function inspectItem(api, bytes, ctx) {
  return run(api, bytes, ctx, true);
}

function run(api, bytes, ctx, full) {
  let item = null;
  const row = {
    kind: 'unknown', status: 'unreadable', failing: [], cause: null, passed: 0, digest: null, code: null, message: null, at: null,
    needs: null, receiptId: null, executionId: null, provider: null, capability: null, issuedAt: null, label: null,
  };
  let verdict = null;
  try {
    item = readItem(api, bytes);
    row.kind = item.kind;
    verdict = check(api, item, bytes, ctx);
    row.status = STATUS(verdict);
    row.digest = verdict.receipt_digest ?? null;
    for (const c of verdict.checks) {
      if (c.outcome === 'pass') row.passed++;
      else row.failing.push(failingOf(c));
    }
    row.cause = verdict.accepted ? null : causeOfFailing(row.failing);
  } catch (e) {
    if (e instanceof Unchecked) {
      row.status = 'unchecked';
      row.needs = e.needs;
      row.message = e.message;
    } else if (e instanceof ItemError || api.isEklError(e)) {
      row.code = e.code;
      row.message = String(e.message).replace(/^[A-Z0-9_]+: /, '');
      row.at = e.at ?? byteOfMessage(e.message);
    } else {
      throw e;
    }
  }
  if (item) Object.assign(row, fieldsOf(item));
  if (row.at !== null && row.at !== undefined) row.lineInItem = lineAt(bytes, row.at);
  if (!full) return row;
  const detail = { ...row, checks: verdict ? verdict.checks.map((c) => ({ ...c })) : [] };
  const whole = text(bytes);
  detail.itemText = pretty(whole);
  if (item) {
    if (item.receipt) detail.receiptText = pretty(text(item.receipt));
    if (item.members.has('call')) {
      const [, s, e] = item.members.get('call');
      detail.callText = pretty(text(bytes.subarray(s, e)));
    }
    if (item.kind === 'jws' || item.kind === 'object') {
      let token = item.token;
      if (item.kind === 'object' && verdict) {
        try {
          token = JSON.parse(text(item.receipt)).receipt_jws;
        } catch {
          token = null;
        }
      }
      const parts = verdict ? claimsOf(token, api.MAX_DEPTH) : null;
      if (parts) {
        detail.jwsHeader = parts.header;
        detail.jwsClaims = parts.claims;
        detail.jwsHeaderText = parts.header ? JSON.stringify(parts.header, null, 2) : null;
        detail.jwsClaimsText = parts.claims ? JSON.stringify(parts.claims, null, 2) : null;
      }
      if (typeof token === 'string') detail.token = token;
    }
  }
  return detail;
}

/**
 * Checks a JWKS file (bytes) with the core when it is loaded: {kids}; throws ItemError with the
 * core's code and the byte offset of the problem when the core names one.
 */
export function checkJwks(api, bytes) {
  try {
    const jwks = new api.Jwks(new api.JsonText(bytes));
    return { kids: jwks.kids };
  } catch (e) {
    if (!api.isEklError(e)) throw e;
    throw new ItemError(e.code, e.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(e.message));
  }
}

/**
 * Checks a settings file (bytes): {agent_id, issuer, receipt_secrets}; each secret's window is
 * checked by the core (a key ring is built from them). Throws ItemError with the byte offset of the
 * offending value.
 */
export function checkSettings(api, bytes) {
  const refused = coreRefusal(api, bytes);
  if (refused) throw new ItemError(refused.code, refused.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(refused.message));
  const s = JSON.parse(text(bytes));
  const at = (...path) => locate(bytes, path);
  if (!s || typeof s !== 'object' || Array.isArray(s)) {
    throw new ItemError('INVALID_ARGUMENT', 'settings must be an object {"agent_id", "issuer", "receipt_secrets"}', 0);
  }
  for (const k of Object.keys(s)) {
    if (!['agent_id', 'issuer', 'receipt_secrets'].includes(k)) {
      throw new ItemError('INVALID_ARGUMENT', `unknown setting "${k.slice(0, 40)}" (known: agent_id, issuer, receipt_secrets)`, at(k));
    }
  }
  for (const k of ['agent_id', 'issuer']) {
    if (s[k] !== undefined && typeof s[k] !== 'string') throw new ItemError('INVALID_ARGUMENT', `${k} must be a string`, at(k));
  }
  const secrets = s.receipt_secrets ?? [];
  if (!Array.isArray(secrets)) throw new ItemError('INVALID_ARGUMENT', 'receipt_secrets must be a list', at('receipt_secrets'));
  const out = [];
  secrets.forEach((x, i) => {
    if (!x || typeof x !== 'object' || Array.isArray(x)) {
      throw new ItemError('INVALID_ARGUMENT', `receipt_secrets[${i}] must be {"key_id", "secret", "valid_from"?, "valid_until"?}`, at('receipt_secrets', i));
    }
    for (const k of Object.keys(x)) {
      if (!['key_id', 'secret', 'valid_from', 'valid_until'].includes(k)) {
        throw new ItemError('INVALID_ARGUMENT', `receipt_secrets[${i}]: unknown member "${k.slice(0, 40)}"`, at('receipt_secrets', i, k));
      }
    }
    for (const k of ['key_id', 'secret']) {
      if (typeof x[k] !== 'string' || x[k] === '') throw new ItemError('INVALID_ARGUMENT', `receipt_secrets[${i}].${k} must be a non-empty string`, at('receipt_secrets', i, k));
    }
    for (const k of ['valid_from', 'valid_until']) {
      if (x[k] !== undefined && x[k] !== null && typeof x[k] !== 'string') throw new ItemError('INVALID_ARGUMENT', `receipt_secrets[${i}].${k} must be a string`, at('receipt_secrets', i, k));
    }
    out.push({ key_id: x.key_id, secret: x.secret, valid_from: x.valid_from || undefined, valid_until: x.valid_until || undefined });
  });
  const settings = { agent_id: s.agent_id || '', issuer: s.issuer || '', receipt_secrets: out };
  const problem = checkKeyRing(api, out);
  if (problem) throw new ItemError(problem.code, problem.message, at('receipt_secrets', problem.index ?? 0));
  return settings;
}

/** The key id of the registration secret alone (the core's `receipt::BASELINE_KEY_ID`). */
const BASELINE_KEY_ID = 'rk-1';

/**
 * Reads the CLI's key ring file as it is (`ekl … --key-ring FILE`: the registration secret as a
 * JSON string, or a non-empty list of keys {key_id, secret, valid_from, valid_until?}), the core
 * deciding: its bytes are the `keys` of one verification, read by ekl_core::receipt::KeyRing::
 * from_value as the CLI reads them. Returns {receipt_secrets} for the settings form (agent id and
 * issuer unchanged); throws ItemError with the core's code. Messages never hold a secret.
 */
export function checkKeyRingFile(api, bytes) {
  const refused = coreRefusal(api, bytes);
  if (refused) throw new ItemError(refused.code, refused.message.replace(/^[A-Z0-9_]+: /, ''), byteOfMessage(refused.message));
  try {
    api.verifyReceipt(new api.JsonText('{}'), new api.JsonText(bytes),
      { execution_id: 'x', collaboration_id: 'x', capability_id: 'x', requester_agent_id: 'x', provider_agent_id: 'x' });
  } catch (e) {
    if (!api.isEklError(e)) throw e;
    throw new ItemError(e.code, `the key ring: ${e.message.replace(/^[A-Z0-9_]+: /, '')}`, 0);
  }
  const v = JSON.parse(text(bytes));
  const list = typeof v === 'string'
    ? [{ key_id: BASELINE_KEY_ID, secret: v, valid_from: '0000-01-01T00:00:00Z' }]
    : v.map((k) => ({ key_id: k.key_id, secret: k.secret, valid_from: k.valid_from, valid_until: k.valid_until ?? undefined }));
  return { receipt_secrets: list };
}

/**
 * The core's verdict on a list of receipt secrets as a key ring (timestamps, windows, repeated key
 * ids): null when usable, else {code, message, index} (the index of the first key at fault, when
 * one can be named). Messages never hold a secret.
 */
export function checkKeyRing(api, secrets) {
  if (secrets.length === 0) return null;
  const ring = makeContext(api, { receipt_secrets: secrets }, null).keys;
  const probe = (keys) => {
    try {
      api.verifyReceipt(new api.JsonText('{}'), keys,
        { execution_id: 'x', collaboration_id: 'x', capability_id: 'x', requester_agent_id: 'x', provider_agent_id: 'x' });
      return null;
    } catch (e) {
      if (!api.isEklError(e)) throw e;
      return e;
    }
  };
  const e = probe(ring);
  if (!e) return null;
  // Which key: the shortest prefix of the ring that the core refuses.
  let index = 0;
  for (let n = 1; n <= ring.length; n++) {
    if (probe(ring.slice(0, n))) { index = n - 1; break; }
  }
  return { code: e.code, message: `receipt_secrets[${index}]: ${e.message.replace(/^[A-Z0-9_]+: /, '')}`, index };
}

// Verification of one receipt item with the ekl-wasm API: shared by the Web Worker and the Node
// tests. No DOM, no Node APIs.
//
// An item (one line of JSON lines, or one element of a JSON array) is an object:
//   {"receipt": {...MAC receipt...}, "call": {...}, "input_commitment"?: {...}, "output_commitment"?: {...}}
//   {"receipt_jws": "<compact JWS>", "call": {...}}          network-signed receipt (§9.5.1)
//   {"receipt": {..., "receipt_jws", "signature"}, "call": {...}}   network-signed receipt object
// The call of a MAC receipt: execution_id, collaboration_id, capability_id, provider_agent_id and
// optionally requester_agent_id (default: your agent id), capability_version, connection_id,
// terms_hash, execution_kind, reservation_id, grant_id, admission_id. The call of a network-signed
// receipt: execution_id, provider_agent_id, capability_id, input_fingerprint, sent_at, received_at
// (RFC 3339 or seconds since the epoch) and optionally requester_agent_id.
// The receipt is handed to the core as its exact source text (never re-serialised), so duplicate
// keys, big numbers and every other ekl-json-1 refusal are seen by the core.
import { parseRaw, get, plain } from './rawjson.js';

export class ItemError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Splits a receipts file into item texts: a JSON array, or JSON lines (blank lines skipped). */
export function splitItems(text) {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new Error('the receipts file is empty');
  if (trimmed[0] === '[') {
    let root;
    try {
      root = parseRaw(trimmed);
    } catch (e) {
      throw new Error(`the receipts file starts like a JSON array but is not JSON: ${e.message}`);
    }
    if (root.type !== 'array') throw new Error('the receipts file is not a JSON array');
    return root.items.map((n) => n.raw);
  }
  if (trimmed[0] !== '{') {
    throw new Error('the receipts file is neither a JSON array nor JSON lines of objects');
  }
  const lines = trimmed.split(/\r?\n/);
  const items = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (line[0] !== '{') throw new Error(`line ${i + 1} of the receipts file is not a JSON object`);
    try {
      JSON.parse(line);
    } catch (e) {
      throw new Error(`line ${i + 1} of the receipts file is not JSON: ${e.message}`);
    }
    items.push(line);
  }
  return items;
}

/** Seconds since the epoch from RFC 3339 text or a number. */
function seconds(v, what) {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v) && Number.isFinite(t)) {
      return Math.floor(t / 1000);
    }
  }
  throw new ItemError('INVALID_ARGUMENT', `call.${what} must be RFC 3339 or seconds since the epoch`);
}

/**
 * The consumer's context from the settings: {agentId, issuer, keyRing, jwks}.
 * `keyRing` is what api.verifyReceipt takes; `jwks` is the JWKS text (or null).
 */
export function makeContext(api, settings, jwksText) {
  return {
    agentId: settings.agent_id || '',
    issuer: settings.issuer || '',
    keyRing: (settings.receipt_secrets || []).map((s) => ({
      keyId: s.key_id, secret: s.secret,
      validFrom: s.valid_from || '0000-01-01T00:00:00Z',
      ...(s.valid_until ? { validUntil: s.valid_until } : {}),
    })),
    jwks: jwksText ? new api.Jwks(new api.JsonText(jwksText)) : null,
  };
}

/**
 * Verifies one item. Returns {kind, accepted, receipt_digest, checks, error}; `error` is
 * {code, message} when the item cannot be verified at all (then `accepted` is false).
 */
export function verifyItem(api, itemText, ctx) {
  let kind = 'unknown';
  try {
    let node;
    try {
      node = parseRaw(itemText);
    } catch (e) {
      throw new ItemError('INVALID_JSON', `not JSON: ${e.message}`);
    }
    if (node.type !== 'object') throw new ItemError('INVALID_RECEIPT', 'an item must be a JSON object');
    const call = plain(get(node, 'call'));
    if (call === undefined || call === null || typeof call !== 'object' || Array.isArray(call)) {
      throw new ItemError('INVALID_ARGUMENT', 'the item has no "call" object');
    }
    const jwsNode = get(node, 'receipt_jws');
    const receiptNode = get(node, 'receipt');
    const isSignedObject = receiptNode && receiptNode.type === 'object'
      && (get(receiptNode, 'receipt_jws') !== undefined || get(receiptNode, 'signature') !== undefined);
    let verdict;
    if (jwsNode !== undefined || isSignedObject) {
      kind = jwsNode !== undefined ? 'signed (JWS)' : 'signed (object)';
      if (!ctx.jwks) throw new ItemError('INVALID_JWKS', 'a network-signed receipt needs the network JWKS: load it');
      const context = {
        executionId: call.execution_id,
        providerAgentId: call.provider_agent_id,
        requesterAgentId: call.requester_agent_id ?? ctx.agentId,
        capabilityId: call.capability_id,
        inputFingerprint: call.input_fingerprint,
        ownAgentId: ctx.agentId,
        networkIssuer: ctx.issuer,
        sentAt: seconds(call.sent_at, 'sent_at'),
        receivedAt: seconds(call.received_at, 'received_at'),
      };
      verdict = jwsNode !== undefined
        ? api.verifyReceiptJws(plain(jwsNode), { jwks: ctx.jwks, call: context })
        : api.verifySignedReceipt(new api.JsonText(receiptNode.raw), { jwks: ctx.jwks, call: context });
    } else if (receiptNode !== undefined) {
      kind = 'MAC';
      // The item's call is snake_case JSON (as in the protocol); the API takes camelCase.
      const expectation = {};
      for (const [k, v] of Object.entries({ requester_agent_id: ctx.agentId, ...call })) {
        if (k !== 'label') expectation[k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())] = v;
      }
      if (ctx.keyRing.length === 0) throw new ItemError('INVALID_ARGUMENT', 'a MAC receipt needs your receipt secrets: enter them');
      verdict = api.verifyReceipt(new api.JsonText(receiptNode.raw), {
        keys: ctx.keyRing, call: expectation,
        inputCommitment: plain(get(node, 'input_commitment')), outputCommitment: plain(get(node, 'output_commitment')),
      });
    } else {
      throw new ItemError('INVALID_RECEIPT', 'the item has neither "receipt" nor "receipt_jws"');
    }
    return {
      kind,
      accepted: verdict.accepted,
      receipt_digest: verdict.receiptDigest ?? null,
      checks: verdict.checks,
      error: null,
    };
  } catch (e) {
    if (!(e instanceof ItemError) && !api.isEklError(e)) throw e;
    return {
      kind, accepted: false, receipt_digest: null, checks: [],
      error: { code: e.code, message: e.message },
    };
  }
}

/** The summary of many results: totals and, per check name, how many receipts failed it. */
export function summarise(results) {
  const s = { total: results.length, verified: 0, failed: 0, unreadable: 0, byCheck: {}, byError: {} };
  for (const r of results) {
    if (r.error) {
      s.unreadable++;
      s.byError[r.error.code] = (s.byError[r.error.code] || 0) + 1;
    } else if (r.accepted) {
      s.verified++;
    } else {
      s.failed++;
    }
    for (const c of r.checks) {
      if (c.outcome !== 'pass') s.byCheck[c.name] = (s.byCheck[c.name] || 0) + 1;
    }
  }
  return s;
}

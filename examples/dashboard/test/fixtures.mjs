// Test files for the dashboard, generated with the wasm package itself (signing included):
//   hostile(api)       receipts, a JWKS and settings whose ids, issuer, kid, labels, keys and error
//                      details carry HTML and script, all valid JSON (most verify, some are refused)
//   deepItem(depth)    one item nested `depth` levels deep (a JSON lines line)
//   tinyItems(bytes)   JSON lines of many small items, about `bytes` long
// Deterministic: fixed seeds, ids and times.
export const SEED = '07'.repeat(32);
export const AGENT = 'agt_<i>me</i>';
export const ISSUER = "javascript:window.__pwned='issuer'";
export const SECRET = 'rs_hostile-test-secret-0123456789';

/** Strings that would run script or load something if they were ever rendered as HTML. */
export const HOSTILE = {
  receiptId: '<img src=x onerror="window.__pwned=\'img\'">',
  executionId: '<script>window.__pwned=\'script\'</script>',
  label: '"><svg onload="window.__pwned=\'svg\'"></svg>',
  kid: '<b onmouseover="window.__pwned=\'kid\'">net</b>',
  capability: '<img src="http://evil.example/pixel.png">',
  provider: '<a href="http://evil.example/x" id="evil-link">provider</a>',
  dupKey: '<iframe src="http://evil.example/frame"></iframe>',
  callKey: '<style>body{display:none}</style>',
};

function commitmentOf(api, value) {
  return api.commitment(value);
}

/** The hostile set: {settings, jwks, receipts (JSON lines text), count}. */
export function hostile(api) {
  const { jwks, keys } = api.jwksFromSeed(SEED, [HOSTILE.kid]);
  const input = { q: HOSTILE.label };
  const result = { a: HOSTILE.executionId };
  const mac = {
    receipt_version: '1.1', receipt_id: HOSTILE.receiptId, execution_kind: 'trial', requester_agent_id: AGENT,
    provider_agent_id: HOSTILE.provider, collaboration_id: 'col_1', connection_id: 'con_1', execution_id: HOSTILE.executionId,
    capability_id: HOSTILE.capability, capability_version: '1.0.0', rel_ver_at_admission: 1, dsc_ver: 1, terms_hash: 't',
    input_commitment: commitmentOf(api, input), output_commitment: commitmentOf(api, result), status: 'succeeded',
    issued_at: '2026-11-29T18:40:05Z', key_id: 'rk-1', auth_profile: 'ekl-evidence-mac-1.1',
  };
  const signed = api.signReceipt(mac, SECRET);
  const macCall = {
    execution_id: HOSTILE.executionId, collaboration_id: 'col_1', capability_id: HOSTILE.capability, provider_agent_id: HOSTILE.provider,
  };
  const iat = 1795977605; // 2026-11-29T18:40:05Z
  const fields = {
    receipt_version: '1.2', receipt_id: HOSTILE.receiptId, execution_id: HOSTILE.executionId, provider_agent_id: HOSTILE.provider,
    requester_agent_id: AGENT, capability_id: HOSTILE.capability, input_fingerprint: 'f'.repeat(64), status: 'succeeded',
    issued_at: '2026-11-29T18:40:05Z',
  };
  const object = api.issueReceipt(fields, keys[0], ISSUER, AGENT);
  const sigCall = {
    execution_id: HOSTILE.executionId, provider_agent_id: HOSTILE.provider, capability_id: HOSTILE.capability,
    input_fingerprint: 'f'.repeat(64), sent_at: iat - 1, received_at: iat + 1,
  };
  const lines = [
    JSON.stringify({ label: HOSTILE.label, receipt: signed, call: macCall }),
    JSON.stringify({ label: `${HOSTILE.label} (tampered)`, receipt: { ...signed, status: '<marquee>failed</marquee>' }, call: macCall }),
    JSON.stringify({ label: HOSTILE.label, receipt_jws: object.receipt_jws, call: sigCall }),
    JSON.stringify({ label: HOSTILE.label, receipt: object, call: { ...sigCall, sent_at: iat + 7200, received_at: iat + 7300 } }),
    `{"label": ${JSON.stringify(HOSTILE.label)}, ${JSON.stringify(HOSTILE.dupKey)}: 1, ${JSON.stringify(HOSTILE.dupKey)}: 2, "call": {}, "receipt": {}}`,
    JSON.stringify({ label: HOSTILE.label, receipt: signed, call: { ...macCall, [HOSTILE.callKey]: 'x' } }),
    `{"label": ${JSON.stringify(HOSTILE.label)}, "call": {}, "receipt": {"receipt_id": ${JSON.stringify(HOSTILE.receiptId)}, "a": 1, "a": 2}}`,
  ];
  const settings = { agent_id: AGENT, issuer: ISSUER, receipt_secrets: [{ key_id: 'rk-1', secret: SECRET }] };
  return {
    settings: `${JSON.stringify(settings, null, 2)}\n`,
    jwks: `${JSON.stringify(jwks.toJSON(), null, 2)}\n`,
    receipts: `${lines.join('\n')}\n`,
    count: lines.length,
  };
}

/** One JSON lines item nested `depth` levels deep in its receipt. */
export function deepItem(depth) {
  return `{"label": "deep", "call": {}, "receipt": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

/** JSON lines of small items (each refused: no call), about `bytes` long. */
export function tinyItems(bytes) {
  const line = '{"receipt":{"a":1}}\n';
  return line.repeat(Math.ceil(bytes / line.length));
}

/** Every C0 control character, DEL and every C1 control character (65 characters). */
export const CONTROLS = String.fromCharCode(...Array.from({ length: 32 }, (_, k) => k), ...Array.from({ length: 33 }, (_, k) => 0x7f + k));

/**
 * Receipts whose ids hold what a row store must keep apart (issue 24): the old separator U+0001
 * with spoofed fields after it, every control character, U+2028/U+2029, bidi and zero-width
 * characters, quotes and backslashes (a literal "\u0001" too), astral characters, empty ids, very
 * long ids (ASCII and 3-byte characters), lone surrogates (in a label, in a refused receipt's id). MAC receipts signed with the
 * hostile set's secret (a provider can MAC its own receipt): most verify; one is tampered (failed)
 * and one is refused (unreadable, its ids from the call). {settings, receipts, lines, count}.
 */
export function spoofed(api) {
  const base = {
    receipt_version: '1.1', execution_kind: 'trial', requester_agent_id: AGENT, collaboration_id: 'col_1', connection_id: 'con_1',
    capability_version: '1.0.0', rel_ver_at_admission: 1, dsc_ver: 1, terms_hash: 't', input_commitment: commitmentOf(api, { q: 1 }),
    output_commitment: commitmentOf(api, { a: 1 }), status: 'succeeded', issued_at: '2026-11-29T18:40:05Z', key_id: 'rk-1',
    auth_profile: 'ekl-evidence-mac-1.1',
  };
  const mac = (ids, extra = {}) => {
    const unsigned = { ...base, ...ids };
    // signReceipt refuses an empty id (docs/decisions/edges.md#empty); such a receipt can still
    // arrive from elsewhere, and the page must show it: tagged here by hand (it fails its
    // required_fields check, as the core says).
    const receipt = Object.values(ids).includes('') ? { ...unsigned, auth_tag: api.authTag(unsigned, SECRET) } : api.signReceipt(unsigned, SECRET);
    const call = { execution_id: ids.execution_id, collaboration_id: 'col_1', capability_id: ids.capability_id, provider_agent_id: ids.provider_agent_id };
    return { receipt, call, ...extra };
  };
  const ids = (receipt_id, execution_id, provider_agent_id, capability_id) => ({ receipt_id, execution_id, provider_agent_id, capability_id });
  const items = [
    // The attack of issue 24: the separator, then a spoofed execution, provider, capability and time.
    mac(ids('rcpt_1\u0001ex_SPOOFED\u0001agt_SPOOFED\u0001cap_SPOOFED\u00012001-01-01T00:00:00Z', 'ex_TRUE', 'agt_TRUE', 'cap_TRUE'), { label: 'spoof' }),
    mac(ids(CONTROLS.slice(0, 40), CONTROLS.slice(40), `\u2028\u2029\u202e\u200b\ufeff\u200d\u2066x\u2069`, 'cap_\u0001\u0001\u0001'), { label: `tab\there\nnew\rline\u0000nul` }),
    mac(ids('q"uo\'te\\back\\\\slash', 'literal\\u0001escape', '\\', '"'), { label: '\\u2028 not a separator' }),
    mac(ids('rcpt_😀_𝄞', 'ex_é_ñ_中文', 'agt_\u{E0041}tag', 'cap_\u{1F468}\u200d\u{1F469}'), { label: '' }),
    mac(ids('', 'ex_empty_receipt_id', 'agt_p', 'cap_c'), { label: 'empty receipt id' }),
    mac(ids(`rcpt_${'x'.repeat(995)}`, 'ex_long', 'agt_p', 'cap_c'), { label: 'a long receipt id' }),
    mac(ids('rcpt_cjk', '中'.repeat(79), '文'.repeat(79), '字'.repeat(79)), { label: '語'.repeat(79) }),
    // A lone surrogate in the label: the core refuses the line (LONE_SURROGATE), and so does the page.
    mac(ids('rcpt_lone', 'ex_lone', 'agt_p', 'cap_c'), { label: 'lone \ud800 surrogate' }),
  ];
  const lines = items.map((it) => JSON.stringify(it));
  // Tampered: failed, and listed under "problems".
  const t = mac(ids('rcpt_T\u0001ex_SPOOFED\u0001agt_SPOOFED', 'ex_T\u2028', 'agt_T\u0001', 'cap_T'), { label: 'tampered' });
  lines.push(JSON.stringify({ ...t, receipt: { ...t.receipt, status: 'failed' } }));
  // Refused by the core (a duplicate member): unreadable, its ids from the call.
  // (Its receipt id holds a lone surrogate: the page shows the ids of a refused item as it reads them.)
  lines.push(`{"label": "refused\\u0001x", "call": ${JSON.stringify({ execution_id: 'ex_R\u0001agt_X', collaboration_id: 'c', capability_id: 'cap_R\u0000', provider_agent_id: 'agt_R' })}, "receipt": {"receipt_id": "rcpt_R\\u0001\\udc00", "a": 1, "a": 2}}`);
  const settings = { agent_id: AGENT, issuer: ISSUER, receipt_secrets: [{ key_id: 'rk-1', secret: SECRET }] };
  return { settings: `${JSON.stringify(settings, null, 2)}\n`, receipts: `${lines.join('\n')}\n`, lines, count: lines.length };
}

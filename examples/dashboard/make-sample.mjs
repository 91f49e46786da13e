// Generates the dashboard's sample data with our CLI (`ekl`, target/release/ekl): MAC receipts
// signed by `ekl receipt sign`, network-signed receipts issued by `ekl receipt-sig issue` (when the
// CLI has it), valid ones and tampered ones of each kind, each with the call it answers.
//   node examples/dashboard/make-sample.mjs [OUT_DIR] [--signed N]
// Writes OUT_DIR (default examples/dashboard/sample): settings.json, jwks.json, receipts.jsonl
// (the mixed sample), tampered.json (only tampered items, as a JSON array) and expected.json (per
// item of receipts.jsonl: whether it verifies and which checks fail; the tests assert it).
// `--signed N` instead writes N valid network-signed receipts to OUT_DIR/signed-N.jsonl (the
// timing benchmark); `--triage N` N receipts of which every 25th is bad, of known first causes
// (OUT_DIR/triage-N.jsonl and triage-N.expected.json: the operator's triage test, issue 43). Deterministic: the same bytes every run (fixed keys, ids and clocks).
import { spawnSync } from 'node:child_process';
import { createHmac, createPrivateKey, sign as cryptoSign } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const EKL = process.env.EKL_BIN || join(repo, 'target', 'release', 'ekl');
const args = process.argv.slice(2);
const signedIdx = args.indexOf('--signed');
const signedCount = signedIdx >= 0 ? Number(args[signedIdx + 1]) : 0;
const valueAt = new Set(['--signed', '--triage'].map((f) => args.indexOf(f)).filter((k) => k >= 0).map((k) => k + 1));
const out = resolve(args.find((a, i) => !a.startsWith('--') && !valueAt.has(i)) || join(here, 'sample'));

function ekl(argv, input) {
  const r = spawnSync(EKL, argv, { input, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`ekl ${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}
const hasCommand = (cmd) => spawnSync(EKL, ['help'], { encoding: 'utf8' }).stdout.includes(`  ${cmd} `);

const AGENT = 'agt_c0ns7m3r4a';
const PROVIDER = 'agt_pr0v1d3r9b';
const ISSUER = 'https://network.example';
const SECRET = 'rs_sample-registration-secret-not-real';
const SECRET2 = 'rs_sample-rotated-secret-not-real';
const settings = {
  agent_id: AGENT,
  issuer: ISSUER,
  receipt_secrets: [
    { key_id: 'rk-1', secret: SECRET, valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-11-01T00:00:00Z' },
    { key_id: 'rk-2', secret: SECRET2, valid_from: '2026-11-01T00:00:00Z' },
  ],
};

const commits = new Map();
const commit = (value) => {
  const text = JSON.stringify(value);
  if (!commits.has(text)) commits.set(text, ekl(['commit', '-'], text));
  return JSON.parse(commits.get(text));
};
const INPUT = { invoice_text: 'INVOICE 2026-118 total 41.00 EUR', currency: 'EUR' };
const RESULT = { invoice_number: '2026-118', total: 41, currency: 'EUR' };

function macReceipt(n, over = {}) {
  return {
    receipt_version: '1.1',
    receipt_id: `rcpt_${String(n).padStart(4, '0')}`,
    execution_kind: 'customer',
    requester_agent_id: AGENT,
    provider_agent_id: PROVIDER,
    collaboration_id: 'col_c3c7b453aa7e',
    connection_id: 'con_5f0e2b9a11d4',
    execution_id: `ex_${String(n).padStart(4, '0')}`,
    capability_id: 'cap_invoice_extract',
    capability_version: '2.3.1',
    rel_ver_at_admission: 4,
    dsc_ver: 12,
    terms_hash: 'c7ced5b0b7869d6a6e681d701ea0d130e144a4a39a266aca788837f1e2115b7c',
    reservation_id: `rsv_${n}`,
    grant_id: `grt_${n}`,
    admission_id: `adm_${n}`,
    input_commitment: commit(INPUT),
    output_commitment: commit(RESULT),
    status: 'succeeded',
    issued_at: '2026-11-29T18:40:05.250Z',
    key_id: 'rk-2',
    auth_profile: 'ekl-evidence-mac-1.1',
    ...over,
  };
}
const sign = (receipt, secret) => JSON.parse(ekl(['receipt', 'sign', '--secret', secret, '-'], JSON.stringify(receipt)));
// A receipt `ekl receipt sign` refuses (its verifier would fail it) is tagged here without those
// checks, as a careless provider would: key = HMAC-SHA256(secret, "ekl-receipt-1.1" 0x00 key_id),
// auth_tag = HMAC-SHA256(key, ekl-json-1 of the receipt); the same bytes `sign` gave before it
// checked (docs/decisions.md#issuing).
const tagUnchecked = (receipt, secret) => {
  const key = createHmac('sha256', secret).update(`ekl-receipt-1.1\0${receipt.key_id}`).digest();
  const tag = createHmac('sha256', key).update(ekl(['canon', '-'], JSON.stringify(receipt))).digest('hex');
  return JSON.parse(ekl(['canon', '-'], JSON.stringify({ ...receipt, auth_tag: tag })));
};
const macCall = (r) => ({
  execution_id: r.execution_id, collaboration_id: r.collaboration_id, capability_id: r.capability_id,
  provider_agent_id: r.provider_agent_id, capability_version: r.capability_version,
});
const macItem = (receipt, call, label) => ({
  label, receipt, call, input_commitment: commit(INPUT), output_commitment: commit(RESULT),
});

/** The MAC items: [item, expected {accepted, failing checks, error code}]. */
function macItems() {
  const items = [];
  const add = (item, expected) => items.push([item, expected]);
  let n = 1;
  // Valid ones.
  for (const [kind, over] of [['customer', {}], ['trial', { execution_kind: 'trial', reservation_id: undefined, grant_id: undefined, admission_id: undefined }]]) {
    const r = sign(macReceipt(n, over), SECRET2);
    add(macItem(r, macCall(r), `valid ${kind} receipt (rk-2)`), { accepted: true, failing: [] });
    n++;
  }
  {
    const r = sign(macReceipt(n, { key_id: 'rk-1', issued_at: '2026-10-15T09:00:00Z' }), SECRET);
    add(macItem(r, macCall(r), 'valid receipt under the retired key rk-1, issued while it was valid'), { accepted: true, failing: [] });
    n++;
  }
  // Tampered: a member changed after signing.
  {
    const r = sign(macReceipt(n), SECRET2);
    r.status = 'failed_before_effect';
    add(macItem(r, macCall(r), 'tampered: status changed after signing'), { accepted: false, failing: ['auth_tag'] });
    n++;
  }
  {
    const r = sign(macReceipt(n), 'a-wrong-secret');
    add(macItem(r, macCall(r), 'tampered: signed with another secret'), { accepted: false, failing: ['auth_tag'] });
    n++;
  }
  {
    const r = sign(macReceipt(n, { key_id: 'rk-9' }), SECRET2);
    add(macItem(r, macCall(r), 'unknown key id rk-9'), { accepted: false, failing: ['key_id', 'auth_tag'] });
    n++;
  }
  {
    const r = sign(macReceipt(n, { key_id: 'rk-1' }), SECRET);
    add(macItem(r, macCall(r), 'key rk-1 used after it was retired'), { accepted: false, failing: ['key_id', 'auth_tag'] });
    n++;
  }
  {
    const r = sign(macReceipt(n), SECRET2);
    add(macItem(r, { ...macCall(r), execution_id: 'ex_other' }, 'answers another call (execution_id)'), { accepted: false, failing: ['execution_id'] });
    n++;
  }
  {
    const r = sign(macReceipt(n, { output_commitment: commit({ ...RESULT, total: 14 }) }), SECRET2);
    add(macItem(r, macCall(r), "dispute: the provider committed to another result than the one received"), { accepted: false, failing: ['output_commitment'] });
    n++;
  }
  {
    const r = tagUnchecked(macReceipt(n, { admission_id: undefined }), SECRET2);
    add(macItem(r, macCall(r), 'customer receipt without admission_id'), { accepted: false, failing: ['kind_fields'] });
    n++;
  }
  return items;
}

// ---- network-signed receipts (§9.5.1): JWS by `ekl jws sign`, key set by `ekl jwks from-seed` ----
const SEED = '5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed';
const KID = 'net-2026-11';
const ISSUED_AT = '2026-11-29T18:40:05Z';
const IAT = Date.parse(ISSUED_AT) / 1000;
const INPUT_FP = '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c';
const b64 = (text) => Buffer.from(text).toString('base64url');

function sigClaims(n, over = {}) {
  const { input_commitment: _i, output_commitment: _o, key_id: _k, auth_profile: _a, ...fields } = macReceipt(n);
  return {
    ...fields, issued_at: ISSUED_AT, auth_profile: 'ekl-evidence-sig-1.2', input_fingerprint: INPUT_FP,
    iss: ISSUER, aud: AGENT, iat: IAT, ...over,
  };
}
const sigCall = (c) => ({
  execution_id: c.execution_id, provider_agent_id: c.provider_agent_id, capability_id: c.capability_id,
  input_fingerprint: INPUT_FP, sent_at: IAT - 3, received_at: IAT + 1,
});
const jwsSign = (claims, typ = 'ekl-receipt+jwt', kid = KID) =>
  ekl(['jws', 'sign', '--typ', typ, '--seed', SEED, '--kid', kid, '-'], JSON.stringify(claims));

function signedItems() {
  const items = [];
  const add = (label, receiptJws, call, expected) => items.push([{ label, receipt_jws: receiptJws, call }, expected]);
  let n = 101;
  const next = (over) => { const c = sigClaims(n++, over); return [c, sigCall(c)]; };
  { const [c, call] = next(); add('valid network-signed receipt (JWS)', jwsSign(c), call, { accepted: true, failing: [] }); }
  { const [c, call] = next(); add('valid network-signed receipt, trial', jwsSign({ ...c, execution_kind: 'trial' }), call, { accepted: true, failing: [] }); }
  {
    const [c, call] = next();
    const [h, , s] = jwsSign(c).split('.');
    add('tampered: claims changed after signing (status)', `${h}.${b64(JSON.stringify({ ...c, status: 'failed_before_effect' }))}.${s}`, call,
      { accepted: false, failing: ['signature'] });
  }
  { const [c, call] = next({ aud: 'agt_someone_else' }); add('issued for another agent (aud)', jwsSign(c), call, { accepted: false, failing: ['aud'] }); }
  { const [c, call] = next({ iss: 'https://rogue.example' }); add('issued by another issuer (iss)', jwsSign(c), call, { accepted: false, failing: ['iss'] }); }
  { const [c, call] = next(); add('dispute: another input fingerprint than the one sent', jwsSign(c), { ...call, input_fingerprint: 'f'.repeat(64) }, { accepted: false, failing: ['input_fingerprint'] }); }
  { const [c, call] = next(); add('issued outside the call window (iat)', jwsSign(c), { ...call, sent_at: IAT + 3600, received_at: IAT + 3605 }, { accepted: false, failing: ['iat_in_call_window'] }); }
  { const [c, call] = next({ iat: IAT + 7 }); add('iat is not issued_at', jwsSign(c), call, { accepted: false, failing: ['iat_matches_issued_at'] }); }
  { const [c, call] = next(); add('a token of another type (typ ekl-access+jwt)', jwsSign(c, 'ekl-access+jwt'), call, { accepted: false, failing: ['alg_typ'] }); }
  { const [c, call] = next(); add('signed with a key the network does not publish (kid)', jwsSign(c, 'ekl-receipt+jwt', 'net-rogue'), call, { accepted: false, failing: [], error: 'UNKNOWN_KID' }); }
  return items;
}

/** N valid network-signed receipts, signed here with node:crypto by the sample's key (timing set). */
function signedMany(count) {
  const jwk = JSON.parse(ekl(['jwks', 'from-seed', '--seed', SEED, '--kid', KID, '--private'])).keys[0];
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const header = b64(JSON.stringify({ alg: 'ES256', kid: KID, typ: 'ekl-receipt+jwt' }));
  const lines = [];
  for (let i = 0; i < count; i++) {
    const c = sigClaims(100000 + i);
    const input = `${header}.${b64(JSON.stringify(c))}`;
    const sig = cryptoSign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    lines.push(JSON.stringify({ receipt_jws: `${input}.${sig}`, call: sigCall(c) }));
  }
  return `${lines.join('\n')}\n`;
}

/** ekl-json-1 of the plain values a generated receipt holds (strings, safe integers, objects). */
const canon = (v) => (v && typeof v === 'object'
  ? `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`
  : JSON.stringify(v));
/** A MAC receipt tagged here (the same bytes as `ekl receipt sign`, docs/decisions.md#issuing). */
const macTag = (receipt, secret) => {
  const key = createHmac('sha256', secret).update(`ekl-receipt-1.1\0${receipt.key_id}`).digest();
  return { ...receipt, auth_tag: createHmac('sha256', key).update(canon(receipt)).digest('hex') };
};

/**
 * The operator's triage file (issue 43): `count` items, every 25th (from the 8th) bad, 400 in
 * 10,000, of known first causes, the rest valid network-signed receipts. Returns {text, expected}
 * (expected: the summary the page must show: failed and unreadable receipts, by first cause).
 */
function triageSet(count) {
  const jwk = JSON.parse(ekl(['jwks', 'from-seed', '--seed', SEED, '--kid', KID, '--private'])).keys[0];
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const header = b64(JSON.stringify({ alg: 'ES256', kid: KID, typ: 'ekl-receipt+jwt' }));
  const token = (c) => {
    const input = `${header}.${b64(JSON.stringify(c))}`;
    return `${input}.${cryptoSign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  const mac = (n, over, secret, status) => {
    const r = macTag(macReceipt(n, over), secret);
    const item = macItem(status ? { ...r, status } : r, macCall(r), undefined);
    delete item.label;
    return item;
  };
  // [first cause, how many, item of receipt number n]
  const bad = [
    ['key_id:unknown_key', 80, (n) => mac(n, { key_id: 'rk-9' }, SECRET2)],
    ['key_id:key_expired', 40, (n) => mac(n, { key_id: 'rk-1' }, SECRET)],
    ['key_id:key_not_yet_valid', 30, (n) => mac(n, { issued_at: '2026-10-15T09:00:00Z' }, SECRET2)],
    ['auth_tag', 50, (n) => mac(n, {}, SECRET2, 'failed_before_effect')],
    ['execution_id', 30, (n) => { const it = mac(n, {}, SECRET2); it.call.execution_id = 'ex_other'; return it; }],
    ['signature', 60, (n) => { const c = sigClaims(n); const [h, , sg] = token(c).split('.'); return { receipt_jws: `${h}.${b64(JSON.stringify({ ...c, status: 'failed_before_effect' }))}.${sg}`, call: sigCall(c) }; }],
    ['aud', 40, (n) => { const c = sigClaims(n, { aud: 'agt_someone_else' }); return { receipt_jws: token(c), call: sigCall(c) }; }],
    ['iat_in_call_window', 40, (n) => { const c = sigClaims(n); return { receipt_jws: token(c), call: { ...sigCall(c), sent_at: IAT + 3600, received_at: IAT + 3605 } }; }],
    ['error:DUPLICATE_KEY', 30, (n) => mac(n, {}, SECRET2)],
  ];
  const queue = bad.flatMap(([cause, k, make]) => Array.from({ length: k }, () => [cause, make]));
  const expected = { total: count, failed: 0, unreadable: 0, byCause: {}, byError: {} };
  const lines = [];
  for (let i = 0; i < count; i++) {
    const n = 200000 + i;
    const slot = i % 25 === 7 ? queue[Math.floor(i / 25) % queue.length] : null;
    if (!slot) {
      const c = sigClaims(n);
      lines.push(JSON.stringify({ receipt_jws: token(c), call: sigCall(c) }));
      continue;
    }
    const [cause, make] = slot;
    let line = JSON.stringify(make(n));
    if (cause.startsWith('error:')) {
      line = line.replace('"status":"succeeded"', '"status":"succeeded","status":"failed_before_effect"');
      expected.unreadable++;
      expected.byError[cause.slice(6)] = (expected.byError[cause.slice(6)] || 0) + 1;
    } else {
      expected.failed++;
      expected.byCause[cause] = (expected.byCause[cause] || 0) + 1;
    }
    lines.push(line);
  }
  return { text: `${lines.join('\n')}\n`, expected };
}

function write(name, text) {
  writeFileSync(join(out, name), text);
}

mkdirSync(out, { recursive: true });
const canSign = hasCommand('jws');
const canMac = hasCommand('receipt sign');
const triageIdx = args.indexOf('--triage');
if (triageIdx >= 0) {
  const count = Number(args[triageIdx + 1]);
  const { text, expected } = triageSet(count);
  write(`triage-${count}.jsonl`, text);
  write(`triage-${count}.expected.json`, `${JSON.stringify(expected, null, 2)}\n`);
  console.log(`sample: ${count} receipts, ${expected.failed + expected.unreadable} bad, in ${join(out, `triage-${count}.jsonl`)}`);
  process.exit(0);
}
if (signedCount > 0) {
  if (!canSign) throw new Error('--signed needs `ekl jws sign` and `ekl jwks from-seed`');
  write(`signed-${signedCount}.jsonl`, signedMany(signedCount));
  console.log(`sample: ${signedCount} network-signed receipts in ${join(out, `signed-${signedCount}.jsonl`)}`);
  process.exit(0);
}
const items = [...(canMac ? macItems() : []), ...(canSign ? signedItems() : [])];
if (items.length === 0) throw new Error('the ekl CLI can neither sign MAC receipts nor JWS');
// One item that cannot be verified at all: duplicate keys in the receipt (an error row, not a crash).
const dup = !canMac ? null : JSON.stringify({ label: 'unreadable: duplicate key in the receipt', receipt: sign(macReceipt(99), SECRET2), call: macCall(macReceipt(99)) })
  .replace('"status":"succeeded"', '"status":"succeeded","status":"failed_before_effect"');
const lines = items.map(([item]) => JSON.stringify(item));
if (dup) lines.push(dup);
const expected = items.map(([item, e]) => ({ label: item.label, ...e, failing: e.failing }));
if (dup) expected.push({ label: 'unreadable: duplicate key in the receipt', accepted: false, failing: [], error: 'DUPLICATE_KEY' });

write('settings.json', `${JSON.stringify(settings, null, 2)}\n`);
write('jwks.json', canSign ? `${JSON.stringify(JSON.parse(ekl(['jwks', 'from-seed', '--seed', SEED, '--kid', KID])), null, 2)}\n` : '{"keys": []}\n');
write('receipts.jsonl', `${lines.join('\n')}\n`);
write('tampered.json', `[\n${items.filter(([, e]) => !e.accepted && !e.error).map(([item]) => JSON.stringify(item)).join(',\n')}\n]\n`);
write('expected.json', `${JSON.stringify(expected, null, 2)}\n`);
console.log(`sample: ${lines.length} receipts (${expected.filter((e) => e.accepted).length} valid) in ${out}${canSign ? '' : ' (no network-signed receipts: the CLI cannot sign a JWS)'}`);

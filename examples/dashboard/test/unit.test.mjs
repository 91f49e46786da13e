// The dashboard's modules in Node, with the wasm package: the file splitter (every shape, every chunk
// size, bounds), the byte-level JSON helpers, the item checks (the sample's expected verdicts, with a
// meta-test), refusals of bad items, settings and JWKS files, the row store's bounds and filters,
// the check words (every check id the core can emit has words), pasted text (bounds, codes) and the
// export of the failures alone (issue 26).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Splitter, splitAll, MAX_ITEM_BYTES } from '../scan.js';
import { topMembers, pretty, locate, lineAt, depthOf, base64url, valueEnd } from '../json.js';
import { makeContext, checkItem, checkBatch, inspectItem, checkSettings, checkJwks, checkKeyRing, checkKeyRingFile, ItemError } from '../verify.js';
import { RowStore, emptySummary, count, shown, shownField, exportRecord, itemNumber, TEXT_FIELDS, EXPORT_NAMES, FIELD_CHARS, MESSAGE_CHARS, ROW_TEXT_BYTES } from '../rows.js';
import { CHECK_WORDS, checkWords, checkLabel, missingWords, checkIdsInSource } from '../checks.js';
import { pastedFile, editable, InputError, MAX_RECEIPTS_BYTES, PASTE_NAME } from '../inputs.js';
import { exportParts, FAILURES } from '../rows.js';
import { readdirSync } from 'node:fs';
import { dash, repo } from './harness.mjs';
import { deepItem, hostile, spoofed, CONTROLS } from './fixtures.mjs';

const require = createRequire(import.meta.url);
const api = require(join(repo, 'wasm', 'dist', 'index.cjs'));
// ekl-json-1's nesting limit, as the package gives it (the manifest's limits.max_depth)
const { MAX_DEPTH } = api;
const sample = join(dash, 'sample');
const bytesOf = (t) => new TextEncoder().encode(t);
const expected = JSON.parse(readFileSync(join(sample, 'expected.json'), 'utf8'));
const settings = checkSettings(api, readFileSync(join(sample, 'settings.json')));
const ctx = makeContext(api, settings, readFileSync(join(sample, 'jwks.json')));

// ---- the splitter ----------------------------------------------------------------------------------
const texts = (file, opts) => splitAll(bytesOf(file), opts).items.map((it) => (it.bytes ? new TextDecoder().decode(it.bytes) : null));

test('splitter: JSON lines, blank lines, CRLF, a byte-order mark', () => {
  const file = '\uFEFF{"a":1}\r\n\r\n  {"b":[1,2]}  \n{"c":"}\\"{"}';
  const { items, mode } = splitAll(bytesOf(file));
  assert.equal(mode, 'lines');
  assert.deepEqual(items.map((i) => new TextDecoder().decode(i.bytes)), ['{"a":1}', '{"b":[1,2]}', '{"c":"}\\"{"}']);
  assert.deepEqual(items.map((i) => i.line), [1, 3, 4]);
});

test('splitter: a JSON array (compact and pretty), one pretty object, several pretty objects', () => {
  const item = { receipt: { a: [1, { b: '}]' }] }, call: {} };
  assert.deepEqual(texts(`[${JSON.stringify(item)},${JSON.stringify(item)}]`), [JSON.stringify(item), JSON.stringify(item)]);
  const prettyArray = JSON.stringify([item, item, 5, 'x'], null, 2);
  const a = splitAll(bytesOf(prettyArray));
  assert.equal(a.mode, 'array');
  assert.deepEqual(a.items.map((i) => JSON.parse(new TextDecoder().decode(i.bytes))), [item, item, 5, 'x']);
  assert.deepEqual(a.items.map((i) => i.line), [2, 13, 24, 25]);
  const one = JSON.stringify(item, null, 2);
  const o = splitAll(bytesOf(one));
  assert.equal(o.mode, 'values');
  assert.deepEqual(o.items.map((i) => JSON.parse(new TextDecoder().decode(i.bytes))), [item]);
  const two = splitAll(bytesOf(`${one}\n${one}\n`));
  assert.equal(two.items.length, 2);
  assert.equal(two.items[1].line, one.split('\n').length + 1);
  assert.deepEqual(splitAll(bytesOf('[1, 2')).warnings, ['the JSON array is not closed with ]']);
});

test('splitter: a broken first line still reads as JSON lines; a broken line does not take its neighbours', () => {
  const file = '{"receipt": \n{"a":1}\n{"b":\n{"c":3}\n';
  const { items, mode } = splitAll(bytesOf(file));
  assert.equal(mode, 'lines');
  assert.deepEqual(items.map((i) => new TextDecoder().decode(i.bytes)), ['{"receipt":', '{"a":1}', '{"b":', '{"c":3}']);
});

test('splitter: the same items and offsets whatever the chunk size', () => {
  const item = (i) => JSON.stringify({ label: `é ${i} \u{1F600}`, receipt: { x: '[{'.repeat(i % 5) }, call: {} });
  const shapes = [
    Array.from({ length: 50 }, (_, i) => item(i)).join('\n'),
    `[${Array.from({ length: 50 }, (_, i) => item(i)).join(',\n')}]`,
    Array.from({ length: 20 }, (_, i) => JSON.stringify(JSON.parse(item(i)), null, 3)).join('\n'),
  ];
  for (const file of shapes) {
    const bytes = bytesOf(file);
    const ref = splitAll(bytes, { chunkSize: bytes.length });
    for (const chunkSize of [1, 2, 3, 7, 64, 1000]) {
      const got = splitAll(bytes, { chunkSize });
      assert.equal(got.items.length, ref.items.length, `chunk ${chunkSize}`);
      got.items.forEach((it, k) => {
        const r = ref.items[k];
        assert.deepEqual([it.offset, it.size, it.line], [r.offset, r.size, r.line]);
        assert.deepEqual(it.bytes, bytes.subarray(it.offset, it.offset + it.size), 'the offset names the bytes');
      });
    }
  }
});

test('splitter: items over the limit are reported by size, nothing of them kept; incomplete items', () => {
  const max = 100;
  const big = `{"x":"${'a'.repeat(300)}"}`;
  for (const file of [`{"a":1}\n${big}\n{"b":2}\n`, `[{"a":1},${big},{"b":2}]`, `{\n"a":1}\n${big}\n{\n"b":2}`]) {
    const bytes = bytesOf(file);
    for (const chunkSize of [7, 64, 1 << 16]) {
      const { items } = splitAll(bytes, { chunkSize, maxItemBytes: max });
      assert.equal(items.length, 3, file);
      assert.equal(items[1].tooLarge, true);
      assert.equal(items[1].bytes, null);
      assert.equal(items[1].size, big.length);
      assert.equal(new TextDecoder().decode(bytes.subarray(items[1].offset, items[1].offset + items[1].size)), big);
      assert.equal(items[2].tooLarge, false);
    }
  }
  // The kept bytes stay bounded (at most the 64 KiB head, then at most one item) while a long line
  // streams through.
  const s = new Splitter({ maxItemBytes: 1000 });
  for (let i = 0; i < 400; i++) {
    s.push(bytesOf('x'.repeat(500)));
    assert.ok(!s.carry || s.carry.length <= 65536 + 500);
  }
  assert.equal(s.carry, null);
  const last = s.finish();
  assert.equal(last.length, 1);
  assert.equal(last[0].size, 200_000);
  assert.equal(last[0].tooLarge, true);
  const cut = splitAll(bytesOf('{\n"a":1}\n\n{\n  "b": [1, 2'));
  assert.deepEqual(cut.items.map((i) => [i.line, i.incomplete]), [[1, false], [4, true]]);
  assert.equal(MAX_ITEM_BYTES, 1 << 20);
});

// ---- byte-level JSON ------------------------------------------------------------------------------
test('json: top-level members by byte span, depth bound, malformed input', () => {
  const b = bytesOf('{"receipt" : {"a":[1,{"b":"]}"}]}, "k\\u00e9y":"x", "n":-1.5e3}');
  const m = topMembers(b, MAX_DEPTH);
  assert.deepEqual(m.members.map(([k]) => k), ['receipt', 'kéy', 'n']);
  assert.equal(new TextDecoder().decode(b.subarray(m.members[0][1], m.members[0][2])), '{"a":[1,{"b":"]}"}]}');
  assert.equal(m.depth, 4);
  assert.equal(topMembers(bytesOf('[1]'), MAX_DEPTH).error, 'not-object');
  assert.equal(topMembers(bytesOf('{"a":1,}'), MAX_DEPTH).error, 'malformed');
  assert.equal(topMembers(bytesOf('{"a":[1}'), MAX_DEPTH).error, 'malformed');
  assert.equal(topMembers(bytesOf('{"a":1} x'), MAX_DEPTH).error, 'malformed');
  assert.equal(topMembers(bytesOf(deepItem(200_000)), MAX_DEPTH).error, 'deep');
  assert.equal(topMembers(bytesOf(deepItem(63)), MAX_DEPTH).error, undefined);
  assert.equal(topMembers(bytesOf(deepItem(64)), MAX_DEPTH).error, 'deep');
  assert.equal(valueEnd(bytesOf('"abc\\\\"x'), 0).end, 7);
  assert.equal(depthOf(bytesOf('[[["[[[["]]]')), 3);
});

test('json: pretty keeps every token as written; locate and lineAt name the line', () => {
  const raw = '{"a":1e400,"a":"x\\"y","b":[],"c":{},"d":[1,{"e":null}]}';
  const p = pretty(raw);
  assert.equal(p, '{\n  "a": 1e400,\n  "a": "x\\"y",\n  "b": [],\n  "c": {},\n  "d": [\n    1,\n    {\n      "e": null\n    }\n  ]\n}');
  assert.equal(p.replace(/\s+/g, ''), raw.replace(/\s+/g, ''));
  const text = '{\n  "receipt_secrets": [\n    {"key_id": "a"},\n    {\n      "valid_from": 5\n    }\n  ]\n}';
  const b = bytesOf(text);
  assert.equal(lineAt(b, locate(b, ['receipt_secrets', 1, 'valid_from'])), 5);
  assert.equal(lineAt(b, locate(b, ['receipt_secrets', 0])), 3);
  assert.equal(lineAt(b, locate(b, ['missing'])), 1);
  assert.deepEqual(base64url('eyJhIjoxfQ'), bytesOf('{"a":1}'));
  assert.equal(base64url('a+b'), null);
});

// ---- items ------------------------------------------------------------------------------------------
/** The differences between the page's verdicts and expected.json (empty when they agree). */
function compareWithExpected(items, exp) {
  const diffs = [];
  if (items.length !== exp.length) diffs.push(`${items.length} items, ${exp.length} expected`);
  items.forEach((it, i) => {
    const r = checkItem(api, it.bytes, ctx);
    const e = exp[i] || {};
    const failing = r.failing.map(([n]) => n).sort().join(',');
    if (r.status === 'verified' !== e.accepted) diffs.push(`${i + 1}: accepted ${r.status}`);
    if (failing !== [...(e.failing || [])].sort().join(',')) diffs.push(`${i + 1}: failing ${failing}`);
    if ((r.code ?? undefined) !== e.error) diffs.push(`${i + 1}: error ${r.code}`);
  });
  return diffs;
}

test('items: every sample item gives its expected verdict (and a changed expectation is caught)', () => {
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  assert.deepEqual(compareWithExpected(items, expected), []);
  // Meta-test: a copy with one changed expected value must make the comparison fail.
  for (const change of [(e) => { e[3].failing = []; }, (e) => { e[0].accepted = false; }, (e) => { e[20].error = 'INVALID_JSON'; }]) {
    const copy = structuredClone(expected);
    change(copy);
    assert.notDeepEqual(compareWithExpected(items, copy), [], 'the runner notices a changed expectation');
  }
  const kinds = new Set(expected.flatMap((e) => e.failing));
  assert.ok(kinds.size >= 8, `the sample fails ${kinds.size} different checks`);
  const rows = items.map((it) => checkItem(api, it.bytes, ctx));
  assert.equal(rows[0].receiptId, 'rcpt_0001');
  assert.equal(rows[0].issuedAt, '2026-11-29T18:40:05.250Z');
  assert.equal(rows[10].kind, 'jws');
  assert.equal(rows[10].capability, 'cap_invoice_extract');
  assert.match(rows[10].digest, /^[0-9a-f]{64}$/);
});

test('items: the inspector gets every check with expected and received values', () => {
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  const window = inspectItem(api, items[16].bytes, ctx); // issued outside the call window
  const c = window.checks.find((x) => x.name === 'iat_in_call_window');
  assert.equal(c.outcome, 'fail');
  assert.match(c.received, /: 3540 s before the window opens$/);
  assert.match(c.expected, /sent_at − 60 s to received_at \+ 60 s/);
  assert.equal(window.jwsHeader.typ, 'ekl-receipt+jwt');
  assert.equal(typeof window.jwsClaims.iat, 'number');
  const mac = inspectItem(api, items[7].bytes, ctx); // answers another call
  const e = mac.checks.find((x) => x.name === 'execution_id');
  assert.deepEqual([e.outcome, e.expected, e.received], ['fail', '"ex_other"', '"ex_0008"']);
  assert.ok(mac.receiptText.includes('"auth_tag"'), 'the receipt as in the file');
  assert.ok(!JSON.stringify(mac.checks).includes(JSON.parse(mac.receiptText).auth_tag), 'no tag in the checks');
});

test('items: bad items are rows with the core\'s code, never a thrown error', () => {
  const cases = [
    ['not json', 'INVALID_JSON'],
    ['[1,2]', 'INVALID_RECEIPT'],
    ['"x"', 'INVALID_RECEIPT'],
    ['{"receipt": {}}', 'INVALID_ARGUMENT'],
    ['{"call": {}}', 'INVALID_RECEIPT'],
    ['{"receipt": {"a":1,"a":2}, "call": {"execution_id":"e","collaboration_id":"c","capability_id":"x","provider_agent_id":"p"}}', 'DUPLICATE_KEY'],
    ['{"receipt": {}, "receipt": {}, "call": {}}', 'DUPLICATE_KEY'],
    ['{"receipt": {"a": 1e400}, "call": {"execution_id":"e","collaboration_id":"c","capability_id":"x","provider_agent_id":"p"}}', 'NON_FINITE_NUMBER'],
    ['{"receipt_jws": "a.b", "call": {"execution_id":"e","provider_agent_id":"p","capability_id":"c","input_fingerprint":"f","sent_at":1,"received_at":2}}', 'JWS_MALFORMED'],
    ['{"receipt_jws": "x", "call": {"sent_at": "yesterday"}}', 'INVALID_ARGUMENT'],
    [deepItem(200_000), 'INPUT_TOO_DEEP'],
    [`[${'['.repeat(200_000)}`, 'INPUT_TOO_DEEP'],
    ['{"receipt": {}, "call": {"bogus": 1}}', 'INVALID_ARGUMENT'],
    ['{"receipt": {"a":\n  [1,}, "call": {}}', 'INVALID_JSON'],
  ];
  for (const [text, code] of cases) {
    const r = checkItem(api, bytesOf(text), ctx);
    assert.equal(r.status, 'unreadable', text.slice(0, 60));
    assert.equal(r.code, code, `${text.slice(0, 60)}: ${r.message}`);
    assert.ok(r.message && r.message.length < 300, r.message);
  }
  // The line inside an item comes from the core's byte offset.
  assert.equal(checkItem(api, bytesOf('{"receipt": {"a":\n  [1,}, "call": {}}'), ctx).lineInItem, 2);
  // The library keeps serving after every refusal.
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  assert.equal(checkItem(api, items[0].bytes, ctx).status, 'verified');
});

/** The batch of `texts` as a worker gets it: one buffer, the items' spans. */
function batchOf(texts) {
  const parts = texts.map(bytesOf);
  const buf = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  const spans = parts.map((p) => {
    buf.set(p, at);
    at += p.length;
    return { s: at - p.length, e: at };
  });
  return { buf, spans };
}

test('items: a batch checked by the core in one call gives the rows of checkItem, item by item', () => {
  const sampleLines = readFileSync(join(sample, 'receipts.jsonl'), 'utf8').trim().split('\n');
  const h = hostile(api);
  const hCtx = makeContext(api, checkSettings(api, bytesOf(h.settings)), bytesOf(h.jwks));
  const jws = JSON.parse(sampleLines[10]);
  const withCall = (extra) => JSON.stringify({ ...jws, call: { ...jws.call, ...extra } });
  const contexts = [
    [ctx, [
      ...sampleLines,
      // Pretty (a line break inside): checked alone; refusals of every kind; RFC 3339 times
      // (the page's reading: the core takes seconds only); a call naming another agent.
      JSON.stringify(jws, null, 2), 'not json', '[1,2]', '{"call": {}}', '{"receipt": {"a":1,"a":2}, "call": {}}', deepItem(100),
      withCall({ sent_at: '2026-11-29T18:40:02Z' }), withCall({ own_agent_id: 'agt_other' }), withCall({ network_issuer: 'https://x' }),
      withCall({ own_agent_id: ctx.agentId, network_issuer: ctx.issuer }), withCall({ own_agent_id: null }), withCall({ own_agent_id: 7 }),
      withCall({ bogus: 1 }), JSON.stringify({ ...jws, label: 7 }), JSON.stringify({ ...jws, label: '<b>x</b>'.repeat(30) }),
      JSON.stringify({ ...jws, receipt_jws: 5 }), `${sampleLines[0]}   `,
    ]],
    [hCtx, h.receipts.trim().split('\n')],
    [makeContext(api, {}, null), sampleLines],
    [makeContext(api, { issuer: 'x' }, readFileSync(join(sample, 'jwks.json'))), sampleLines],
    [makeContext(api, { agent_id: 'agt_c0ns7m3r4a' }, readFileSync(join(sample, 'jwks.json'))), sampleLines],
  ];
  let fast = 0;
  for (const [c, texts] of contexts) {
    const { buf, spans } = batchOf(texts);
    const rows = checkBatch(api, buf, [...spans, { skip: true }], c);
    assert.equal(rows.pop(), null, 'a skipped item has no row');
    texts.forEach((t, i) => assert.deepEqual(rows[i], checkItem(api, bytesOf(t), c), `${i}: ${t.slice(0, 80)}`));
    if (c === ctx) fast = rows.filter((r) => r.status === 'verified' || r.status === 'failed').length;
  }
  assert.ok(fast >= 18, `${fast} sample rows with a verdict`);
  // The core is really called once for the lines (it sees the batch, not the pretty item).
  let calls = 0;
  const counting = { ...api, summarizeReceiptLines: (...a) => { calls++; return api.summarizeReceiptLines(...a); } };
  const { buf, spans } = batchOf([...sampleLines, JSON.stringify(jws, null, 2)]);
  checkBatch(counting, buf, spans, ctx);
  assert.equal(calls, 1);
});

test('items: the item rules are the core\'s (a review, 2026-12-03): the table, the inspector and the core agree', () => {
  const sampleLines = readFileSync(join(sample, 'receipts.jsonl'), 'utf8').trim().split('\n');
  const mac = JSON.parse(sampleLines[0]);
  const jws = JSON.parse(sampleLines[10]);
  const wrong = { alg: 'sha-256', canon: 'ekl-json-1', digest: '00'.repeat(32) };
  const cases = [
    // a mistyped own commitment with a wrong digest: the core refuses the member (it was "verified")
    [JSON.stringify({ ...mac, input_comitment: wrong }), 'unreadable', 'INVALID_ARGUMENT'],
    [JSON.stringify({ ...jws, input_commitment: wrong }), 'unreadable', 'INVALID_ARGUMENT'],
    [JSON.stringify({ ...jws, receipt: mac.receipt }), 'unreadable', 'INVALID_ARGUMENT'],
    // a null requester is absent, as in the core: your agent id (it was "unreadable" in the inspector)
    [JSON.stringify({ ...mac, call: { ...mac.call, requester_agent_id: null } }), checkItem(api, bytesOf(sampleLines[0]), ctx).status, null],
  ];
  const texts = cases.map(([t]) => t);
  const { buf, spans } = batchOf(texts);
  const rows = checkBatch(api, buf, spans, ctx);
  cases.forEach(([t, status, code], i) => {
    assert.equal(rows[i].status, status, `${i}: ${rows[i].message}`);
    assert.equal(rows[i].code, code, `${i}`);
    assert.deepEqual(rows[i], checkItem(api, bytesOf(t), ctx), `${i}: the table's row is the inspector's`);
    const pretty = checkItem(api, bytesOf(JSON.stringify(JSON.parse(t), null, 2)), ctx);
    assert.equal(pretty.status, status, `${i}: pretty`);
  });
  // the core's own reading of each line agrees
  const summary = api.summarizeReceiptLines(texts.join('\n'), { jwks: ctx.jwks, keys: ctx.keys, ownAgentId: ctx.agentId, networkIssuer: ctx.issuer });
  cases.forEach(([, status], i) => assert.equal(summary[i].error !== null, status === 'unreadable', `${i}`));
});

test('json: pretty is bounded (a deep item is not re-indented into hundreds of millions of characters)', () => {
  const deep = '['.repeat(14000) + ']'.repeat(14000);
  const shown = pretty(deep);
  assert.ok(shown.length <= 4 * deep.length + 65536, `${shown.length}`);
  assert.equal(pretty('{"a":[1,{"b":2}]}'), '{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ]\n}');
});

test('splitter: leading blanks are counted, not kept (a file of blanks was held whole and scanned again a slice at a time)', () => {
  const s = new Splitter({ maxItemBytes: MAX_ITEM_BYTES });
  const blank = new Uint8Array(1 << 16).fill(32);
  blank[100] = 10;
  blank[200] = 10;
  for (let i = 0; i < 64; i++) assert.deepEqual(s.push(blank), []);
  assert.equal(s.carry, null, 'nothing kept');
  const items = [...s.push(bytesOf('\n{"a":1}\n{"b":2}\n')), ...s.finish()];
  assert.deepEqual(items.map((it) => [it.line, it.offset, new TextDecoder().decode(it.bytes)]), [
    [2 * 64 + 2, 64 * 65536 + 1, '{"a":1}'], [2 * 64 + 3, 64 * 65536 + 9, '{"b":2}'],
  ]);
  // a byte-order mark then blanks, the first item in a later chunk
  const t = splitAll(bytesOf('\uFEFF   \n  \n{"a":1}'), { chunkSize: 2 });
  assert.deepEqual(t.items.map((it) => [it.line, it.offset]), [[3, 10]]);
});

test('items: without the JWKS or the secrets an item is "not checked", not a failure', () => {
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  const bare = makeContext(api, {}, null);
  const jws = checkItem(api, items[10].bytes, bare);
  assert.deepEqual([jws.status, jws.needs], ['unchecked', 'jwks']);
  const mac = checkItem(api, items[0].bytes, bare);
  assert.deepEqual([mac.status, mac.needs], ['unchecked', 'secrets']);
  const noAgent = checkItem(api, items[10].bytes, makeContext(api, { issuer: 'x' }, readFileSync(join(sample, 'jwks.json'))));
  assert.deepEqual([noAgent.status, noAgent.needs], ['unchecked', 'agent_id']);
});

test('settings and JWKS files are checked by the core when loaded, naming the line', () => {
  const bad = (fn, text) => {
    try {
      fn(api, bytesOf(text));
    } catch (e) {
      assert.ok(e instanceof ItemError, String(e));
      return { code: e.code, line: e.at === null ? null : lineAt(bytesOf(text), e.at), message: e.message };
    }
    assert.fail(`accepted: ${text}`);
  };
  assert.deepEqual(bad(checkJwks, '{"kid": "x"}').code, 'INVALID_JWKS');
  assert.equal(bad(checkJwks, '{\n "keys": [\n  {"kty": "EC",\n  ]\n}').line, 4);
  assert.deepEqual(checkJwks(api, readFileSync(join(sample, 'jwks.json'))).kids, ['net-2026-11']);
  assert.equal(bad(checkSettings, '{"agent_id": 7}').code, 'INVALID_ARGUMENT');
  const ts = bad(checkSettings, '{\n  "receipt_secrets": [\n    {"key_id": "a", "secret": "s"},\n    {"key_id": "b", "secret": "s",\n     "valid_from": "yesterday"}\n  ]\n}');
  assert.equal(ts.code, 'INVALID_TIMESTAMP');
  assert.equal(ts.line, 4);
  assert.match(ts.message, /receipt_secrets\[1\]/);
  assert.ok(!ts.message.includes('"s"'));
  const dup = bad(checkSettings, '{"receipt_secrets": [{"key_id": "a", "secret": "s1"}, {"key_id": "a", "secret": "s2"}]}');
  assert.equal(dup.code, 'INVALID_ARGUMENT');
  assert.ok(!dup.message.includes('s1') && !dup.message.includes('s2'), 'no secret in a message');
  assert.equal(bad(checkSettings, '{"a": 1, "a": 2}').code, 'DUPLICATE_KEY');
  assert.equal(checkKeyRing(api, [{ key_id: 'rk-1', secret: 'x' }]), null);
  assert.equal(checkKeyRing(api, [{ key_id: 'rk-1', secret: 'x', valid_from: '2026-01-01' }]).code, 'INVALID_TIMESTAMP');
});

// ---- rows -----------------------------------------------------------------------------------------
test('rows: stored in columns, read back, filtered, searched; the limit counts every item', () => {
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  const store = new RowStore(15);
  const summary = emptySummary();
  const rows = items.map((it, n) => ({ ...checkItem(api, it.bytes, ctx), n, offset: it.offset, size: it.size, line: it.line }));
  for (const r of rows) {
    count(summary, r);
    store.set(r.n, r);
  }
  assert.equal(summary.total, 21);
  assert.equal(summary.verified + summary.failed + summary.unreadable + summary.unchecked, 21);
  assert.equal(store.stored, 15, 'only the first 15 rows are kept');
  const back = store.get(3);
  assert.equal(back.receiptId, rows[3].receiptId);
  assert.equal(back.digest, rows[3].digest);
  assert.deepEqual(back.failing, rows[3].failing);
  assert.equal(back.line, 4);
  assert.deepEqual(store.select({ mode: 'problems' }).map((i) => i + 1), rows.slice(0, 15).filter((r) => r.status !== 'verified').map((r) => r.n + 1));
  // Filtered by first cause: the tag failed alone twice; twice the key failed and left it unchecked.
  assert.deepEqual(store.select({ mode: 'all', check: 'auth_tag' }).length, 2);
  assert.deepEqual(store.select({ mode: 'all', check: 'key_id:unknown_key' }).map((i) => i + 1), [6]);
  assert.deepEqual(store.select({ mode: 'all', check: 'key_id:key_expired' }).map((i) => i + 1), [7]);
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'RCPT_0008' }), [7]);
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: rows[4].digest.slice(10, 30) }), [4]);
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'ex_0102' }), [11]);
  assert.equal(store.findReceipt('rcpt_0103'), 12);
  assert.equal(store.findReceipt('nope'), -1);
  assert.equal(store.set(20, rows[20]), false);
});

// ---- the row store's edges (issue 24) ----------------------------------------------------------------
/** The rows the coordinator stores for `lines` (checked as one batch, as a worker does). */
function storedRows(lines, c, max) {
  const { buf, spans } = batchOf(lines);
  const rows = checkBatch(api, buf, spans, c).map((r, n) => ({ ...r, n, offset: spans[n].s, size: spans[n].e - spans[n].s, line: n + 1 }));
  const store = new RowStore(max);
  for (const r of rows) store.set(r.n, r);
  return { rows, store };
}

/**
 * Each row field's value as the core gives it (its summary of the line); for a line the core
 * refuses, its code, and the values the page reads from the item (checkItem: D5).
 */
function coreFields(lines, c) {
  const sums = api.summarizeReceiptLines(bytesOf(`${lines.join('\n')}\n`), { keys: c.keys, ownAgentId: c.agentId });
  return lines.map((line, n) => {
    const sm = sums[n];
    if (sm.error === null) {
      return { receiptId: sm.receipt_id, executionId: sm.execution_id, provider: sm.provider_agent_id, capability: sm.capability_id, issuedAt: sm.issued_at, label: sm.label ?? null, status: sm.accepted ? 'verified' : 'failed' };
    }
    const r = checkItem(api, bytesOf(line), c);
    return {
      receiptId: r.receiptId, executionId: r.executionId, provider: r.provider, capability: r.capability, issuedAt: r.issuedAt, label: r.label,
      status: 'unreadable', code: sm.error.code,
    };
  });
}

/** Checks that `got` (a value the store gave back) is `want`, or its prefix when `cut`. */
function sameOrPrefix(got, want, cutFlag, what) {
  if (!cutFlag) {
    assert.equal(got, want, what);
    return;
  }
  assert.equal(typeof got, 'string', what);
  assert.ok(want.startsWith(got) && got.length < want.length, `${what}: ${JSON.stringify(got)} is a shorter prefix`);
}

test('rows (issue 24): hostile values in every field: get, search, problems and export give the core\'s values', () => {
  const h = spoofed(api);
  const c = makeContext(api, checkSettings(api, bytesOf(h.settings)), null);
  const truth = coreFields(h.lines, c);
  const { rows, store } = storedRows(h.lines, c);
  assert.deepEqual(rows.map((r) => r.status), truth.map((t) => t.status), 'the verdicts are the core\'s');
  assert.deepEqual(rows.map((r) => r.code ?? null), truth.map((t) => t.code ?? null), 'the refusals are the core\'s');
  assert.equal(rows[0].status, 'verified', 'the spoofing receipt verifies: its provider can MAC it');
  const exported = JSON.parse(`[${rows.map((r, n) => JSON.stringify(exportRecord(store.get(n)))).join(',')}]`);
  let cuts = 0;
  for (let n = 0; n < rows.length; n++) {
    const got = store.get(n);
    for (const k of ['receiptId', 'executionId', 'provider', 'capability', 'issuedAt', 'label']) {
      const want = truth[n][k];
      assert.equal(rows[n][k], want, `row ${n + 1} ${k}: the worker's row holds the core's value`);
      const isCut = got.cut.includes(k);
      cuts += isCut;
      sameOrPrefix(got[k], want, isCut, `row ${n + 1} ${k} (store)`);
      const e = exported[n];
      const name = EXPORT_NAMES[TEXT_FIELDS.indexOf(k)];
      sameOrPrefix(e[name], want, isCut, `row ${n + 1} ${name} (export)`);
      assert.equal(e.truncated.includes(name), isCut, `row ${n + 1}: ${name} is listed as truncated exactly when it is`);
      // What the table shows: the value escaped, … when cut.
      if (want !== null) assert.equal(shownField(got, k), isCut ? `${shown(got[k])}…` : shown(want));
      else assert.equal(shownField(got, k), null);
    }
    assert.equal(got.message, rows[n].message);
    assert.equal(got.status, rows[n].status);
  }
  assert.ok(cuts >= 5, `${cuts} values kept shortened (the long ids)`);
  // The attack: the verified row keeps its true execution, provider, capability and time.
  const a = store.get(0);
  assert.deepEqual([a.receiptId, a.executionId, a.provider, a.capability, a.issuedAt],
    ['rcpt_1\u0001ex_SPOOFED\u0001agt_SPOOFED\u0001cap_SPOOFED\u00012001-01-01T00:00:00Z', 'ex_TRUE', 'agt_TRUE', 'cap_TRUE', '2026-11-29T18:40:05Z']);
  assert.equal(exported[0].execution_id, 'ex_TRUE');
  assert.equal(shown(a.receiptId), 'rcpt_1\\u0001ex_SPOOFED\\u0001agt_SPOOFED\\u0001cap_SPOOFED\\u00012001-01-01T00:00:00Z');
  // The exported text carries the true values, JSON-escaped: no raw control character in it.
  const text = `[${rows.map((r, n) => JSON.stringify(exportRecord(store.get(n)))).join(',')}]`;
  assert.doesNotMatch(text, /[\u0000-\u001f]/);
  assert.ok(text.includes('"receipt_id":"rcpt_1\\u0001ex_SPOOFED'));
  // Search: a query finds a row by what one of its fields shows, never across two fields.
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'ex_spoofed' }), [0, 8], 'found in the receipt ids that hold the text');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'ex_true' }), [0]);
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'rcpt_1\\u0001ex' }), [0], 'the escape as shown is searchable');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'rcpt_1\u0001ex' }), [], 'the raw control character is not shown, so not found');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'ex_trueagt' }), [], 'no match across two fields');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: '2001-01-01' }), [0], 'only in the receipt id');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: 'literal\\\\u0001' }), [2], 'a typed backslash is shown as \\\\');
  assert.deepEqual(store.select({ mode: 'all', order: 'file', q: '\\u2028' }), [1, 2, 8], 'U+2028 shown escaped (and the label that holds the text \\u2028)');
  for (let n = 0; n < rows.length; n++) {
    const got = store.get(n);
    for (const k of TEXT_FIELDS) {
      const v = shownField(got, k);
      if (!v || v.length < 3) continue;
      const q = v.replace(/…$/, '').slice(0, 60).trim().toLowerCase();
      if (!q) continue;
      const hits = store.select({ mode: 'all', q });
      assert.ok(hits.includes(n), `row ${n + 1} is found by its ${k} ${JSON.stringify(q)}`);
      for (const m of hits) {
        const shownAll = TEXT_FIELDS.map((x) => (store.get(m)[x] === null ? '' : shown(store.get(m)[x]).toLowerCase()));
        assert.ok(shownAll.some((s) => s.includes(q)) || store.digest(m)?.includes(q), `row ${m + 1} found by ${JSON.stringify(q)} shows it`);
      }
    }
  }
  // Problems only: exactly the rows that are not verified, with their own values.
  assert.deepEqual(store.select({ mode: 'problems' }), truth.flatMap((t, n) => (t.status === 'verified' ? [] : [n])));
  // Item 4 (an empty receipt id) fails its required_fields check (docs/decisions/edges.md#empty).
  assert.deepEqual(store.select({ mode: 'problems' }), [4, 7, 8, 9]);
  assert.equal(store.get(8).executionId, 'ex_T\u2028');
  assert.equal(store.get(9).executionId, 'ex_R\u0001agt_X');
  assert.equal(store.get(9).capability, 'cap_R\u0000');
  assert.equal(store.findReceipt(truth[0].receiptId), 0);
  assert.equal(store.findReceipt('rcpt_1'), -1);
  assert.equal(store.findReceipt(''), 4, 'an empty receipt id is kept, not read back as none');
  assert.equal(store.get(4).receiptId, '');
  assert.equal(rows[7].code, 'LONE_SURROGATE', 'a lone surrogate in the label: refused, as the core refuses the line');
  assert.equal(store.get(9).receiptId, 'rcpt_R\u0001\udc00', 'a lone surrogate is kept exactly');
  assert.equal(shown(store.get(9).receiptId), 'rcpt_R\\u0001\\udc00');
  assert.ok(JSON.stringify(exportRecord(store.get(9))).includes('"receipt_id":"rcpt_R\\u0001\\udc00"'));
});

test('rows: shown() escapes controls, invisible format characters, separators, lone surrogates and the backslash only', () => {
  for (const ch of CONTROLS) assert.equal(shown(ch), `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  assert.equal(shown('\u2028\u2029\u202e\u200b\ufeff\u00ad'), '\\u2028\\u2029\\u202e\\u200b\\ufeff\\u00ad');
  assert.equal(shown('a\\u0001'), 'a\\\\u0001', 'a typed escape and a real control character differ');
  assert.notEqual(shown('a\\u0001'), shown('a\u0001'));
  assert.equal(shown('\ud800x\udc00'), '\\ud800x\\udc00');
  assert.equal(shown('😀 é 中 "q" \'s\' <b>'), '😀 é 中 "q" \'s\' <b>', 'printable text is as it is');
  assert.equal(shown('\u{E0041}'), '\\udb40\\udc41', 'an astral format character: its two units');
  assert.equal(shown(null), null);
  assert.equal(shown(''), '');
});

test('rows: every row\'s text stays within its bound; values are kept exactly or as a marked prefix', () => {
  // Random values from a hostile alphabet (controls, the old separator, 2-, 3- and 4-byte
  // characters, lone surrogates, quotes, backslashes) and lengths around every bound.
  let seed = 0x2024;
  const rand = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
  const alphabet = ['a', 'Z', '0', '\u0001', '\u0000', '\n', '\u2028', 'é', '中', '😀', '\ud800', '\udfff', '"', '\\', '…', ' '];
  const lengths = [0, 1, 5, 40, 79, 80, 81, 133, 134, 159, 160, 161, 400, 1000];
  const store = new RowStore(5000);
  const made = [];
  for (let i = 0; i < 3000; i++) {
    const row = { offset: 0, size: 0, line: i + 1, status: 'verified', kind: 'mac', passed: 1, failing: [], code: null, needs: null, digest: null };
    for (const k of TEXT_FIELDS) {
      if (rand(8) === 0) { row[k] = null; continue; }
      const len = lengths[rand(lengths.length)];
      let v = '';
      while (v.length < len) v += alphabet[rand(rand(3) === 0 ? alphabet.length : 3)];
      row[k] = v;
    }
    store.set(i, row);
    made.push(row);
  }
  for (let i = 0; i < made.length; i++) {
    const b = store.blocks[i >> 16];
    assert.ok(b.textLen[i & 0xffff] <= ROW_TEXT_BYTES, `row ${i}: ${b.textLen[i & 0xffff]} bytes`);
    const got = store.get(i);
    for (const k of TEXT_FIELDS) {
      const want = made[i][k];
      const cap = k === 'message' ? MESSAGE_CHARS : FIELD_CHARS;
      if (got.cut.includes(k)) {
        assert.ok(want.startsWith(got[k]) && got[k].length < want.length, `row ${i} ${k}: a shorter prefix`);
        assert.ok(got[k].length <= cap);
      } else {
        assert.equal(got[k], want, `row ${i} ${k}`);
      }
    }
    // A field is cut only when it is over its cap or the row over its bytes.
    const total = TEXT_FIELDS.reduce((n, k) => n + (made[i][k] === null ? 0 : new TextEncoder().encode(JSON.stringify(made[i][k])).length), 0);
    if (total <= ROW_TEXT_BYTES / 2 && TEXT_FIELDS.every((k) => made[i][k] === null || made[i][k].length <= (k === 'message' ? MESSAGE_CHARS : FIELD_CHARS))) {
      assert.deepEqual(got.cut, [], `row ${i}: nothing cut`);
    }
  }
});

test('deep links: only a canonical item number within range names an item; a bad index never throws', () => {
  for (const ok of [['1', 1], ['21', 21], ['9', 9]]) assert.equal(itemNumber(ok[0], 21), ok[1]);
  for (const bad of ['0', '-1', '0x1', '1e0', '01', '+1', ' 1', '1 ', '1.0', '1.5', '22', '99999999999999999999', '9007199254740993', '', 'Infinity', 'NaN', '١', '１', '1\n', 'item1']) {
    assert.equal(itemNumber(bad, 21), null, JSON.stringify(bad));
  }
  assert.equal(itemNumber(1, 21), null, 'text only');
  const store = new RowStore(4);
  store.set(0, { offset: 0, size: 1, line: 1, status: 'verified', kind: 'mac', passed: 1, failing: [], code: null, needs: null, digest: null, receiptId: 'r' });
  for (const i of [-1, -2, -65537, 0.5, NaN, Infinity, 2 ** 40, 1]) assert.equal(store.has(i), false, String(i));
  assert.equal(store.has(0), true);
});

// ---- issue 26: checks in plain words, pasted text, the failures alone ----------------------------------
/** Every check id the core names in its source (core/src/*.rs). */
function coreSourceIds() {
  const dir = join(repo, 'core', 'src');
  return [...new Set(readdirSync(dir).filter((f) => f.endsWith('.rs')).flatMap((f) => checkIdsInSource(readFileSync(join(dir, f), 'utf8'))))].sort();
}

/** Every check id in verdicts of the core: MAC receipts with every optional check, JWS and object forms. */
function coreVerdictIds() {
  const ids = new Set();
  const add = (d) => { for (const c of d.checks) ids.add(c.name); return d; };
  // The sample: MAC receipts and compact JWS, verified and failing.
  for (const it of splitAll(readFileSync(join(sample, 'receipts.jsonl'))).items) add(inspectItem(api, it.bytes, ctx));
  // A MAC receipt whose call names every optional reference and the receipt digest expected.
  const first = JSON.parse(readFileSync(join(sample, 'receipts.jsonl'), 'utf8').split('\n')[0]);
  const r = first.receipt;
  const digest = inspectItem(api, bytesOf(JSON.stringify(first)), ctx).digest;
  const call = {
    ...first.call, connection_id: r.connection_id, terms_hash: r.terms_hash, reservation_id: r.reservation_id, grant_id: r.grant_id,
    admission_id: r.admission_id, execution_kind: r.execution_kind, receipt_digest: digest,
  };
  const full = add(inspectItem(api, bytesOf(JSON.stringify({ ...first, call })), ctx));
  assert.equal(full.status, 'verified', 'the full MAC call verifies');
  // The network-signed receipt object (object_signature, the JWS checks, object_matches_jws).
  const h = hostile(api);
  const hctx = makeContext(api, checkSettings(api, bytesOf(h.settings)), bytesOf(h.jwks));
  const objectLine = h.receipts.split('\n')[3];
  const obj = add(inspectItem(api, bytesOf(objectLine), hctx));
  assert.equal(obj.kind, 'object');
  return [...ids].sort();
}

test('check words (issue 26): every check id the core can emit has plain words; the table holds no other', () => {
  const fromSource = coreSourceIds();
  const fromVerdicts = coreVerdictIds();
  // The readers work: each finds checks of both receipt kinds, those only a full call or the object form give.
  for (const id of ['auth_tag', 'key_id', 'admission_id', 'input_commitment', 'receipt_digest', 'signature', 'iat_in_call_window', 'object_signature', 'object_matches_jws']) {
    assert.ok(fromSource.includes(id), `the source reader finds ${id}`);
  }
  for (const id of ['terms_hash', 'receipt_digest', 'object_signature', 'object_matches_jws', 'alg_typ', 'auth_tag']) {
    assert.ok(fromVerdicts.includes(id), `the verdicts hold ${id}`);
  }
  assert.deepEqual(missingWords(fromSource), [], 'every check id in the core\'s source has words');
  assert.deepEqual(missingWords(fromVerdicts), [], 'every check id in the core\'s verdicts has words');
  assert.deepEqual(Object.keys(CHECK_WORDS).sort(), fromSource, 'the table names exactly the core\'s checks');
  for (const [id, words] of Object.entries(CHECK_WORDS)) {
    assert.match(words, /^[^()\n]{3,60}$/, `${id}: short words, no parentheses (shown as "words (id)")`);
    assert.equal(checkLabel(id), `${words} (${id})`);
  }
  // Meta-tests: a check the table lacks is reported; a new check in the source is found.
  assert.deepEqual(missingWords([...fromVerdicts, 'brand_new_check']), ['brand_new_check']);
  assert.equal(checkWords('brand_new_check'), null);
  assert.equal(checkWords('__proto__'), null);
  assert.equal(checkWords('toString'), null);
  assert.equal(checkLabel('brand_new_check'), 'brand_new_check');
  const rust = `fn f() { checks.push(Check::pass("one")); Check::when(\n  "two", ok, Outcome::Fail, "x");
    str_check(&claims, "three", a, b);
    let refs: [(&'static str, Option<&str>); 2] = [("four", None), ("five", None)];
    for (name, want) in refs {
        checks.push(Check::fail(name, "x"));
    }
    for (name, own) in [("six", a)] {
        Check::mismatch(name, "x")
    }
}
#[cfg(test)]
mod tests { fn t() { Check::pass("test_only"); } }`;
  assert.deepEqual(checkIdsInSource(rust), ['five', 'four', 'one', 'six', 'three', 'two']);
});

test('paste (issue 26): pasted text becomes the file a chooser would give, with the same bounds and codes', async () => {
  const line = readFileSync(join(sample, 'receipts.jsonl'), 'utf8').split('\n')[3];
  const f = pastedFile(`${line}\n`);
  assert.equal(f.name, PASTE_NAME);
  assert.equal(f.size, bytesOf(`${line}\n`).length);
  const bytes = new Uint8Array(await f.arrayBuffer());
  assert.deepEqual(bytes, bytesOf(`${line}\n`), 'the UTF-8 bytes of the text');
  const [item] = splitAll(bytes).items;
  assert.deepEqual(checkItem(api, item.bytes, ctx).failing.map(([n]) => n), ['auth_tag'], 'verified as the file line is');
  // Refusals, with codes; the message never holds the text.
  const refused = (text, opts) => {
    try {
      pastedFile(text, opts);
    } catch (e) {
      assert.ok(e instanceof InputError);
      assert.ok(!String(e.message).includes('secret-looking'), 'the message holds no pasted text');
      return e.code;
    }
    return null;
  };
  for (const t of ['', ' \n\t\r\n ', null, undefined, 42]) assert.equal(refused(t), 'INVALID_ARGUMENT', JSON.stringify(t));
  assert.equal(refused('{"a":"secret-looking"}', { maxBytes: 10 }), 'BODY_TOO_LARGE', 'longer than the bound');
  // 6 UTF-16 units, 18 UTF-8 bytes: over a 10-byte bound in bytes only.
  assert.equal(refused('中文中文中文', { maxBytes: 10 }), 'BODY_TOO_LARGE', 'over the bound in UTF-8 bytes');
  assert.equal(refused('中文中', { maxBytes: 10 }), null, '9 bytes: within');
  assert.equal(MAX_RECEIPTS_BYTES, 512_000_000, 'the bound of a receipts file');
  // Where a paste belongs to the page (not to a field).
  assert.equal(editable({ tagName: 'TEXTAREA' }), true);
  assert.equal(editable({ tagName: 'INPUT', type: 'search' }), true);
  assert.equal(editable({ tagName: 'INPUT', type: 'radio' }), false);
  assert.equal(editable({ tagName: 'BUTTON' }), false);
  assert.equal(editable({ tagName: 'DIV', isContentEditable: true }), true);
  assert.equal(editable(null), false);
});

test('export (issue 26): the failures alone, in the format of the export of all results', () => {
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  const store = new RowStore();
  const summary = emptySummary();
  items.forEach((it, n) => {
    const r = { ...checkItem(api, it.bytes, ctx), n, offset: it.offset, size: it.size, line: it.line };
    count(summary, r);
    store.set(n, r);
  });
  const all = JSON.parse(exportParts(store, summary, 'receipts.jsonl', 'all').join(''));
  const failures = JSON.parse(exportParts(store, summary, 'receipts.jsonl', 'failures').join(''));
  assert.deepEqual(Object.keys(failures), Object.keys(all), 'the same members');
  assert.deepEqual([all.selection, failures.selection], ['all', 'failures']);
  assert.deepEqual(failures.summary, all.summary, 'the summary counts every item');
  assert.equal(all.results.length, 21);
  const want = all.results.filter((r) => FAILURES.includes(r.verdict));
  assert.equal(want.length, summary.failed + summary.unreadable);
  assert.deepEqual(failures.results, want, 'the failed and unreadable results, as the full export has them');
  assert.ok(failures.results.every((r) => r.verdict !== 'verified'));
  for (const r of failures.results) {
    assert.deepEqual(Object.keys(r), Object.keys(all.results[0]), 'each result in the same format');
    for (const c of r.failing) assert.equal(c.words, CHECK_WORDS[c.name], `${c.name} has its words in the export`);
  }
  assert.ok(failures.results.some((r) => r.verdict === 'unreadable' && r.error.code === 'DUPLICATE_KEY'));
  assert.throws(() => exportParts(store, summary, 'x', 'everything'), /unknown export selection/);
});

// ---- triage by first cause (issue 43) ----------------------------------------------------------------
test('triage (issue 43): each failed receipt counted once, under its first cause; knock-ons marked; problems first', () => {
  const text = readFileSync(join(sample, 'receipts.jsonl'));
  const { items } = splitAll(text);
  const rows = checkBatch(api, text, items.map((it) => ({ s: it.offset, e: it.offset + it.size })), ctx);
  const summary = emptySummary();
  const store = new RowStore();
  rows.forEach((r, n) => { count(summary, { ...r }); store.set(n, { ...r, offset: 0, size: 0, line: n + 1 }); });
  // The counts add up: one per failed receipt, whatever number of checks it failed.
  assert.equal(Object.values(summary.byCause).reduce((a, b) => a + b, 0), summary.failed);
  assert.equal(summary.byCause.auth_tag, 2, JSON.stringify(summary.byCause));
  assert.equal(summary.byCause['key_id:unknown_key'], 1);
  assert.equal(summary.byCause['key_id:key_expired'], 1);
  // The knock-on: the tag a key failure left unchecked, from the core, on both paths.
  for (const r of [rows[5], checkItem(api, items[5].bytes, ctx)]) {
    assert.equal(r.cause, 'key_id:unknown_key');
    assert.deepEqual(r.failing.map(([n, , , reason, by]) => [n, reason, by]), [['key_id', 'unknown_key', null], ['auth_tag', null, 'key_id']]);
  }
  // Problems first, each part in file order; 'file' keeps the file's order.
  const order = store.select({ mode: 'all' });
  const firstVerified = order.findIndex((i) => rows[i].status === 'verified');
  assert.ok(order.slice(0, firstVerified).every((i) => rows[i].status !== 'verified'));
  assert.ok(order.slice(firstVerified).every((i) => rows[i].status === 'verified'));
  assert.deepEqual(order.slice(0, firstVerified), [...order.slice(0, firstVerified)].sort((a, b) => a - b));
  assert.deepEqual(store.select({ mode: 'all', order: 'file' }), rows.map((_, i) => i));
  // The export says the cause and the knock-on.
  const rec = exportRecord(store.get(5));
  assert.equal(rec.cause, 'key_id:unknown_key');
  assert.deepEqual(rec.failing.map((f) => [f.name, f.reason ?? null, f.blocked_by ?? null]), [['key_id', 'unknown_key', null], ['auth_tag', null, 'key_id']]);
});

test('the CLI\'s key ring file (issue 43): read as it is, by the core; the settings file keeps working', () => {
  const list = settings.receipt_secrets.map(({ key_id, secret, valid_from, valid_until }) => ({ key_id, secret, valid_from, ...(valid_until ? { valid_until } : {}) }));
  assert.deepEqual(checkKeyRingFile(api, bytesOf(JSON.stringify(list))).receipt_secrets.map((k) => k.key_id), ['rk-1', 'rk-2']);
  // The registration secret alone (a JSON string): the baseline ring, rk-1.
  assert.deepEqual(checkKeyRingFile(api, bytesOf('"rs_secret"')).receipt_secrets, [{ key_id: 'rk-1', secret: 'rs_secret', valid_from: '0000-01-01T00:00:00Z' }]);
  // Refused as the CLI refuses: an empty list, an unknown member, a missing valid_from; never the secret.
  for (const [ring, code] of [['[]', 'INVALID_ARGUMENT'], ['[{"key_id":"a","secret":"s3cr3t","valid_from":"2026-01-01T00:00:00Z","x":1}]', 'INVALID_ARGUMENT'],
    ['[{"key_id":"a","secret":"s3cr3t"}]', 'INVALID_ARGUMENT'], ['{"a":1,"a":2}', 'DUPLICATE_KEY']]) {
    assert.throws(() => checkKeyRingFile(api, bytesOf(ring)), (e) => e instanceof ItemError && e.code === code && !e.message.includes('s3cr3t'), ring);
  }
  // The ring verifies the sample's MAC receipts as the settings file does.
  const ringCtx = makeContext(api, { ...settings, receipt_secrets: checkKeyRingFile(api, bytesOf(JSON.stringify(list))).receipt_secrets }, readFileSync(join(sample, 'jwks.json')));
  const { items } = splitAll(readFileSync(join(sample, 'receipts.jsonl')));
  for (const it of items) assert.deepEqual(checkItem(api, it.bytes, ringCtx), checkItem(api, it.bytes, ctx));
});

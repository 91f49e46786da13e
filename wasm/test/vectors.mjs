// The vector runner of the wasm package, the same module in Node and in Chromium: it reads every
// file of vectors/ (given as text), runs each case through the public JS API and returns
//   records:  one per case {file, case, call, result}: `call` says what was run (replayable by the
//             native `ekl` CLI, see native.mjs), `result` is 'ok:<output>' or 'err:<CODE>';
//   failures: the cases whose result differs from the expected value written in the file;
//   unknown:  files this runner has no handler for (a test fails on them: every file must run).
// Outputs that can be long (canonical forms) are recorded as 'sha256:<hex>:<length>'.
import { parseRaw, get, plain } from '../../examples/dashboard/rawjson.js';

const HANDLERS = {
  'ekl-json-1.json': eklJson,
  'fingerprints.json': fingerprints,
  'upstream-fingerprint.json': upstream,
};

export function runVectors(api, files) {
  const records = [];
  const failures = [];
  const unknown = [];
  for (const { name, text } of files) {
    const handler = HANDLERS[name];
    if (!handler) {
      unknown.push(name);
      continue;
    }
    const ctx = {
      api,
      record(kase, call, result, expected) {
        records.push({ file: name, case: kase, call, result });
        if (expected !== undefined && result !== expected) {
          failures.push({ file: name, case: kase, result, expected });
        }
      },
      attempt(f) {
        try {
          return `ok:${f()}`;
        } catch (e) {
          if (!api.isEklError(e)) throw e;
          return `err:${e.code}`;
        }
      },
    };
    handler(ctx, parseRaw(text));
  }
  return { records, failures, unknown };
}

const enc = new TextEncoder();
const bytesFromHex = (hex) => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function canonResult(api, bytes) {
  return `sha256:${api.sha256Hex(bytes)}:${bytes.length}`;
}

function eklJson(ctx, root) {
  const { api } = ctx;
  const canon = (kase, input, maxBytes, expect) => {
    const bytes = typeof input === 'string' ? enc.encode(input) : input;
    const call = { op: 'canon', input_hex: bytes.length <= 4096 ? toHex(bytes) : undefined, input: bytes, max_bytes: maxBytes };
    const options = maxBytes === null || maxBytes === undefined ? undefined : { maxBytes };
    const result = ctx.attempt(() => canonResult(api, api.canonicalize(bytes, options)));
    ctx.record(kase, call, result, expect);
  };
  const expected = (c) => {
    if (c.code) return `err:${c.code}`;
    if (c.canonical !== undefined) return `ok:sha256:${api.sha256Hex(c.canonical)}:${enc.encode(c.canonical).length}`;
    return `ok:sha256:${c.sha256}:${c.canonical_length}`;
  };
  for (const node of get(root, 'valid').items) {
    const c = plain(node);
    if (c.sha256 !== undefined && api.sha256Hex(c.canonical) !== c.sha256) {
      ctx.record(`valid: ${c.name} (file's own sha256)`, { op: 'none' }, 'err:FILE', 'ok:');
    }
    canon(`valid: ${c.name}`, c.input, null, expected(c));
  }
  for (const node of get(root, 'invalid').items) {
    const c = plain(node);
    canon(`invalid: ${c.name}`, c.input, null, `err:${c.code}`);
  }
  for (const node of get(root, 'invalid_utf8')?.items ?? []) {
    const c = plain(node);
    canon(`invalid_utf8: ${c.name}`, bytesFromHex(c.input_hex), null, `err:${c.code}`);
  }
  for (const node of get(root, 'depth')?.items ?? []) {
    const c = plain(node);
    const input = (c.prefix ?? '') + c.open.repeat(c.count) + (c.inner ?? '')
      + (c.close ?? '').repeat(c.count) + (c.suffix ?? '');
    canon(`depth: ${c.name}`, input, null, expected(c));
  }
  for (const node of get(root, 'size')?.items ?? []) {
    const c = plain(node);
    const input = c.prefix + c.repeat.repeat(c.count) + c.suffix;
    canon(`size: ${c.name}`, input, c.max_bytes, expected(c));
  }
}

function fingerprints(ctx, root) {
  const { api } = ctx;
  let salt;
  for (const node of get(root, 'cases').items) {
    const c = plain(node);
    salt = salt ?? c.salt;
    const raw = get(node, 'value').raw;
    const value = new api.JsonText(raw);
    ctx.record(`case: ${c.name} (jcs)`, { op: 'canon', input: enc.encode(raw) },
      ctx.attempt(() => canonResult(api, api.canonicalizeValue(value))),
      `ok:sha256:${api.sha256Hex(c.jcs)}:${enc.encode(c.jcs).length}`);
    ctx.record(`case: ${c.name}`, { op: 'fingerprint', salt: c.salt, input: enc.encode(raw) },
      ctx.attempt(() => api.fingerprint(c.salt, value)), `ok:${c.fingerprint}`);
  }
  const sel = get(root, 'result_selection');
  if (sel) {
    const raw = get(sel, 'result').raw;
    const s = plain(sel);
    ctx.record('result_selection: body', { op: 'none' },
      ctx.attempt(() => api.selectResultBody(new api.JsonText(raw)).body), `ok:${s.fingerprinted}`);
    ctx.record('result_selection: fingerprint', { op: 'output-fingerprint', salt, input: enc.encode(raw) },
      ctx.attempt(() => api.outputFingerprint(salt, new api.JsonText(raw))), `ok:${s.fingerprint}`);
  }
  const ch = get(root, 'challenge');
  if (ch) {
    const c = plain(ch);
    ctx.record('challenge: credential_sha256', { op: 'none' },
      ctx.attempt(() => api.sha256Hex(c.provider_credential)), `ok:${c.credential_sha256}`);
    ctx.record('challenge: proof v1', { op: 'none' },
      ctx.attempt(() => api.challengeProofV1(c.provider_credential, c.challenge, c.endpoint)), `ok:${c.proof}`);
  }
}

function upstream(ctx, root) {
  const { api } = ctx;
  for (const group of ['cases', 'invalid']) {
    for (const node of get(root, group)?.items ?? []) {
      const c = plain(node);
      const raw = get(node, 'tools').raw;
      const offered = c.offered ?? undefined;
      if (c.projection !== undefined && api.sha256Hex(c.projection) !== c.fingerprint) {
        ctx.record(`${group}: ${c.name} (file's projection)`, { op: 'none' }, 'err:FILE', 'ok:');
      }
      ctx.record(`${group}: ${c.name}`, { op: 'upstream-fingerprint', offered, input: enc.encode(raw) },
        ctx.attempt(() => api.upstreamFingerprint(new api.JsonText(raw), offered)),
        c.code ? `err:${c.code}` : `ok:${c.fingerprint}`);
    }
  }
}

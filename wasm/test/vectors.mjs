// The vector runner of the wasm package, the same module in Node and in Chromium, for the one part
// of vectors/ that is not a list of cases: the ECMAScript number file of RFC 8785's test data
// (every case of every file is in vectors/calls.jsonl, run by examples/conformance/vector-calls.mjs).
// Given every file of vectors/ as {name: path relative to vectors/, text}, it returns
//   records:  one per check {file, case, result}: 'ok:<output>' or 'err:<CODE>';
//   failures: the checks whose result differs from the expected value written in the file;
//   unknown:  files neither named by vectors/calls.jsonl nor read here (a test fails on them).

const RFC = 'rfc8785-testdata/';
/** Files read by a check of another file, or not data (never run on their own). */
const CONSUMED = [/^README\.md$/, /^calls\.jsonl$/, /^rfc8785-testdata\/(README\.md|numgen-static\.txt|input\/.+)$/];

export function runVectors(api, files, { es6Lines = 10_000 } = {}) {
  const records = [];
  const failures = [];
  const unknown = [];
  const byName = new Map(files.map((f) => [f.name, f.text]));
  // The files checked through vectors/calls.jsonl.
  const calls = byName.get('calls.jsonl') ?? '';
  const pinned = new Set(calls.split('\n').filter(Boolean).map((l) => JSON.parse(l).file));
  for (const { name, text } of files) {
    if (pinned.has(name) || CONSUMED.some((re) => re.test(name))) continue;
    if (name !== `${RFC}es6-hashes.tsv`) {
      unknown.push(name);
      continue;
    }
    const ctx = {
      api,
      es6Lines,
      file: (n) => byName.get(n),
      record(kase, result, expected) {
        records.push({ file: name, case: kase, result });
        if (result !== expected) failures.push({ file: name, case: kase, result, expected });
      },
    };
    es6Numbers(ctx, text);
  }
  return { records, failures, unknown };
}

const bytesFromHex = (hex) => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));

// The ECMAScript number test sequence (README.md of rfc8785-testdata): the first N lines
// `<hex>,<String(x)>` written by our number writer (through canonicalize), hashed, against the
// published hash for N.
function es6Numbers(ctx, text) {
  const { api } = ctx;
  const hashes = new Map(text.trim().split('\n').map((l) => l.split('\t')).map(([n, h]) => [Number(n), h]));
  const n = ctx.es6Lines;
  if (!hashes.has(n)) throw new Error(`es6-hashes.tsv has no hash for ${n} lines`);
  const statics = ctx.file(`${RFC}numgen-static.txt`).trim().split('\n').map((l) => BigInt(`0x${l.trim()}`));
  const view = new DataView(new ArrayBuffer(8));
  const bitsToDouble = (bits) => { view.setBigUint64(0, bits); return view.getFloat64(0); };
  const lines = [];
  const emit = (bits) => {
    const x = bitsToDouble(bits);
    // Handed over in exponent form so that the core reads a double (an integer literal beyond
    // 2^53 would be refused), then written by the core's number writer.
    const written = new TextDecoder().decode(api.canonicalize(`[${x.toExponential()}]`)).slice(1, -1);
    lines.push(`${bits.toString(16)},${written}\n`);
  };
  for (const b of statics) { if (lines.length < n) emit(b); }
  for (let i = 0n; i < 2000n && lines.length < n; i++) emit(0x0010000000000000n + i);
  let block = new Uint8Array(32);
  while (lines.length < n) {
    block = bytesFromHex(api.sha256Hex(block));
    const dv = new DataView(block.buffer);
    for (let k = 0; k < 4 && lines.length < n; k++) {
      const x = dv.getFloat64(k * 8, true);
      if (x === 0 || !Number.isFinite(x)) continue;
      emit(dv.getBigUint64(k * 8, true));
    }
  }
  ctx.record(`es6 numbers: first ${n} lines`, `ok:${api.sha256Hex(lines.join(''))}`, `ok:${hashes.get(n)}`);
}

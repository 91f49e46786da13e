// The generic runner of vectors/calls.jsonl (vectors/README.md#calls) for the JS surfaces: Node,
// wasm in Node and wasm in a browser page. No Node built-ins.
//
// Each line is a `call` request of the conformance protocol and the place of its expected value
// in a vector file ({file, pointer, request, take}); the expected values stay in the vector files.

/** The value at JSON pointer `p` (RFC 6901) of `v`, or undefined. */
export function at(v, p) {
  if (p === '') return v;
  for (const raw of p.slice(1).split('/')) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/**
 * `take` of an answer object ({ok: text} or {error: CODE}): the outcome (the parsed answer, or
 * {error: CODE}), then each step (a JSON pointer, `length`, `sha256`); undefined where a step finds
 * nothing.
 */
export function taken(answer, take, sha256) {
  // `json` first: the answer's own canonical JSON text instead of its value.
  const text = take[0] === 'json';
  let v = text ? answer.ok : 'ok' in answer ? JSON.parse(answer.ok) : { error: answer.error };
  for (const step of text ? take.slice(1) : take) {
    if (step === 'length') v = typeof v === 'string' ? new TextEncoder().encode(v).length : undefined;
    else if (step === 'sha256') v = typeof v === 'string' ? sha256(v) : undefined;
    else v = at(v, step);
    if (v === undefined) return undefined;
  }
  return v;
}

/** JSON text with sorted members: two values are the same JSON value when theirs are equal. */
export function sorted(v) {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(sorted).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sorted(v[k])}`).join(',')}}`;
}

/** Another value of the same type (the meta-test's change of an expected value). */
export function tamper(x) {
  if (typeof x === 'string') return x.slice(0, -1) + (x.endsWith('0') ? '1' : '0');
  if (typeof x === 'number') return x + 1;
  if (typeof x === 'boolean') return !x;
  if (x === null) return 0;
  return { tampered: x };
}

/**
 * Runs every line of `text` (vectors/calls.jsonl) with `answer` (ops.mjs's makeAnswer), reading
 * expected values with `vectorFile(name)` (the parsed file). Returns one result a line:
 * {file, pointer, got, want, pass, tamperedPasses}; `pass` is got equal to want, `tamperedPasses`
 * is got equal to a changed want (must be false: the line compares what the file says).
 */
export function runVectorCalls(answer, text, vectorFile, { sha256 } = {}) {
  const files = new Map();
  const out = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const { file, pointer, request, take } = JSON.parse(line);
    if (!files.has(file)) files.set(file, vectorFile(file));
    const want = at(files.get(file), pointer);
    const got = taken(answer(request), take, sha256);
    out.push({ file, pointer, got, want, pass: want !== undefined && sorted(got) === sorted(want), tamperedPasses: sorted(got) === sorted(tamper(want)) });
  }
  return out;
}

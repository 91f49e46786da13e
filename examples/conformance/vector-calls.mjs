// The generic runner of vectors/calls.jsonl (vectors/README.md#calls) for the JS surfaces: Node,
// wasm in Node and wasm in a browser page. No Node built-ins.
//
// Each line is a request of the conformance protocol (mostly a `call`) and the place of its
// expected value in a vector file ({file, pointer, request, take, as?}); the expected values stay
// in the vector files.

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
 * {error: CODE}), then each step (a JSON pointer, `length`, `sha256`, `code`, a verdict step);
 * undefined where a step finds nothing.
 */
export function taken(answer, take, sha256) {
  // `text` first: the answer's own text instead of its parsed value.
  const text = take[0] === 'text';
  let v;
  if (text) v = answer.ok;
  else if ('ok' in answer) {
    try {
      v = JSON.parse(answer.ok);
    } catch {
      return undefined; // a legacy operation's answer that is not JSON (a hex digest)
    }
  } else v = { error: answer.error };
  for (const step of text ? take.slice(1) : take) {
    if (step === 'length') v = typeof v === 'string' ? new TextEncoder().encode(v).length : undefined;
    else if (step === 'sha256') v = typeof v === 'string' ? sha256(v) : undefined;
    else if (['checks', 'not_pass', 'outcomes', 'verdict'].includes(step)) v = verdictStep(step, v);
    else if (step === 'code') v = v !== null && typeof v === 'object' && Object.keys(v).length === 1 && 'error' in v ? v.error : v;
    else v = at(v, step);
    if (v === undefined) return undefined;
  }
  return v;
}

/**
 * The verdict steps: `checks` {name: check}, `not_pass` {name: outcome} of the checks that did not
 * pass, `outcomes` {name: outcome}, `verdict` {accepted, checks: outcomes, receipt_digest} (the
 * digest only when not null; a refusal's outcome passes through).
 */
function verdictStep(step, v) {
  if (step === 'verdict' && v !== null && typeof v === 'object' && 'error' in v) return v;
  if (!Array.isArray(v?.checks)) return undefined;
  const out = {};
  for (const c of v.checks) {
    if (step === 'checks') out[c.name] = c;
    else if (step !== 'not_pass' || c.outcome !== 'pass') out[c.name] = c.outcome;
  }
  if (step !== 'verdict') return out;
  const verdict = { accepted: v.accepted, checks: out };
  if (v.receipt_digest !== null && v.receipt_digest !== undefined) verdict.receipt_digest = v.receipt_digest;
  return verdict;
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
 * The meta-test's copy of a vector file: its JSON `text` with the value at `pointer` changed
 * (tamper), as JSON text.
 */
export function changedCopy(text, pointer) {
  const doc = JSON.parse(text);
  const keys = pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const holder = keys.slice(0, -1).reduce((o, k) => o[k], doc);
  holder[keys.at(-1)] = tamper(holder[keys.at(-1)]);
  return JSON.stringify(doc);
}

/**
 * The request with each `{"$generated": {prefix, repeat, count, inner, close, suffix}}` member
 * written out: prefix + repeat × count + inner + close × count + suffix (a missing part is empty).
 */
export function expand(request) {
  const out = { ...request };
  for (const [k, v] of Object.entries(request)) {
    const g = v !== null && typeof v === 'object' ? v.$generated : undefined;
    if (g) out[k] = (g.prefix ?? '') + (g.repeat ?? '').repeat(g.count) + (g.inner ?? '') + (g.close ?? '').repeat(g.count) + (g.suffix ?? '');
  }
  return out;
}

/**
 * Runs every line of `text` (vectors/calls.jsonl) with `answer` (ops.mjs's makeAnswer), reading
 * the vector files with `vectorText(name)` (a file's text; `name` relative to vectors/). Returns
 * one result a line: {file, pointer, got, want, pass, tamperedPasses}; `pass` is got equal to
 * want, `tamperedPasses` is got equal to a changed want (must be false: the line compares what
 * the file says). The expected value is the value at `pointer` of the parsed file, or with
 * `"as": "text"` the file's whole text.
 */
export function runVectorCalls(answer, text, vectorText, { sha256 } = {}) {
  const parsed = new Map();
  const out = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const { file, pointer, request, take, as } = JSON.parse(line);
    let want;
    if (as === 'text') want = vectorText(file);
    else {
      if (!parsed.has(file)) parsed.set(file, JSON.parse(vectorText(file)));
      want = at(parsed.get(file), pointer);
    }
    const got = taken(answer({ id: 1, ...expand(request) }), take, sha256);
    out.push({ file, pointer, got, want, pass: want !== undefined && sorted(got) === sorted(want), tamperedPasses: sorted(got) === sorted(tamper(want)) });
  }
  return out;
}

// The checks of a receipt verdict in plain words, used wherever the page shows a check (the
// problem buttons and the Problem filter, the rows' failing checks, the inspector) and in the
// exported results (`words` beside each failing check's `name`). The table is the core's
// (ekl_core::verdict::CHECK_WORDS, the CLI prints the same words), generated into check-words.js.
//
// The ids are the core's stable check names (core/src/receipt.rs for MAC receipts,
// core/src/receipt_sig.rs for network-signed ones, PROTOCOL §9.5 and §9.5.1). The words say what
// the check compares, as a noun phrase, so that "… : fail" reads right. A test
// (test/unit.test.mjs, "check words") fails when the core can emit a check id without words here:
// it reads the ids from the core's source and from the verdicts of the core itself.
// No DOM, no Node APIs.

import { CHECK_WORDS } from './check-words.js';

/** Check id → plain words (what the check compares): the core's table, generated. */
export { CHECK_WORDS };

/** The plain words of a check id, or null when the table has none (the id is then shown alone). */
export function checkWords(id) {
  return typeof id === 'string' && Object.hasOwn(CHECK_WORDS, id) ? CHECK_WORDS[id] : null;
}

/**
 * A check as one line of text: "words (id)", or the id alone when it has no words. The id is the
 * core's own ASCII name; a row never holds anything else here (the failing checks come from the core).
 */
export function checkLabel(id) {
  const w = checkWords(id);
  return w ? `${w} (${id})` : String(id);
}

/** The ids of `ids` without words in the table (the coverage test's question). */
export function missingWords(ids) {
  return [...new Set(ids)].filter((id) => checkWords(id) === null).sort();
}

/**
 * The check ids named in the core's Rust source text (the tests read core/src/*.rs): the first
 * argument of Check::pass / fail / mismatch / new / when and of str_check when it is a literal, a
 * `const NAME: &str` of a check, the entries of `JWS_CHECKS`, and the names of the loops that make
 * one check per name (`for (name, …) in [("execution_id", …), …]`, or over a `let` array of such
 * tuples). Test modules are left out.
 */
export function checkIdsInSource(rust) {
  const src = rust.split(/#\[cfg\(test\)\]/)[0];
  const ids = new Set();
  const add = (re) => { for (const m of src.matchAll(re)) ids.add(m[1]); };
  add(/Check::(?:pass|fail|mismatch|new|when)\(\s*"([a-z0-9_]+)"/g);
  add(/str_check\(\s*&?[a-z_]+,\s*"([a-z0-9_]+)"/g);
  add(/const NAME: &str = "([a-z0-9_]+)"/g);
  const jws = /JWS_CHECKS: \[&str; \d+\] = \[([^\]]*)\]/.exec(src);
  if (jws) for (const m of jws[1].matchAll(/"([a-z0-9_]+)"/g)) ids.add(m[1]);
  // Loops making one Check per `name`: `for (name, …) in [("id", …), …] {` and
  // `for (name, …) in VAR {` over `let VAR: [(&'static str, …); N] = [("id", …), …];`.
  const tuples = (list) => [...list.matchAll(/\(\s*"([a-z0-9_]+)"/g)].map((t) => t[1]);
  const arrays = new Map();
  for (const m of src.matchAll(/let ([a-z_]+): \[\(&'static str, [^\]]*?\); \d+\] = \[([\s\S]*?)\];/g)) arrays.set(m[1], tuples(m[2]));
  for (const m of src.matchAll(/for \(name, [a-z_]+\) in (\[[\s\S]*?\]|[a-z_]+) \{(?=([\s\S]{0,1500}))/g)) {
    if (!/Check::(?:pass|fail|mismatch|new|when)\(\s*name\b/.test(m[2])) continue;
    for (const id of m[1].startsWith('[') ? tuples(m[1]) : arrays.get(m[1]) || []) ids.add(id);
  }
  return [...ids].sort();
}

/**
 * Why key_id failed, in words (the core's Check::reason codes, ekl_core::verdict::REASONS): so that
 * an unknown key, a key not yet valid and an expired key read differently in the list and the
 * summary.
 */
export const REASON_WORDS = Object.freeze({
  unknown_key: 'unknown receipt key',
  key_not_yet_valid: 'receipt key not yet valid at issue time',
  key_expired: 'receipt key expired at issue time',
});

/** The words of a first cause (verify.js causeKey: `check` or `check:reason`), or null. */
export function causeWords(key) {
  const [id, reason] = String(key).split(':');
  return (reason && REASON_WORDS[reason]) || checkWords(id);
}

/** A first cause as one line: "words (id)", or the key alone when it has no words. */
export function causeLabel(key) {
  const w = causeWords(key);
  return w ? `${w} (${String(key).split(':')[0]})` : String(key);
}

/**
 * Why a knock-on check was not checked, in words: "not checked: the key was unknown". `blockedBy`
 * is the check whose failure left it unchecked; `checks` the verdict's checks (for its reason).
 */
export function blockedWords(blockedBy, checks = []) {
  const by = checks.find((c) => c.name === blockedBy);
  const why = {
    unknown_key: 'the key was unknown',
    key_not_yet_valid: 'the key was not yet valid at issue time',
    key_expired: 'the key had expired at issue time',
  }[by && by.reason];
  if (why) return `not checked: ${why}`;
  if (blockedBy === 'key_id') return 'not checked: no usable key';
  if (blockedBy === 'issued_at') return 'not checked: issued_at is not a valid time';
  return `not checked: ${checkLabel(blockedBy)} failed`;
}

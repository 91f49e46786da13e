// The dashboard's table of results: one bounded row per item, stored in columns (typed arrays, and
// the row's texts as UTF-8 in a shared byte arena: no object or string per row): 83 bytes per row
// plus its text (at most 400 bytes), so 500,000 rows take at most about 242 MB whatever the
// receipts hold (about 70 MB for receipts like the sample's). The summary counts
// every item, also those past the row limit. Filters and search run here (in the coordinator
// worker), never on the page's thread. No DOM, no Node APIs.
//
// A row's texts are kept by length, never joined by a separator: a value may hold any character
// (issue 24: a receipt id holding the old separator U+0001 shifted the row's other fields). Each
// field has a 16-bit code in `fieldCode`: 0 for null, else 1 + (length in UTF-16 units << 2 | cut
// << 1 | json), `cut` when the value was shortened (to FIELD_CHARS, MESSAGE_CHARS or the row's
// ROW_TEXT_BYTES), `json` when the stored text is JSON.stringify of the value (a value that is not
// well-formed UTF-16, a lone surrogate, which UTF-8 cannot hold). The row's texts are decoded once
// and sliced by these lengths.

/** The most rows kept (and listed); later items are still checked and counted in the summary. */
export const MAX_ROWS = 500_000;
/** Longest id or label kept per row, in UTF-16 units (the inspector re-reads the item). */
export const FIELD_CHARS = 80;
/** Longest message kept per row. */
export const MESSAGE_CHARS = 160;
/** Longest text kept per row, in UTF-8 bytes (ids, label, message together). */
export const ROW_TEXT_BYTES = 400;
const ARENA_CHUNK = 4 << 20;
import { checkWords } from './checks.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const STATUSES = ['verified', 'failed', 'unreadable', 'unchecked'];
export const KINDS = ['unknown', 'mac', 'jws', 'object'];
const BLOCK = 1 << 16;
/** The row's texts, in this order, and their names in the exported results. */
export const TEXT_FIELDS = ['receiptId', 'executionId', 'provider', 'capability', 'issuedAt', 'label', 'message'];
export const EXPORT_NAMES = ['receipt_id', 'execution_id', 'provider_agent_id', 'capability_id', 'issued_at', 'label', 'message'];
const NF = TEXT_FIELDS.length;
const CAPS = TEXT_FIELDS.map((k) => (k === 'message' ? MESSAGE_CHARS : FIELD_CHARS));
/** Longest detail kept per failing check (the core's details are short; the bound is for safety). */
const DETAIL_CHARS = 200;

/** Characters a row never shows as they are: controls, format characters (bidi overrides, zero
 * widths), line and paragraph separators, lone surrogates; and the backslash, so that an escape
 * shown can only come from this function. */
const SPECIAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\\]/u;
const SPECIAL_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\\]/gu;
const escapeOne = (c) => {
  if (c === '\\') return '\\\\';
  let out = '';
  for (let k = 0; k < c.length; k++) out += `\\u${c.charCodeAt(k).toString(16).padStart(4, '0')}`;
  return out;
};

/**
 * A value as the table, the search and the inspector show it: the same text, with every control or
 * invisible format character, U+2028/U+2029 and lone surrogate written as \uXXXX (UTF-16 units, as
 * JSON writes them) and a backslash as \\ (so "\u0001" typed in an id and U+0001 differ). Null stays null.
 */
export function shown(v) {
  if (v === null || v === undefined) return null;
  const s = String(v);
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, escapeOne) : s;
}

/** A row field as the table shows it: shown(value), with … when the row keeps a shortened value. */
export function shownField(row, key) {
  const v = row[key];
  if (v === null || v === undefined) return null;
  return row.cut && row.cut.includes(key) ? `${shown(v)}…` : shown(v);
}

/** How an item number is written in a deep link: a positive decimal integer, canonically. */
export const ITEM_NUMBER = /^[1-9][0-9]*$/;

/**
 * The item number of a deep link (`#item=N`): N as a number when it is written canonically (a
 * positive decimal integer without sign, leading zeros, spaces, exponent or fraction) and at most
 * `count`; null for anything else.
 */
export function itemNumber(text, count = Number.MAX_SAFE_INTEGER) {
  if (typeof text !== 'string' || !ITEM_NUMBER.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= count ? n : null;
}

const cut = (s, n) => (s && s.length > n ? `${cutUnits(s, n - 1)}…` : s);

/** The value of each hex digit's char code (lower case only), -1 for any other. */
const HEX = new Int8Array(128).fill(-1);
for (let k = 0; k < 16; k++) HEX['0123456789abcdef'.charCodeAt(k)] = k;

/** Writes 64 lower-case hex digits as 32 bytes at out[at..]; false (nothing kept) for other text. */
function hexInto(text, out, at) {
  for (let k = 0; k < 32; k++) {
    const hi = HEX[text.charCodeAt(2 * k)] ?? -1;
    const lo = HEX[text.charCodeAt(2 * k + 1)] ?? -1;
    if (hi < 0 || lo < 0) return false;
    out[at + k] = (hi << 4) | lo;
  }
  return true;
}

const wellFormed = typeof String.prototype.isWellFormed === 'function'
  ? (s) => s.isWellFormed()
  : (s) => !/\p{Cs}/u.test(s);

/** `s` cut to at most `n` UTF-16 units, never between the two halves of a pair. */
function cutUnits(s, n) {
  if (s.length <= n) return s;
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(n) & 0xfc00) === 0xdc00 ? n - 1 : n);
}

/** A value's stored text: {text, json} (json: JSON.stringify of the value, for lone surrogates). */
function storedForm(v) {
  return wellFormed(v) ? { text: v, json: false } : { text: JSON.stringify(v), json: true };
}

/** The longest prefix of `v` (whole characters) whose stored text takes at most `room` UTF-8 bytes. */
function fitBytes(v, room) {
  let p = v;
  for (;;) {
    const f = storedForm(p);
    const bytes = encoder.encode(f.text);
    if (bytes.length <= room) return { ...f, bytes: bytes.length, value: p };
    if (!f.json) {
      // Well-formed: cut the UTF-8 at a character boundary, read it back (exact).
      let end = room;
      while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
      const q = decoder.decode(bytes.subarray(0, end));
      return { text: q, json: false, bytes: end, value: q };
    }
    p = cutUnits(p, p.length - 1);
  }
}

/**
 * The stored texts of a row's fields within the caps and ROW_TEXT_BYTES: [{text, json, cut} | null].
 * When the fields together are too long, each keeps an equal share of the bytes at least (a long
 * field cannot crowd the others out), shorter ones keep all of theirs.
 */
function fitRow(values) {
  const forms = values.map((v, k) => {
    if (v === null) return null;
    const c = cutUnits(v, CAPS[k]);
    const f = storedForm(c);
    return { ...f, value: c, cut: c.length < v.length, bytes: encoder.encode(f.text).length };
  });
  const present = forms.filter(Boolean);
  let total = present.reduce((n, f) => n + f.bytes, 0);
  if (total <= ROW_TEXT_BYTES) return forms;
  // Water-filling: the shortest first, each given at most an equal share of what is left.
  let left = ROW_TEXT_BYTES;
  let n = present.length;
  for (const f of [...present].sort((a, b) => a.bytes - b.bytes)) {
    const share = Math.floor(left / n);
    n--;
    if (f.bytes <= share) {
      left -= f.bytes;
      continue;
    }
    const fit = fitBytes(f.value, share);
    f.text = fit.text;
    f.json = fit.json;
    f.value = fit.value;
    f.bytes = fit.bytes;
    f.cut = true;
    left -= f.bytes;
  }
  total = present.reduce((m, f) => m + f.bytes, 0);
  if (total > ROW_TEXT_BYTES) throw new Error('row text over its bound'); // cannot happen
  return forms;
}

/** The empty summary. */
export function emptySummary() {
  return { total: 0, verified: 0, failed: 0, unreadable: 0, unchecked: 0, byCause: {}, byError: {}, byNeeds: {}, listed: 0 };
}

/**
 * Adds one row to a summary. Each receipt is counted once: a failed one under its first cause
 * (`byCause`, verify.js causeKey: the check, and for key_id why), an unreadable one under its error
 * code, one not checked under what it needs; so the counts of the three add up to the receipts
 * failed, unreadable and not checked.
 */
export function count(summary, row) {
  summary.total++;
  summary[row.status]++;
  if (row.status === 'unreadable' && row.code) summary.byError[row.code] = (summary.byError[row.code] || 0) + 1;
  if (row.status === 'unchecked' && row.needs) summary.byNeeds[row.needs] = (summary.byNeeds[row.needs] || 0) + 1;
  if (row.status === 'failed') {
    const cause = row.cause || (row.failing[0] ? row.failing[0][0] : 'unknown');
    summary.byCause[cause] = (summary.byCause[cause] || 0) + 1;
  }
}

class Interned {
  constructor() {
    this.ids = new Map();
    this.values = [null];
  }
  id(v) {
    if (v === null || v === undefined) return 0;
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.ids.set(v, id);
    }
    return id;
  }
}

export class RowStore {
  constructor(max = MAX_ROWS) {
    this.max = max;
    this.blocks = [];
    this.arena = []; // chunks of row texts
    this.arenaPos = ARENA_CHUNK;
    this.length = 0; // highest index stored + 1
    this.stored = 0;
    this.failSets = new Interned(); // failing checks: JSON of [[name, outcome, detail, reason, blockedBy]]
    this.causes = new Interned(); // first causes (verify.js causeKey)
    this.codes = new Interned();
    this.needs = new Interned();
    this.hex = '0123456789abcdef';
  }

  block(i) {
    const b = i >> 16;
    while (this.blocks.length <= b) {
      this.blocks.push({
        offset: new Uint32Array(BLOCK), size: new Uint32Array(BLOCK), line: new Uint32Array(BLOCK), // files < 4 GiB
        lineInItem: new Uint32Array(BLOCK), status: new Uint8Array(BLOCK), kind: new Uint8Array(BLOCK),
        passed: new Uint16Array(BLOCK), failing: new Uint32Array(BLOCK), code: new Uint16Array(BLOCK), cause: new Uint16Array(BLOCK),
        needs: new Uint8Array(BLOCK), digest: new Uint8Array(BLOCK * 32), hasDigest: new Uint8Array(BLOCK),
        present: new Uint8Array(BLOCK), textChunk: new Uint16Array(BLOCK), textAt: new Uint32Array(BLOCK),
        textLen: new Uint16Array(BLOCK), fieldCode: new Uint16Array(BLOCK * NF),
      });
    }
    return this.blocks[b];
  }

  /** Stores the row of item `i` (0-based); false when past the limit. */
  set(i, row) {
    if (i >= this.max) return false;
    const b = this.block(i);
    const j = i & (BLOCK - 1);
    b.offset[j] = row.offset;
    b.size[j] = row.size;
    b.line[j] = row.line;
    b.lineInItem[j] = row.lineInItem || 0;
    b.status[j] = STATUSES.indexOf(row.status);
    b.kind[j] = Math.max(0, KINDS.indexOf(row.kind));
    b.passed[j] = Math.min(row.passed, 65535);
    b.failing[j] = row.failing.length
      ? this.failSets.id(JSON.stringify(row.failing.map(([name, outcome, detail, reason, blockedBy]) => [name, outcome, typeof detail === 'string' ? cut(detail, DETAIL_CHARS) : detail ?? null, reason ?? null, blockedBy ?? null])))
      : 0;
    b.cause[j] = Math.min(this.causes.id(row.status === 'failed' ? row.cause ?? null : null), 65535);
    b.code[j] = Math.min(this.codes.id(row.code), 65535);
    b.needs[j] = Math.min(this.needs.id(row.needs), 255);
    b.hasDigest[j] = typeof row.digest === 'string' && row.digest.length === 64 && hexInto(row.digest, b.digest, j * 32) ? 1 : 0;
    if (!b.present[j]) this.stored++;
    b.present[j] = 1;
    this.setText(b, j, row);
    if (i + 1 > this.length) this.length = i + 1;
    return true;
  }

  /**
   * Stores a row's texts in the arena, one after the other, and their lengths in `fieldCode`. The
   * common row (well-formed, within the caps, at most ROW_TEXT_BYTES / 3 units in all, so at most
   * ROW_TEXT_BYTES bytes) is encoded in place in one call; any other goes through fitRow.
   */
  setText(b, j, row) {
    if (this.arenaPos + ROW_TEXT_BYTES > ARENA_CHUNK) {
      this.arena.push(new Uint8Array(ARENA_CHUNK));
      this.arenaPos = 0;
    }
    const values = new Array(NF);
    let units = 0;
    let simple = true;
    for (let k = 0; k < NF; k++) {
      const raw = row[TEXT_FIELDS[k]];
      const v = raw === null || raw === undefined ? null : String(raw);
      values[k] = v;
      if (v === null) continue;
      units += v.length;
      if (v.length > CAPS[k] || !wellFormed(v)) simple = false;
    }
    const at = j * NF;
    let text = '';
    if (simple && units <= ROW_TEXT_BYTES / 3) {
      for (let k = 0; k < NF; k++) {
        const v = values[k];
        b.fieldCode[at + k] = v === null ? 0 : 1 + (v.length << 2);
        if (v !== null) text += v;
      }
    } else {
      const forms = fitRow(values);
      for (let k = 0; k < NF; k++) {
        const f = forms[k];
        b.fieldCode[at + k] = f === null ? 0 : 1 + ((f.text.length << 2) | (f.cut ? 2 : 0) | (f.json ? 1 : 0));
        if (f !== null) text += f.text;
      }
    }
    const chunk = this.arena.length - 1;
    const room = this.arena[chunk].subarray(this.arenaPos, this.arenaPos + ROW_TEXT_BYTES);
    const { read, written } = encoder.encodeInto(text, room);
    if (read !== text.length) throw new Error('row text over its bound'); // cannot happen: fitRow bounds it
    b.textChunk[j] = chunk;
    b.textAt[j] = this.arenaPos;
    b.textLen[j] = written;
    this.arenaPos += written;
  }

  /** The texts of row `i`, its fields one after the other (sliced by `fieldCode`). */
  text(i) {
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    return decoder.decode(this.arena[b.textChunk[j]].subarray(b.textAt[j], b.textAt[j] + b.textLen[j]));
  }

  /**
   * The fields of row `i`: {values: [string | null] in TEXT_FIELDS order, cut: [names of the
   * shortened ones]}; `t` is text(i) when the caller has it.
   */
  fields(i, t = this.text(i)) {
    const b = this.blocks[i >> 16];
    const at = (i & (BLOCK - 1)) * NF;
    const values = new Array(NF);
    const cutKeys = [];
    let pos = 0;
    for (let k = 0; k < NF; k++) {
      const code = b.fieldCode[at + k];
      if (code === 0) {
        values[k] = null;
        continue;
      }
      const c = code - 1;
      const len = c >> 2;
      const s = t.slice(pos, pos + len);
      pos += len;
      values[k] = c & 1 ? JSON.parse(s) : s;
      if (c & 2) cutKeys.push(TEXT_FIELDS[k]);
    }
    return { values, cut: cutKeys };
  }

  has(i) {
    return Number.isInteger(i) && i >= 0 && i < this.length && this.blocks[i >> 16].present[i & (BLOCK - 1)] === 1;
  }

  status(i) {
    return STATUSES[this.blocks[i >> 16].status[i & (BLOCK - 1)]];
  }

  digest(i) {
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    if (!b.hasDigest[j]) return null;
    let s = '';
    for (let k = 0; k < 32; k++) {
      const x = b.digest[j * 32 + k];
      s += this.hex[x >> 4] + this.hex[x & 15];
    }
    return s;
  }

  failing(i) {
    const id = this.blocks[i >> 16].failing[i & (BLOCK - 1)];
    return id ? JSON.parse(this.failSets.values[id]) : [];
  }

  /**
   * The row of item `i` as an object (the shape checkItem returns, plus index, offset, size, line,
   * and `cut`: the names of the text fields kept shortened).
   */
  get(i) {
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    const { values, cut: cutKeys } = this.fields(i);
    const row = {
      index: i + 1, offset: b.offset[j], size: b.size[j], line: b.line[j], lineInItem: b.lineInItem[j] || null,
      status: STATUSES[b.status[j]], kind: KINDS[b.kind[j]], passed: b.passed[j], failing: this.failing(i), cause: this.causes.values[b.cause[j]],
      code: this.codes.values[b.code[j]], needs: this.needs.values[b.needs[j]], digest: this.digest(i), cut: cutKeys,
    };
    TEXT_FIELDS.forEach((k, n) => { row[k] = values[n]; });
    return row;
  }

  /** Whether the shown text of one of row `i`'s fields holds `q` (lower case), the fields one by one. */
  textHas(i, q) {
    const t = this.text(i);
    // The fields as they are, one after the other: when no field needs an escape and the whole
    // does not hold q, no field does (the common case: one search of the whole).
    const plain = !SPECIAL.test(t);
    if (plain && !t.toLowerCase().includes(q)) return false;
    const { values } = this.fields(i, t);
    for (const v of values) if (v !== null && (plain ? v : shown(v)).toLowerCase().includes(q)) return true;
    return false;
  }

  /**
   * Whether row `i` matches a filter {mode: 'all'|'problems', check, q}; `check` is a key of the
   * summary: a first cause (verify.js causeKey), `error:CODE` or `needs:WHAT`.
   */
  matches(i, f) {
    if (!this.has(i)) return false;
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    const status = STATUSES[b.status[j]];
    if (f.mode === 'problems' && status === 'verified') return false;
    if (f.check) {
      if (f.check.startsWith('error:')) {
        if (status !== 'unreadable' || this.codes.values[b.code[j]] !== f.check.slice(6)) return false;
      } else if (f.check.startsWith('needs:')) {
        if (status !== 'unchecked' || this.needs.values[b.needs[j]] !== f.check.slice(6)) return false;
      } else if (status !== 'failed' || this.causes.values[b.cause[j]] !== f.check) {
        return false;
      }
    }
    if (f.q) {
      const q = f.q;
      if (!this.textHas(i, q)) {
        const d = this.digest(i);
        if (!(d && d.includes(q)) && `#${i + 1}` !== q && `line ${b.line[j]}` !== q) return false;
      }
    }
    return true;
  }

  /**
   * The indexes of the rows matching a filter, in `f.order`: 'problems' (the default) lists every
   * row that is not verified first, then the verified ones, each in file order; 'file' in file order.
   */
  select(f) {
    const q = (f.q || '').trim().toLowerCase();
    const filter = { mode: f.mode, check: f.check || '', q };
    const out = [];
    if (filter.mode !== 'problems' && !filter.check && !q) {
      for (let i = 0; i < this.length; i++) if (this.has(i)) out.push(i);
    } else {
      for (let i = 0; i < this.length; i++) if (this.matches(i, filter)) out.push(i);
    }
    if (f.order === 'file' || filter.mode === 'problems' || filter.check) return out;
    const verified = STATUSES.indexOf('verified');
    const problems = [];
    const fine = [];
    for (const i of out) (this.blocks[i >> 16].status[i & (BLOCK - 1)] === verified ? fine : problems).push(i);
    if (problems.length === 0 || fine.length === 0) return out;
    for (const i of fine) problems.push(i);
    return problems;
  }

  /** The first stored row whose receipt id (as kept) is `id`, or -1. */
  findReceipt(id) {
    for (let i = 0; i < this.length; i++) {
      if (this.has(i) && this.fields(i).values[0] === id) return i;
    }
    return -1;
  }
}

/**
 * One result of the exported file: the row's true values (JSON escapes what JSON must), each
 * failing check's plain `words` beside its `name` (checks.js; null for an id without words), and
 * `truncated`: the names of the values kept shortened (each then a prefix of the item's value;
 * the inspector re-reads the item for all of it).
 */
export function exportRecord(r) {
  const out = { item: r.index, line: r.line, kind: r.kind, verdict: r.status };
  for (let k = 0; k < 5; k++) out[EXPORT_NAMES[k]] = r[TEXT_FIELDS[k]];
  out.label = r.label;
  out.receipt_digest = r.digest;
  out.failing = r.failing.map(([name, outcome, detail, reason, blockedBy]) => ({
    name, words: checkWords(name), outcome, detail, ...(reason ? { reason } : {}), ...(blockedBy ? { blocked_by: blockedBy } : {}),
  }));
  out.cause = r.cause ?? null;
  out.passed = r.passed;
  out.error = r.code ? { code: r.code, message: r.message } : null;
  out.needs = r.needs;
  out.truncated = (r.cut || []).map((k) => EXPORT_NAMES[TEXT_FIELDS.indexOf(k)]);
  return out;
}

/** The verdicts the export of failures keeps: a receipt that failed a check or could not be read. */
export const FAILURES = Object.freeze(['failed', 'unreadable']);

/** The selections of the export: every stored row, or the failures alone. */
export const EXPORTS = Object.freeze({ all: null, failures: FAILURES });

/**
 * The exported file as text parts (to be joined, or made a Blob): one JSON object
 * {"file", "selection", "summary", "results": [exportRecord, …]}, the same format whatever
 * `selection` is: 'all' (every stored row) or 'failures' (the rows whose verdict is in FAILURES).
 * `summary` always counts every item checked. Rows are written in file order, 10,000 a part.
 */
export function exportParts(store, summary, fileName, selection = 'all') {
  if (!Object.hasOwn(EXPORTS, selection)) throw new Error(`unknown export selection ${String(selection).slice(0, 40)}`);
  const keep = EXPORTS[selection];
  const parts = [`{"file":${JSON.stringify(fileName)},"selection":${JSON.stringify(selection)},"summary":${JSON.stringify(summary)},"results":[`];
  let chunk = [];
  let first = true;
  for (let i = 0; i < store.length; i++) {
    if (!store.has(i)) continue;
    if (keep && !keep.includes(store.status(i))) continue;
    chunk.push(JSON.stringify(exportRecord(store.get(i))));
    if (chunk.length === 10000) {
      parts.push((first ? '' : ',') + chunk.join(','));
      first = false;
      chunk = [];
    }
  }
  if (chunk.length) parts.push((first ? '' : ',') + chunk.join(','));
  parts.push(']}\n');
  return parts;
}

// The dashboard's table of results: one bounded row per item, stored in columns (typed arrays, and
// the row's texts as UTF-8 in a shared byte arena: no object or string per row): 69 bytes per row
// plus its text (at most 400 bytes), so 500,000 rows take at most about 235 MB whatever the
// receipts hold (about 65 MB for receipts like the sample's). The summary counts
// every item, also those past the row limit. Filters and search run here (in the coordinator
// worker), never on the page's thread. No DOM, no Node APIs.

/** The most rows kept (and listed); later items are still checked and counted in the summary. */
export const MAX_ROWS = 500_000;
/** Longest message kept per row. */
export const MESSAGE_CHARS = 160;
/** Longest text kept per row, in UTF-8 bytes (ids, label, message together). */
export const ROW_TEXT_BYTES = 400;
const ARENA_CHUNK = 4 << 20;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const STATUSES = ['verified', 'failed', 'unreadable', 'unchecked'];
export const KINDS = ['unknown', 'mac', 'jws', 'object'];
const BLOCK = 1 << 16;
const SEP = '\u0001';
const TEXT_FIELDS = ['receiptId', 'executionId', 'provider', 'capability', 'issuedAt', 'label', 'message'];

const cut = (s, n) => (s && s.length > n ? `${s.slice(0, n - 1)}…` : s);

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

/** UTF-8 of `text` into `room`, cut at a character boundary when longer: the bytes written. */
function encodeCut(text, room) {
  const bytes = encoder.encode(text);
  let end = Math.min(bytes.length, room.length);
  if (end < bytes.length) while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  room.set(bytes.subarray(0, end));
  return end;
}

/** The empty summary. */
export function emptySummary() {
  return { total: 0, verified: 0, failed: 0, unreadable: 0, unchecked: 0, byCheck: {}, byError: {}, byNeeds: {}, listed: 0 };
}

/** Adds one row to a summary. */
export function count(summary, row) {
  summary.total++;
  summary[row.status]++;
  if (row.status === 'unreadable' && row.code) summary.byError[row.code] = (summary.byError[row.code] || 0) + 1;
  if (row.status === 'unchecked' && row.needs) summary.byNeeds[row.needs] = (summary.byNeeds[row.needs] || 0) + 1;
  for (const [name] of row.failing) summary.byCheck[name] = (summary.byCheck[name] || 0) + 1;
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
    this.failSets = new Interned(); // failing checks: JSON of [[name, outcome, detail]]
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
        passed: new Uint16Array(BLOCK), failing: new Uint32Array(BLOCK), code: new Uint16Array(BLOCK),
        needs: new Uint8Array(BLOCK), digest: new Uint8Array(BLOCK * 32), hasDigest: new Uint8Array(BLOCK),
        present: new Uint8Array(BLOCK), textChunk: new Uint16Array(BLOCK), textAt: new Uint32Array(BLOCK),
        textLen: new Uint16Array(BLOCK),
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
    b.failing[j] = row.failing.length ? this.failSets.id(cut(JSON.stringify(row.failing), 2000)) : 0;
    b.code[j] = Math.min(this.codes.id(row.code), 65535);
    b.needs[j] = Math.min(this.needs.id(row.needs), 255);
    b.hasDigest[j] = typeof row.digest === 'string' && row.digest.length === 64 && hexInto(row.digest, b.digest, j * 32) ? 1 : 0;
    if (!b.present[j]) this.stored++;
    b.present[j] = 1;
    this.setText(b, j, TEXT_FIELDS.map((k) => (k === 'message' ? cut(row[k], MESSAGE_CHARS) : row[k]) ?? '').join(SEP));
    if (i + 1 > this.length) this.length = i + 1;
    return true;
  }

  /**
   * Stores a row's text in the arena (cut to ROW_TEXT_BYTES at a character boundary): encoded in
   * place, into room for ROW_TEXT_BYTES (encodeInto writes whole characters only).
   */
  setText(b, j, text) {
    if (this.arenaPos + ROW_TEXT_BYTES > ARENA_CHUNK) {
      this.arena.push(new Uint8Array(ARENA_CHUNK));
      this.arenaPos = 0;
    }
    const chunk = this.arena.length - 1;
    const room = this.arena[chunk].subarray(this.arenaPos, this.arenaPos + ROW_TEXT_BYTES);
    const written = text.length <= ROW_TEXT_BYTES / 3 ? encoder.encodeInto(text, room).written : encodeCut(text, room);
    b.textChunk[j] = chunk;
    b.textAt[j] = this.arenaPos;
    b.textLen[j] = written;
    this.arenaPos += written;
  }

  /** The text of row `i`: its fields joined by SEP. */
  text(i) {
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    return decoder.decode(this.arena[b.textChunk[j]].subarray(b.textAt[j], b.textAt[j] + b.textLen[j]));
  }

  has(i) {
    return i < this.length && this.blocks[i >> 16].present[i & (BLOCK - 1)] === 1;
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

  /** The row of item `i` as an object (the shape checkItem returns, plus index, offset, size, line). */
  get(i) {
    const b = this.blocks[i >> 16];
    const j = i & (BLOCK - 1);
    const t = this.text(i).split(SEP);
    const row = {
      index: i + 1, offset: b.offset[j], size: b.size[j], line: b.line[j], lineInItem: b.lineInItem[j] || null,
      status: STATUSES[b.status[j]], kind: KINDS[b.kind[j]], passed: b.passed[j], failing: this.failing(i),
      code: this.codes.values[b.code[j]], needs: this.needs.values[b.needs[j]], digest: this.digest(i),
    };
    TEXT_FIELDS.forEach((k, n) => { row[k] = t[n] === '' ? null : t[n]; });
    return row;
  }

  /** Whether row `i` matches a filter {mode: 'all'|'problems', check, q}. */
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
      } else {
        const id = b.failing[j];
        if (!id || !this.failSets.values[id].includes(`["${f.check}",`)) return false;
      }
    }
    if (f.q) {
      const q = f.q;
      if (!this.text(i).toLowerCase().includes(q)) {
        const d = this.digest(i);
        if (!(d && d.includes(q)) && `#${i + 1}` !== q && `line ${b.line[j]}` !== q) return false;
      }
    }
    return true;
  }

  /** The indexes of the rows matching a filter (in file order). */
  select(f) {
    const q = (f.q || '').trim().toLowerCase();
    const filter = { mode: f.mode, check: f.check || '', q };
    if (filter.mode !== 'problems' && !filter.check && !q) {
      const all = [];
      for (let i = 0; i < this.length; i++) if (this.has(i)) all.push(i);
      return all;
    }
    const out = [];
    for (let i = 0; i < this.length; i++) if (this.matches(i, filter)) out.push(i);
    return out;
  }

  /** The first stored row whose receipt id is `id`, or -1. */
  findReceipt(id) {
    for (let i = 0; i < this.length; i++) {
      if (this.has(i) && this.text(i).split(SEP, 1)[0] === id) return i;
    }
    return -1;
  }
}

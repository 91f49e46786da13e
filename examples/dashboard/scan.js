// Splits a receipts file into items as it streams in, chunk by chunk, in bounded memory, without
// parsing anything (the core parses each item). Shared by the coordinator worker and the Node tests;
// no DOM, no Node APIs.
//
// Accepted shapes (decided: docs/decisions.md#dashboard):
//   * JSON lines: one item per line (blank lines skipped). Chosen when the first value ends on the
//     first line, or when the second line starts with `{` or `[` in its first column.
//   * A JSON array: the array's elements are the items (`[` as the first character).
//   * Any other sequence of JSON values, e.g. one pretty-printed object or several: each top-level
//     value is an item, split by its brackets.
// A UTF-8 byte-order mark at the start of the file is skipped. JSON's structural characters are
// ASCII and never occur inside a multi-byte UTF-8 sequence, so splitting works on bytes: no text
// decoding, and the byte offset of every item is exact (the inspector re-reads an item from the
// file by its offset).
//
// Bounds: an item larger than `maxItemBytes` is reported by size only (its bytes are not kept); the
// bytes kept between chunks are at most one item. Every item carries its byte offset, size and line
// (1-based) in the file.

/** The largest item kept, in bytes (1 MiB); a larger one is reported as too large. */
export const MAX_ITEM_BYTES = 1 << 20;

const LF = 10, CR = 13, SP = 32, TAB = 9, QUOTE = 34, BACKSLASH = 92, COMMA = 44;
const LBRACE = 123, RBRACE = 125, LBRACKET = 91, RBRACKET = 93;
const isWs = (b) => b === SP || b === LF || b === CR || b === TAB;

/**
 * One item: `bytes` (a view into a chunk; null when the item is too large), its `offset` and
 * `size` in the file, the `line` it starts on, `tooLarge`, and `incomplete` when the file ended
 * inside it.
 * @typedef {{bytes: Uint8Array|null, offset: number, size: number, line: number, tooLarge: boolean, incomplete: boolean}} Item
 */

/**
 * A streaming splitter: `push(chunk)` for each chunk of the file in order, then `finish()`. Each
 * returns the items completed so far (views into the chunk, valid until the next push).
 */
export class Splitter {
  constructor({ maxItemBytes = MAX_ITEM_BYTES } = {}) {
    this.max = maxItemBytes;
    this.mode = null; // 'lines' | 'values' | 'array'
    this.pos = 0; // file offset of the next byte to push
    this.line = 1; // line of the next byte
    this.carry = null; // bytes kept from earlier chunks: the start of an open item, or the undecided head
    this.carryOffset = 0;
    this.started = false; // past the BOM check
    this.warnings = [];
    // values/array mode state
    this.depth = 0;
    this.inStr = false;
    this.esc = false;
    this.scalar = false;
    this.itemStart = -1; // file offset of the open item, -1 when none
    this.itemLine = 0;
    this.itemTooLarge = false;
    this.arrayClosed = false;
    this.trailing = false;
    // lines mode state
    this.lineStart = 0; // file offset where the current line starts
    this.lineTooLarge = false;
  }

  /** Feeds the next chunk; returns the items it completed. */
  push(chunk) {
    let buf = chunk;
    let base = this.pos;
    if (this.carry) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry, 0);
      buf.set(chunk, this.carry.length);
      base = this.carryOffset;
      this.carry = null;
    }
    const start = this.pos - base; // first new byte in buf
    this.pos += chunk.length;
    return this.run(buf, base, start, false);
  }

  /** Ends the file; returns the last items (an item cut off by the end is `incomplete`). */
  finish() {
    const buf = this.carry || new Uint8Array(0);
    const base = this.carry ? this.carryOffset : this.pos;
    this.carry = null;
    const items = this.run(buf, base, buf.length, true);
    if (this.mode === 'array' && !this.arrayClosed) this.warnings.push('the JSON array is not closed with ]');
    if (this.trailing) this.warnings.push('content after the closing ] of the array was ignored');
    return items;
  }

  run(buf, base, start, eof) {
    const items = [];
    if (this.mode === null) {
      const decided = this.decide(buf, base, eof);
      if (decided === 'blank') return items; // nothing kept: its lines are counted
      if (!decided) {
        this.keep(buf, base, 0);
        return items;
      }
      start = this.modeStart - base;
      this.lineStart = this.modeStart;
    }
    if (this.mode === 'lines') this.lines(buf, base, start, eof, items);
    else this.values(buf, base, start, eof, items);
    return items;
  }

  /** Keeps buf[from..] for the next push. */
  keep(buf, base, from) {
    if (from < buf.length) {
      this.carry = buf.slice(from);
      this.carryOffset = base + from;
    }
  }

  /**
   * Chooses the mode from the head of the file (up to 64 KiB or the end); false while more bytes
   * are needed. Sets modeStart (the offset scanning starts from).
   */
  decide(buf, base, eof) {
    let i = 0;
    if (!this.started) {
      if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
      else if (!eof && buf.length < 3 && buf.length > 0 && buf[0] === 0xef) return false;
    }
    const bomEnd = i;
    while (i < buf.length && isWs(buf[i])) i++;
    if (i === buf.length && !eof) {
      // Only blanks so far: not kept (held and scanned again with every slice, a file of blanks
      // was quadratic in time and held whole); their lines are counted, the scan goes on after.
      for (let k = bomEnd; k < buf.length; k++) if (buf[k] === LF) this.line++;
      this.started = true;
      return 'blank';
    }
    this.modeStart = base + bomEnd;
    if (i === buf.length || buf[i] === LBRACKET) {
      this.mode = 'array';
      if (i === buf.length) this.mode = 'values';
      return true;
    }
    // Does the first value end on its line? Scan it structurally.
    const first = i;
    let depth = 0;
    let inStr = false;
    let esc = false;
    let j = first;
    let endsOnLine = null;
    for (; j < buf.length; j++) {
      const b = buf[j];
      if (inStr) {
        if (esc) esc = false;
        else if (b === BACKSLASH) esc = true;
        else if (b === QUOTE) inStr = false;
        else if (b === LF) { endsOnLine = false; break; }
        continue;
      }
      if (b === LF) { endsOnLine = depth === 0 && j > first; break; }
      if (b === QUOTE) inStr = true;
      else if (b === LBRACE || b === LBRACKET) depth++;
      else if (b === RBRACE || b === RBRACKET) depth--;
    }
    if (endsOnLine === null) {
      if (!eof && buf.length < 65536) return false;
      this.mode = 'lines'; // the whole head is one line
      return true;
    }
    if (endsOnLine) { this.mode = 'lines'; return true; }
    // The first value spans lines: JSON lines only if the next line starts a value in column 0.
    const next = j + 1;
    if (next >= buf.length && !eof) {
      if (buf.length < 65536) return false;
    }
    this.mode = next < buf.length && (buf[next] === LBRACE || buf[next] === LBRACKET) ? 'lines' : 'values';
    return true;
  }

  lines(buf, base, start, eof, items) {
    let from = this.lineStart - base; // start of the current (open) line within buf
    let i = Math.max(start, from);
    for (;;) {
      const nl = buf.indexOf(LF, i);
      if (nl < 0) break;
      this.emitLine(buf, base, from, nl, items);
      from = nl + 1;
      i = from;
      this.lineStart = base + from;
      this.line++;
    }
    if (eof) {
      if (from < buf.length || this.lineTooLarge) this.emitLine(buf, base, from, buf.length, items);
      return;
    }
    // The open line: keep it unless it is already too large.
    if (this.lineTooLarge || buf.length - from > this.max) {
      this.lineTooLarge = true;
      return; // nothing kept; the line's start offset and number are remembered
    }
    this.keep(buf, base, from);
  }

  emitLine(buf, base, from, to, items) {
    if (this.lineTooLarge) {
      const offset = this.lineStart;
      const size = base + to - offset;
      this.lineTooLarge = false;
      items.push({ bytes: null, offset, size, line: this.line, tooLarge: true, incomplete: false });
      return;
    }
    let s = Math.max(from, 0), e = to;
    while (s < e && isWs(buf[s])) s++;
    while (e > s && isWs(buf[e - 1])) e--;
    if (s === e) return;
    if (e - s > this.max) {
      items.push({ bytes: null, offset: base + s, size: e - s, line: this.line, tooLarge: true, incomplete: false });
      return;
    }
    items.push({ bytes: buf.subarray(s, e), offset: base + s, size: e - s, line: this.line, tooLarge: false, incomplete: false });
  }

  values(buf, base, start, eof, items) {
    const top = this.mode === 'array' ? 1 : 0;
    let { depth, inStr, esc, scalar, itemStart, line } = this;
    const close = (end, incomplete) => {
      const size = base + end - itemStart;
      const tooLarge = this.itemTooLarge || size > this.max;
      const s = itemStart - base;
      items.push({
        bytes: tooLarge ? null : buf.subarray(s, end), offset: itemStart, size, line: this.itemLine, tooLarge, incomplete,
      });
      itemStart = -1;
      this.itemTooLarge = false;
      scalar = false;
    };
    let i = start;
    for (; i < buf.length; i++) {
      const b = buf[i];
      if (inStr) {
        if (esc) esc = false;
        else if (b === BACKSLASH) esc = true;
        else if (b === QUOTE) {
          inStr = false;
          if (itemStart >= 0 && depth === top && scalar) close(i + 1, false);
        } else if (b === LF) line++;
        continue;
      }
      if (itemStart < 0) {
        // Between items.
        if (b === LF) { line++; continue; }
        if (isWs(b)) continue;
        if (this.mode === 'array') {
          if (this.arrayClosed) { this.trailing = true; continue; }
          if (depth === 0) {
            if (b === LBRACKET) { depth = 1; continue; }
          } else if (b === COMMA) continue;
          else if (b === RBRACKET) { depth = 0; this.arrayClosed = true; continue; }
        }
        itemStart = base + i;
        this.itemLine = line;
        if (b === LBRACE || b === LBRACKET) { depth++; scalar = false; } else if (b === QUOTE) { inStr = true; scalar = true; } else if (b === RBRACE || b === RBRACKET) { close(i + 1, false); } else scalar = true;
        continue;
      }
      // Inside an item.
      if (scalar) {
        if (isWs(b) || b === COMMA || b === RBRACKET || b === RBRACE || b === LBRACE || b === LBRACKET || b === QUOTE) {
          close(i, false);
          i--; // look at this byte again between items
          continue;
        }
        continue;
      }
      if (b === LF) line++;
      else if (b === QUOTE) inStr = true;
      else if (b === LBRACE || b === LBRACKET) depth++;
      else if (b === RBRACE || b === RBRACKET) {
        depth--;
        if (depth === top) close(i + 1, false);
      }
    }
    if (eof) {
      if (itemStart >= 0) close(buf.length, !scalar || inStr);
    } else if (itemStart >= 0) {
      if (!this.itemTooLarge && base + buf.length - itemStart > this.max) this.itemTooLarge = true;
      if (!this.itemTooLarge) this.keep(buf, base, itemStart - base);
    }
    Object.assign(this, { depth, inStr, esc, scalar, itemStart, line });
  }
}

/** All items of a whole file held in memory (tests, small files): {items, warnings, mode}. */
export function splitAll(bytes, { chunkSize = 1 << 16, maxItemBytes = MAX_ITEM_BYTES } = {}) {
  const s = new Splitter({ maxItemBytes });
  const items = [];
  const copy = (list) => { for (const it of list) items.push({ ...it, bytes: it.bytes && it.bytes.slice() }); };
  for (let i = 0; i < bytes.length; i += chunkSize) copy(s.push(bytes.subarray(i, i + chunkSize)));
  copy(s.finish());
  return { items, warnings: s.warnings, mode: s.mode };
}

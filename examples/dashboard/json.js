// Byte-level JSON helpers of the dashboard: the top-level members of an item with their byte spans
// (so the receipt reaches the core as its exact bytes), the depth of a value, the byte offset of a
// value by path (to name the line of a bad setting), a line number from a byte offset, a pretty
// printer that keeps every token as written, and base64url decoding. Iterative throughout: no
// input can overflow the stack. No DOM, no Node APIs.

const QUOTE = 34, BACKSLASH = 92, COLON = 58, COMMA = 44, LF = 10;
const LBRACE = 123, RBRACE = 125, LBRACKET = 91, RBRACKET = 93;
const isWs = (b) => b === 32 || b === 10 || b === 13 || b === 9;
const decoder = new TextDecoder('utf-8', { fatal: false });

/** The end (exclusive) of the string whose opening quote is at `i`, or -1. */
function stringEnd(b, i) {
  let j = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, j);
    if (q < 0) return -1;
    // The quote is escaped when an odd number of backslashes precede it.
    let k = q - 1;
    while (k > i && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The key of the string token b[s..e) (quotes included): ASCII without escapes fast, else JSON.parse. */
function keyOf(b, s, e) {
  let ascii = e - s <= 256;
  for (let j = s + 1; ascii && j < e - 1; j++) {
    const c = b[j];
    if (c === BACKSLASH || c >= 0x80 || c < 0x20) { ascii = false; break; }
  }
  if (ascii) return String.fromCharCode.apply(null, b.subarray(s + 1, e - 1));
  return JSON.parse(decoder.decode(b.subarray(s, e)));
}

/**
 * The end (exclusive) of the value starting at `i` (after whitespace), with the deepest nesting
 * inside it, or {end: -1} when it is malformed or nests deeper than `maxDepth` (`deep` set).
 * Checks brackets and strings only; the core checks everything else.
 */
export function valueEnd(b, i, maxDepth = Infinity, baseDepth = 0) {
  let depth = 0;
  let deepest = 0;
  const stack = [];
  let j = i;
  for (; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) {
      const e = stringEnd(b, j);
      if (e < 0) return { end: -1, depth: deepest, deep: false };
      j = e - 1;
      if (depth === 0) return { end: e, depth: deepest, deep: false };
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
      stack.push(c);
      if (depth > deepest) {
        deepest = depth;
        if (baseDepth + depth > maxDepth) return { end: -1, depth: baseDepth + depth, deep: true };
      }
    } else if (c === RBRACE || c === RBRACKET) {
      if (depth === 0) return { end: j, depth: deepest, deep: false };
      const open = stack.pop();
      if ((c === RBRACE) !== (open === LBRACE)) return { end: -1, depth: deepest, deep: false };
      depth--;
      if (depth === 0) return { end: j + 1, depth: deepest, deep: false };
    } else if (depth === 0 && (c === COMMA || isWs(c))) {
      return { end: j, depth: deepest, deep: false };
    }
  }
  return { end: depth === 0 && j > i ? j : -1, depth: deepest, deep: false };
}

/**
 * The top-level members of a JSON object in `b`: {members: [[key, start, end]], depth}, or
 * {error: 'not-object' | 'malformed' | 'deep', depth}. `maxDepth` bounds the nesting (the object
 * itself is depth 1): ekl-json-1's limit is the package's MAX_DEPTH (the manifest's
 * limits.max_depth), never written here. Keys are decoded; values are byte spans.
 */
export function topMembers(b, maxDepth) {
  let i = 0;
  while (i < b.length && isWs(b[i])) i++;
  if (b[i] !== LBRACE) return { error: 'not-object', depth: 0 };
  i++;
  const members = [];
  let deepest = 1;
  for (;;) {
    while (i < b.length && isWs(b[i])) i++;
    if (b[i] === RBRACE && members.length === 0) { i++; break; }
    if (b[i] !== QUOTE) return { error: 'malformed', depth: deepest };
    const ke = stringEnd(b, i);
    if (ke < 0) return { error: 'malformed', depth: deepest };
    let key;
    try {
      key = keyOf(b, i, ke);
    } catch {
      return { error: 'malformed', depth: deepest };
    }
    i = ke;
    while (i < b.length && isWs(b[i])) i++;
    if (b[i] !== COLON) return { error: 'malformed', depth: deepest };
    i++;
    while (i < b.length && isWs(b[i])) i++;
    const v = valueEnd(b, i, maxDepth, 1);
    if (v.deep) return { error: 'deep', depth: v.depth };
    if (v.end < 0 || v.end === i) return { error: 'malformed', depth: deepest };
    deepest = Math.max(deepest, 1 + v.depth);
    members.push([key, i, v.end]);
    i = v.end;
    while (i < b.length && isWs(b[i])) i++;
    if (b[i] === COMMA) { i++; continue; }
    if (b[i] === RBRACE) { i++; break; }
    return { error: 'malformed', depth: deepest };
  }
  while (i < b.length && isWs(b[i])) i++;
  if (i !== b.length) return { error: 'malformed', depth: deepest };
  return { members, depth: deepest };
}

/** The deepest nesting of the JSON text in `b` (brackets outside strings), stopping past `limit`. */
export function depthOf(b, limit = Infinity) {
  let depth = 0;
  let deepest = 0;
  for (let j = 0; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) {
      const e = stringEnd(b, j);
      if (e < 0) break;
      j = e - 1;
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
      if (depth > deepest) { deepest = depth; if (deepest > limit) return deepest; }
    } else if (c === RBRACE || c === RBRACKET) depth--;
  }
  return deepest;
}

/**
 * The byte offset of the value at `path` (keys and array indexes) in the JSON text `b`, or the
 * offset of the nearest enclosing value found; 0 when nothing matches. For error messages only.
 */
export function locate(b, path) {
  let i = 0;
  let found = 0;
  while (i < b.length && isWs(b[i])) i++;
  for (const step of path) {
    found = i;
    if (b[i] === LBRACE && typeof step === 'string') {
      const m = topMembers(b.subarray(i, valueEnd(b, i).end), Infinity);
      const hit = m.members && m.members.find(([k]) => k === step);
      if (!hit) return found;
      i += hit[1];
    } else if (b[i] === LBRACKET && typeof step === 'number') {
      let j = i + 1;
      let n = 0;
      for (;;) {
        while (j < b.length && (isWs(b[j]) || b[j] === COMMA)) j++;
        if (j >= b.length || b[j] === RBRACKET) return found;
        if (n === step) break;
        const v = valueEnd(b, j);
        if (v.end <= j) return found;
        j = v.end;
        n++;
      }
      i = j;
    } else {
      return found;
    }
  }
  return i;
}

/** The 1-based line of byte `offset` in `b`. */
export function lineAt(b, offset) {
  let line = 1;
  const end = Math.min(offset, b.length);
  for (let i = b.indexOf(LF); i >= 0 && i < end; i = b.indexOf(LF, i + 1)) line++;
  return line;
}

/** The byte offset a core error message names (`… at byte N`), or null. */
export function byteOfMessage(message) {
  const m = /at byte (\d+)/.exec(message || '');
  return m ? Number(m[1]) : null;
}

/** The deepest level `pretty` indents (the library refuses nesting deeper than 64). */
export const PRETTY_MAX_DEPTH = 64;

/**
 * JSON text re-indented with `indent` spaces, every token kept exactly as written (numbers, escapes
 * and duplicate keys included: this shows what the file holds, not what a parser makes of it).
 * Text that is not JSON comes back re-indented as far as its brackets allow.
 */
export function pretty(text, indent = 2) {
  let out = '';
  let depth = 0;
  let i = 0;
  const n = text.length;
  // Bounded: indentation stops growing past PRETTY_MAX_DEPTH levels (a deep item would be
  // re-indented into hundreds of millions of characters), and a text the layout would make more
  // than four times longer is shown as it is.
  const pad = () => '\n' + ' '.repeat(Math.min(depth, PRETTY_MAX_DEPTH) * indent);
  const limit = 4 * n + 65536;
  let chunkStart = 0;
  const flush = (to) => { out += text.slice(chunkStart, to); };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === BACKSLASH) j += 2;
        else if (d === QUOTE) { j++; break; } else j++;
      }
      i = j;
      continue;
    }
    if (isWs(c)) {
      flush(i);
      while (i < n && isWs(text.charCodeAt(i))) i++;
      chunkStart = i;
      continue;
    }
    if (c === LBRACE || c === LBRACKET) {
      // Empty containers stay on one line.
      let k = i + 1;
      while (k < n && isWs(text.charCodeAt(k))) k++;
      const close = c === LBRACE ? RBRACE : RBRACKET;
      if (text.charCodeAt(k) === close) {
        flush(i);
        out += String.fromCharCode(c, close);
        i = k + 1;
        chunkStart = i;
        continue;
      }
      flush(i + 1);
      depth++;
      out += pad();
      if (out.length > limit) return text;
      i++;
      chunkStart = i;
      continue;
    }
    if (c === RBRACE || c === RBRACKET) {
      flush(i);
      depth = Math.max(0, depth - 1);
      out += pad() + text[i];
      i++;
      chunkStart = i;
      continue;
    }
    if (c === COMMA) {
      flush(i + 1);
      out += pad();
      i++;
      chunkStart = i;
      continue;
    }
    if (c === COLON) {
      flush(i + 1);
      out += ' ';
      i++;
      chunkStart = i;
      continue;
    }
    i++;
  }
  flush(n);
  return out;
}

const B64 = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.charCodeAt(i)] = i;

/** The engine's own decoder (`Uint8Array.fromBase64`, Chromium 140+), when it has one. */
const native = typeof Uint8Array.fromBase64 === 'function'
  ? (s) => {
    try {
      return Uint8Array.fromBase64(s, { alphabet: 'base64url', lastChunkHandling: 'loose' });
    } catch {
      return null;
    }
  }
  : null;

/** Bytes of base64url without padding (`text.slice(from, to)`), or null when it is not. */
export function base64url(text, from = 0, to = text.length) {
  if (typeof text !== 'string' || (to - from) % 4 === 1) return null;
  // The native decoder (about 10× faster) where the input has no padding or whitespace, which it
  // would accept and this function refuses.
  if (native !== null) {
    const s = from === 0 && to === text.length ? text : text.slice(from, to);
    if (!/[=\s]/.test(s)) return native(s);
  }
  const out = new Uint8Array(Math.floor(((to - from) * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64[c] : -1;
    if (v < 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** UTF-8 text of bytes (invalid sequences as U+FFFD: for display only). */
export function text(bytes) {
  return decoder.decode(bytes);
}

// What the page accepts as input, whatever way it comes in: the bounds of files, and pasted text
// turned into the same thing a chosen file is (a File), so that a paste is read, split, bounded,
// verified, shown, inspected and exported exactly as a loaded file: the same per-item bounds
// (scan.js: 1 MiB an item; the core: 64 levels), the same escaping of what is shown (rows.js),
// the same refusals with the same codes. The pasted text is kept only as that File, in this page's
// memory (never stored, never in the URL); Clear drops it. No DOM, no Node APIs.

/** The largest receipts file (or pasted text) the page reads, in bytes (512 MB). */
export const MAX_RECEIPTS_BYTES = 512_000_000;
/** The largest JWKS or settings file, in bytes (1 MB). */
export const MAX_SMALL_BYTES = 1_000_000;
/** The name a paste is shown under (in the Receipts card, the inspector, the export). */
export const PASTE_NAME = 'pasted text';

/** A refusal of an input with a stable code (the core's codes where one fits). */
export class InputError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * A size in decimal units, as file managers show it: "812 B", "30.8 KB", "1.2 MB".
 */
export function size(bytes) {
  if (bytes === undefined || bytes === null) return '';
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * Pasted text as a File named `name` (its UTF-8 bytes, as a file holding it would have), for the
 * same path as a chosen file. Refuses, with a code, text that is empty or only white space
 * (INVALID_ARGUMENT) and text of more than `maxBytes` UTF-8 bytes (BODY_TOO_LARGE, as a file over
 * the bound). The message never holds the text.
 */
export function pastedFile(text, { maxBytes = MAX_RECEIPTS_BYTES, name = PASTE_NAME } = {}) {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new InputError('INVALID_ARGUMENT', 'nothing to check: the pasted text is empty');
  }
  // A UTF-16 unit is at least one UTF-8 byte: text longer than the bound in units is over it in
  // bytes, and is refused before it is encoded (no copy of a huge paste is made).
  const over = (bytes) => new InputError('BODY_TOO_LARGE', `the pasted text is ${bytes === null ? `over ${size(maxBytes)}` : size(bytes)}; the page reads receipts up to ${size(maxBytes)}`);
  if (text.length > maxBytes) throw over(null);
  const file = new File([text], name, { type: 'text/plain' });
  if (file.size > maxBytes) throw over(file.size);
  return file;
}

/** Whether a paste event's target is a place that takes text itself (then the page leaves it be). */
export function editable(target) {
  if (!target || typeof target !== 'object') return false;
  const tag = String(target.tagName || '').toUpperCase();
  if (tag === 'TEXTAREA' || target.isContentEditable) return true;
  if (tag !== 'INPUT') return false;
  const type = String(target.type || 'text').toLowerCase();
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color', 'image'].includes(type);
}

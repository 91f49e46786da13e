// Reads IEEE-754 double bit patterns on stdin (hex, one a line, leading zeros optional) and writes
// V8's String(x) for each, one a line. Streams: memory stays flat however many lines come in.
'use strict';
const view = new DataView(new ArrayBuffer(8));
function text(line) {
  const h = line.trim().padStart(16, '0');
  view.setUint32(0, parseInt(h.slice(0, 8), 16));
  view.setUint32(4, parseInt(h.slice(8, 16), 16));
  return String(view.getFloat64(0));
}
let rest = '';
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  let out = '';
  for (const line of lines) if (line.length > 0) out += text(line) + '\n';
  if (!process.stdout.write(out)) {
    process.stdin.pause();
    process.stdout.once('drain', () => process.stdin.resume());
  }
});
process.stdin.on('end', () => {
  if (rest.trim().length > 0) process.stdout.write(text(rest) + '\n');
});

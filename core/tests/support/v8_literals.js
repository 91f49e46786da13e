// Reads JSON number literals on stdin, one a line (lines may be megabytes long), and writes for each
// what ECMAScript makes of it: JSON.stringify(Number(text)) for a finite value (the ekl-json-1
// output), otherwise String(Number(text)) ("Infinity", "-Infinity", "NaN"), one a line. Streams:
// a line is joined once from its chunks, so long lines cost linear time.
'use strict';
let parts = [];
function answer(line) {
  const x = Number(line);
  return (Number.isFinite(x) ? JSON.stringify(x) : String(x)) + '\n';
}
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk) => {
  let out = '';
  let start = 0;
  for (;;) {
    const nl = chunk.indexOf('\n', start);
    if (nl < 0) {
      if (start < chunk.length) parts.push(chunk.slice(start));
      break;
    }
    parts.push(chunk.slice(start, nl));
    const line = parts.length === 1 ? parts[0] : parts.join('');
    parts = [];
    if (line.length > 0) out += answer(line);
    start = nl + 1;
  }
  if (out.length > 0 && !process.stdout.write(out)) {
    process.stdin.pause();
    process.stdout.once('drain', () => process.stdin.resume());
  }
});
process.stdin.on('end', () => {
  const line = parts.join('');
  if (line.length > 0) process.stdout.write(answer(line));
});

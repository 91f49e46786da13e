// ES256 verification through OpenSSL (node:crypto), for scripts/bench-es256.sh.
// Reads one line of JSON on stdin, {jwk, message_b64url, signature_b64url, iterations, fresh?} (fresh:
// a list of {jwk, signature_b64url}, one token per key over the same message), and prints one JSON
// line {"impl":"openssl","us_per_verify":…,"iterations":…,"openssl":…} (the ready key: best of 3).
// Then, for the paired rows of keys seen for the first time, each further line `fresh` on stdin runs
// one round (a verification per key, the KeyObjects made outside the clock) and prints
// {"wall_us":…,"cpu_us":…} per verification: wall time and this thread's CPU time
// (/proc/thread-self/schedstat where Linux has it, so Node's other threads do not count;
// process.cpuUsage otherwise). `end` (or the end of stdin) exits.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
const first = await lines.next();
if (first.done) { console.error('no input'); process.exit(1); }
const input = JSON.parse(first.value);
const key = createPublicKey({ key: input.jwk, format: 'jwk' });
const data = Buffer.from(input.message_b64url, 'base64url');
const sig = Buffer.from(input.signature_b64url, 'base64url');
const opts = { key, dsaEncoding: 'ieee-p1363' };
if (!verify('sha256', data, opts, sig)) { console.error('signature does not verify'); process.exit(1); }
const n = input.iterations;
for (let i = 0; i < Math.min(n, 2000); i++) verify('sha256', data, opts, sig); // warm-up
let best = Infinity;
for (let round = 0; round < 3; round++) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (!verify('sha256', data, opts, sig)) process.exit(1);
  const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
  best = Math.min(best, us);
}
console.log(JSON.stringify({ impl: 'openssl', us_per_verify: best, iterations: n, openssl: process.versions.openssl }));

/** This thread's CPU time in µs. */
function cpuUs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1000;
  } catch {
    const c = process.cpuUsage();
    return c.user + c.system;
  }
}

const fresh = Array.isArray(input.fresh) ? input.fresh : [];
const sigs = fresh.map((f) => Buffer.from(f.signature_b64url, 'base64url'));
for (;;) {
  const next = await lines.next();
  if (next.done || next.value.trim() !== 'fresh' || fresh.length === 0) break;
  const keys = fresh.map((f) => createPublicKey({ key: f.jwk, format: 'jwk' }));
  const c0 = cpuUs();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < keys.length; i++) {
    if (!verify('sha256', data, { key: keys[i], dsaEncoding: 'ieee-p1363' }, sigs[i])) process.exit(1);
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / keys.length;
  const cpu = (cpuUs() - c0) / keys.length;
  console.log(JSON.stringify({ wall_us: wall, cpu_us: cpu }));
}
process.exit(0);

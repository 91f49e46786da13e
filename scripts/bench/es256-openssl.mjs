// ES256 verification through OpenSSL (node:crypto), for scripts/bench-es256.sh.
// Reads {jwk, message_b64url, signature_b64url, iterations, fresh?} as JSON on stdin (fresh: a list of
// {jwk, signature_b64url}, one token per key over the same message); prints one JSON line
// {"impl":"openssl","us_per_verify":…,"iterations":…,"openssl":…, "fresh_us":…, "fresh_cpu_us":…}:
// the fresh row is the best of 15 rounds of one verification per key, the KeyObjects made outside
// the clock each round, wall and CPU time (process.cpuUsage) per verification.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
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
const out = { impl: 'openssl', us_per_verify: best, iterations: n, openssl: process.versions.openssl };
if (Array.isArray(input.fresh) && input.fresh.length > 0) {
  const sigs = input.fresh.map((f) => Buffer.from(f.signature_b64url, 'base64url'));
  let fresh = { wall: Infinity, cpu: Infinity };
  for (let round = 0; round < 15; round++) {
    const keys = input.fresh.map((f) => createPublicKey({ key: f.jwk, format: 'jwk' }));
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < keys.length; i++) {
      if (!verify('sha256', data, { key: keys[i], dsaEncoding: 'ieee-p1363' }, sigs[i])) process.exit(1);
    }
    const wall = Number(process.hrtime.bigint() - t0) / 1000 / keys.length;
    const c = process.cpuUsage(c0);
    if (wall < fresh.wall) fresh = { wall, cpu: (c.user + c.system) / keys.length };
  }
  out.fresh_us = fresh.wall;
  out.fresh_cpu_us = fresh.cpu;
}
console.log(JSON.stringify(out));

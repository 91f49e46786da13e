// ES256 verification through OpenSSL (node:crypto), for scripts/bench-es256.sh.
// Reads {jwk, message_b64url, signature_b64url, iterations} as JSON on stdin; prints one JSON line
// {"impl":"openssl","us_per_verify":…,"iterations":…,"openssl":…}.
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
console.log(JSON.stringify({ impl: 'openssl', us_per_verify: best, iterations: n, openssl: process.versions.openssl }));

#!/usr/bin/env bash
# Seeds for `jws_verify`: every token of the JWS vector files, as text (mode byte 0), and their
# header/payload pairs for the signing mode (mode byte 1). Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
command -v node >/dev/null || exit 0
node - "$root/vectors" "$out" <<'JS'
const fs = require('fs'), path = require('path'), crypto = require('crypto');
const [dir, out] = process.argv.slice(2);
let n = 0;
const put = (buf) => { fs.writeFileSync(path.join(out, 'seed-' + crypto.createHash('sha256').update(buf).digest('hex').slice(0, 16)), buf); n++; };
for (const f of ['receipt-jws.json', 'screening-rules-jws.json', 'credentials-jws.json']) {
  const p = path.join(dir, f);
  if (!fs.existsSync(p)) continue;
  const doc = JSON.parse(fs.readFileSync(p, 'utf8'));
  for (const c of doc.cases) {
    for (const t of [c.receipt_jws, c.token, c.receipt && c.receipt.receipt_jws]) {
      if (typeof t !== 'string') continue;
      for (const sel of [0, 28]) put(Buffer.concat([Buffer.from([sel]), Buffer.from(t)]));
      const [h, p2] = t.split('.');
      try {
        for (const sel of [1, 29, 25]) put(Buffer.concat([Buffer.from([sel]), Buffer.from(h, "base64url"), Buffer.from([0]), Buffer.from(p2, "base64url")]));
      } catch {}
    }
  }
}
console.log(`jws_verify seeds: ${n}`);
JS

#!/usr/bin/env bash
# Seeds for `jwks_parse`: the key sets of the JWS vector files, each key alone, a private JWK and a
# few base64url strings. Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
command -v node >/dev/null || exit 0
node - "$root/vectors" "$out" <<'JS'
const fs = require('fs'), path = require('path');
const [dir, out] = process.argv.slice(2);
let n = 0;
const put = (name, text) => { fs.writeFileSync(path.join(out, name), text); n++; };
const doc = JSON.parse(fs.readFileSync(path.join(dir, 'receipt-jws.json'), 'utf8'));
put('jwks', JSON.stringify(doc.jwks));
doc.jwks.keys.forEach((k, i) => {
  put(`key-${i}`, JSON.stringify(k));
  put(`set-${i}`, JSON.stringify({ keys: [k] }));
  put(`private-${i}`, JSON.stringify({ ...k, d: 'AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE' }));
});
for (const s of ['', 'Zg', 'Zm8', 'Zm9v', '_-8', 'Zh==', 'AAAA']) put(`b64-${n}`, s);
console.log(`jwks_parse seeds: ${n}`);
JS

#!/usr/bin/env bash
# Seeds for `fingerprints`: every JSON value found in the vector files (tool results, tool lists,
# terms, inputs), one per file. Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
command -v node >/dev/null || exit 0
node - "$root/vectors" "$out" <<'JS'
const fs = require('fs'), path = require('path'), crypto = require('crypto');
const [dir, out] = process.argv.slice(2);
let n = 0;
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json'))) {
  let doc; try { doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')); } catch { continue; }
  const stack = [doc];
  while (stack.length && n < 2000) {
    const v = stack.pop();
    if (v && typeof v === 'object') {
      const text = JSON.stringify(v);
      if (text.length < 4096) {
        fs.writeFileSync(path.join(out, 'v-' + crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)), text); n++;
      }
      for (const x of Object.values(v)) stack.push(x);
    }
  }
}
console.log(`fingerprints seeds: ${n}`);
JS

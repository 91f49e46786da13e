#!/usr/bin/env bash
# Seeds for the `canonicalize` target: every JSON file under vectors/ as it is, and every string
# member named "input" inside the vector files (the valid and invalid cases). Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
find "$root/vectors" -type f -name '*.json' 2>/dev/null | while read -r f; do
  cp "$f" "$out/file-$(sha256sum "$f" | cut -c1-16)"
done
if command -v node >/dev/null; then
  node - "$root/vectors" "$out" <<'JS'
const fs = require('fs'), path = require('path'), crypto = require('crypto');
const [dir, out] = process.argv.slice(2);
const walk = (d) => fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.json') ? [path.join(d, e.name)] : []) : [];
let n = 0;
for (const f of walk(dir)) {
  let doc; try { doc = JSON.parse(fs.readFileSync(f, 'utf8')); } catch { continue; }
  const stack = [doc];
  while (stack.length) {
    const v = stack.pop();
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'input' && typeof x === 'string') {
          const h = crypto.createHash('sha256').update(x).digest('hex').slice(0, 16);
          fs.writeFileSync(path.join(out, 'input-' + h), x); n++;
        } else stack.push(x);
      }
    }
  }
}
console.error(`seeded ${n} vector inputs`);
JS
fi

#!/usr/bin/env bash
# Packs the npm packages of ekl-evidence into OUT, from what is built:
#   ekl-evidence-VERSION.tgz             the main package: the JS API, the loader, the types, and the
#                                        WebAssembly builds in wasm/ (node/wasm/, written by
#                                        wasm/scripts/build.sh): the browser entry (the verify
#                                        build) and Node's fallback (the full module); no .node
#                                        file, no file twice;
#   ekl-evidence-PLATFORM-VERSION.tgz    one per ADDON given (a file named ekl-evidence.PLATFORM.node),
#                                        in napi-rs's layout (node/npm/PLATFORM/package.json: os, cpu,
#                                        libc), the main package's optional dependencies; with the
#                                        `ekl` binary too when a file ekl.PLATFORM[.exe] lies next to
#                                        the addon (the main package's `bin` runs it).
# Each package is staged in OUT/stage/ (the source tree is not touched): the license files are copied
# in, the main package.json gets its optionalDependencies (every published platform at this
# version, as napi-rs's pre-publish step writes them) and loses its dev-only fields.
#   usage: scripts/npm-pack.sh OUT [ADDON.node ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/npm-pack.sh OUT [ADDON.node ...]}
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage="$out/stage"
rm -rf "$stage" && mkdir -p "$stage"
[ -f "$root/node/wasm/binding.cjs" ] || { echo "npm-pack: node/wasm/ is missing: run bash wasm/scripts/build.sh" >&2; exit 1; }

# The main package: the files package.json lists, copied as npm would pack them.
main="$stage/ekl-evidence"
mkdir -p "$main/js"
(cd "$root/node" && cp index.js index.mjs index.d.ts index.d.mts native.js native.d.ts replay.js replay.mjs replay.d.ts replay.d.mts README.md "$main/" && cp js/*.js "$main/js/" && cp -r wasm "$main/wasm")
mkdir -p "$main/bin" && cp "$root/node/bin/ekl.js" "$main/bin/" && chmod 755 "$main/bin/ekl.js"
mkdir -p "$main/mcp" && cp "$root"/node/mcp/*.mjs "$root"/node/mcp/*.d.mts "$main/mcp/"
cp "$root/LICENSE-APACHE" "$root/LICENSE-MIT" "$main/"
node - "$root/node/package.json" "$main/package.json" <<'JS'
const fs = require('node:fs')
const [src, dst] = process.argv.slice(2)
const pkg = JSON.parse(fs.readFileSync(src, 'utf8'))
const triples = {
  'x86_64-unknown-linux-gnu': 'linux-x64-gnu', 'aarch64-unknown-linux-gnu': 'linux-arm64-gnu',
  'x86_64-unknown-linux-musl': 'linux-x64-musl', 'aarch64-unknown-linux-musl': 'linux-arm64-musl',
  'x86_64-apple-darwin': 'darwin-x64', 'aarch64-apple-darwin': 'darwin-arm64', 'x86_64-pc-windows-msvc': 'win32-x64-msvc',
}
pkg.optionalDependencies = Object.fromEntries(pkg.napi.targets.map((t) => {
  if (!triples[t]) throw new Error(`npm-pack: unknown napi target ${t}`)
  return [`${pkg.napi.packageName}-${triples[t]}`, pkg.version]
}))
delete pkg.devDependencies
delete pkg.scripts
fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + '\n')
JS

# No file twice (docs/decisions/packaging.md#browser-entry): two files of the main package with the
# same bytes fail the pack, naming them.
node - "$main" <<'JS'
const fs = require('node:fs'), path = require('node:path'), crypto = require('node:crypto')
const root = process.argv[2], seen = new Map(), twice = []
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) { walk(p); continue }
    const h = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')
    const rel = path.relative(root, p)
    if (seen.has(h)) twice.push(`${seen.get(h)} = ${rel}`)
    else seen.set(h, rel)
  }
}
walk(root)
if (twice.length) { console.error(`npm-pack: the main package carries files twice: ${twice.join(', ')}`); process.exit(1) }
JS

# One platform package per addon given.
for addon in "$@"; do
  base=$(basename "$addon")
  plat=${base#ekl-evidence.}; plat=${plat%.node}
  [ -f "$root/node/npm/$plat/package.json" ] || { echo "npm-pack: no node/npm/$plat/package.json for $base" >&2; exit 1; }
  dir="$stage/ekl-evidence-$plat"
  mkdir -p "$dir"
  cp "$root/node/npm/$plat/package.json" "$root/node/npm/$plat/README.md" "$dir/"
  cp "$addon" "$dir/$base"
  cp "$root/LICENSE-APACHE" "$root/LICENSE-MIT" "$dir/"
  # The `ekl` binary of this platform, when built (a file ekl.PLATFORM[.exe] next to the addon):
  # the main package's bin/ekl.js runs it (docs/decisions/packaging.md#ekl-where-users-install).
  for cli in "$(dirname "$addon")/ekl.$plat" "$(dirname "$addon")/ekl.$plat.exe"; do
    [ -f "$cli" ] || continue
    exe=ekl; [[ "$cli" == *.exe ]] && exe=ekl.exe
    cp "$cli" "$dir/$exe" && chmod 755 "$dir/$exe"
    node -e 'const fs = require("node:fs"); const f = process.argv[1]; const p = JSON.parse(fs.readFileSync(f, "utf8")); p.files.push(process.argv[2]); p.description = p.description.replace("The native addon of ekl-evidence", "The native addon and the ekl binary of ekl-evidence"); fs.writeFileSync(f, JSON.stringify(p, null, 2) + "\n")' "$dir/package.json" "$exe"
  done
done

for dir in "$stage"/*/; do
  (cd "$dir" && npm pack --pack-destination "$out" --loglevel=error >/dev/null)
done
ls "$out"/*.tgz

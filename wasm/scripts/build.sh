#!/usr/bin/env bash
# Builds the npm package in wasm/dist: the core compiled to wasm32 with the wasm-release profile,
# wasm-bindgen (pinned CLI) for --target web and --target nodejs, wasm-opt -O3 (npm binaryen; -O3 not -Oz: speed of ES256, see docs/decisions.md#wasm), the
# JS shared with the Node package (node/js/errors.js, node/js/convert.js) and the API layer as CommonJS and ES modules, the TypeScript declarations.
# The web glue is rewritten as a factory (scripts/glue-factory.mjs) so that a trapped instance can be replaced.
# Idempotent; installs missing tools first (tools.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bash wasm/scripts/tools.sh --no-browser
# 32-bit limbs for the P-256 field and scalar (crypto-bigint and p256 through the `cpubits` cfg):
# by default wasm32 gets the 64-bit backend, whose 64x64->128 products are calls to __multi3 in
# wasm (no widening multiply instruction); the 32-bit backend multiplies with one i64.mul each.
export RUSTFLAGS="${RUSTFLAGS:-} --cfg cpubits=\"32\""
# Two builds of one crate: the full module (every operation: Node's fallback, wasm/dist) and the
# verify build (`--no-default-features`: what verifying receipts and credentials needs, the browser
# entry: wasm/dist-verify; docs/decisions/wasm.md#verify-build), each in its own target folder (one
# artefact name, two feature sets).
target=${CARGO_TARGET_DIR:-$root/target}
cargo build -q --profile wasm-release --target wasm32-unknown-unknown -p ekl-wasm
# The verify build optimises for size ("z") everything but ES256 verification (the `ekl-es256`
# crate, at the profile's opt-level 3: at "s" it was 7.5 times slower); the full module keeps the
# profile's levels (docs/decisions/wasm.md#verify-build).
verify_size=(--config 'profile.wasm-release.package.ekl-core.opt-level="s"'
  --config 'profile.wasm-release.package.ekl-bridge.opt-level="z"'
  --config 'profile.wasm-release.package.ekl-wasm.opt-level="z"')
CARGO_TARGET_DIR=$target/wasm-verify cargo build -q --profile wasm-release "${verify_size[@]}" \
  --target wasm32-unknown-unknown -p ekl-wasm --no-default-features --features verify

# package RAW OUT: the module RAW through wasm-bindgen (web and nodejs glue) and wasm-opt, with the
# JS API layer, its ES module entries and declarations, into OUT.
package() {
  local raw=$1 out=$2 t dir
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  for t in web nodejs; do
    dir=$out.tmp/${t/nodejs/node}
    target/tools/bin/wasm-bindgen --target "$t" --out-dir "$dir" --no-typescript "$raw"
    wasm/node_modules/.bin/wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$dir/ekl_wasm_bg.wasm" -o "$dir/ekl_wasm_bg.wasm"
  done
  # One module for both glues: wasm-bindgen writes the same module for both targets, so the nodejs
  # glue reads the web one and the package holds it once (docs/decisions/packaging.md, budgets).
  cmp -s "$out.tmp/web/ekl_wasm_bg.wasm" "$out.tmp/node/ekl_wasm_bg.wasm" || { echo "the web and nodejs modules differ: they cannot share one file" >&2; exit 1; }
  rm "$out.tmp/node/ekl_wasm_bg.wasm"
  node -e '
    const fs = require("fs"), f = process.argv[1]
    const from = "const wasmPath = `${__dirname}/ekl_wasm_bg.wasm`;"
    const s = fs.readFileSync(f, "utf8")
    if (s.split(from).length !== 2) { console.error("the nodejs glue does not read its module as expected: " + f); process.exit(1) }
    fs.writeFileSync(f, s.replace(from, "const wasmPath = `${__dirname}/../web/ekl_wasm_bg.wasm`;"))
  ' "$out.tmp/node/ekl_wasm.js"
  node wasm/scripts/glue-factory.mjs "$out.tmp/web"
  node wasm/scripts/esm.mjs "$out.tmp" node/js/errors.js node/js/convert.js node/js/remote.js node/js/api.js wasm/js/binding.js
  cp wasm/js/index.cjs wasm/js/binding.cjs "$out.tmp/"
  node wasm/scripts/entries.mjs "$out.tmp" node/index.d.ts
  rm -rf "$out" && mv "$out.tmp" "$out"
  ls -l "$out"/web/ekl_wasm_bg.wasm | awk -v o="$out" '{print o ": " $5 " bytes raw"}'
}
full_raw=$target/wasm32-unknown-unknown/wasm-release/ekl_wasm.wasm
verify_raw=$target/wasm-verify/wasm32-unknown-unknown/wasm-release/ekl_wasm.wasm
# The rest depends only on the modules cargo wrote, the JS and declarations copied in and these
# scripts: when none changed since the last build (./run test builds this in the node, wasm and
# dashboard steps), wasm/dist and wasm/dist-verify are current and only the copy into node/wasm/
# below is left.
key_file=$target/wasm-dist.key
key=$(cat "$full_raw" "$verify_raw" wasm/scripts/*.sh wasm/scripts/*.mjs wasm/js/* node/js/*.js \
  node/index.d.ts node/scripts/dts.js wasm/node_modules/binaryen/package.json | sha256sum | cut -d' ' -f1)
if [ -f wasm/dist/web/ekl_wasm_bg.wasm ] && [ -f wasm/dist-verify/web/ekl_wasm_bg.wasm ] \
  && [ "$(cat "$key_file" 2>/dev/null)" = "$key" ]; then
  echo "wasm: wasm/dist and wasm/dist-verify are current (the same modules, JS and scripts as their build)"
else
  rm -f "$key_file"
  package "$full_raw" wasm/dist
  package "$verify_raw" wasm/dist-verify
  echo "$key" > "$key_file"
fi
# The npm package ekl-evidence ships both inside itself (node/wasm/), each file once
# (docs/decisions/packaging.md#browser-entry):
#   the browser entry, the verify build: index.web.mjs, web/ (its glue and module), esm/ (the API
#     layer as ES modules), index.d.ts / index.d.mts (its declarations: its operations only);
#   Node's fallback when no native addon fits (node/index.js), the full module: binding.cjs,
#     cjs/binding.cjs and node/ (the nodejs glue, reading the full module next to it); the API layer
#     is the package's own js/ (no copy).
pkg=node/wasm.tmp
rm -rf "$pkg" && mkdir -p "$pkg/cjs" "$pkg/node"
cp -r wasm/dist-verify/web wasm/dist-verify/esm wasm/dist-verify/index.web.mjs wasm/dist-verify/index.d.ts \
  wasm/dist-verify/index.d.mts "$pkg/"
cp wasm/dist/binding.cjs "$pkg/"
cp wasm/dist/cjs/binding.cjs "$pkg/cjs/"
cp wasm/dist/web/ekl_wasm_bg.wasm "$pkg/node/"
node -e '
  const fs = require("fs"), [from, to] = process.argv.slice(1)
  const was = "const wasmPath = `${__dirname}/../web/ekl_wasm_bg.wasm`;"
  const s = fs.readFileSync(from, "utf8")
  if (s.split(was).length !== 2) { console.error("the nodejs glue does not read its module as expected: " + from); process.exit(1) }
  fs.writeFileSync(to, s.replace(was, "const wasmPath = `${__dirname}/ekl_wasm_bg.wasm`;"))
' wasm/dist/node/ekl_wasm.js "$pkg/node/ekl_wasm.js"
# (cjs/binding.cjs, the wasm binding adapter, requires nothing: the API layer is js/api.js.)
if grep -q "require(" "$pkg/cjs/binding.cjs"; then echo "cjs/binding.cjs requires a module the package does not ship there" >&2; exit 1; fi
rm -rf node/wasm && mv "$pkg" node/wasm

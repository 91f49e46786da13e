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
cargo build -q --profile wasm-release --target wasm32-unknown-unknown -p ekl-wasm
# Where cargo put it: $CARGO_TARGET_DIR when set (the tools stay linked under target/tools).
raw=${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/wasm-release/ekl_wasm.wasm
out=wasm/dist
# The rest depends only on the module cargo wrote, the JS and declarations copied in and these
# scripts: when none changed since the last build (./run test builds this in the node, wasm and
# dashboard steps), wasm/dist is current and only the copy into node/wasm/ below is left.
key_file=${CARGO_TARGET_DIR:-$root/target}/wasm-dist.key
key=$(cat "$raw" wasm/scripts/*.sh wasm/scripts/*.mjs wasm/js/* node/js/*.js node/index.d.ts \
  wasm/node_modules/binaryen/package.json | sha256sum | cut -d' ' -f1)
if [ -f "$out/web/ekl_wasm_bg.wasm" ] && [ "$(cat "$key_file" 2>/dev/null)" = "$key" ]; then
  echo "wasm: $out is current (the same module, JS and scripts as its build)"
else
rm -f "$key_file"
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
echo "$key" > "$key_file"
fi
ls -l "$out"/web/ekl_wasm_bg.wasm | awk '{print "wasm: " $5 " bytes raw"}'
# The npm package ekl-evidence ships this build inside itself (node/wasm/): the browser entry and
# Node's automatic fallback when no native addon fits (node/index.js).
rm -rf node/wasm.tmp && cp -r "$out" node/wasm.tmp && rm -rf node/wasm && mv node/wasm.tmp node/wasm

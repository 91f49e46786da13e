#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# ./run dist --host: this machine's own install artifacts, quickly, from a fresh clone (issue 38
# point 2: "until the first release"), into dist/:
#   the Python wheel of this platform (maturin, no zig, no cross-compilation, no sdist),
#   the Node addon of this platform packed as its platform package (ekl-evidence-<platform>),
#   the main npm tarball (the JS API, the types and the WebAssembly build it bundles),
# each installed into a fresh environment with no index and checked (the vector files through the
# wheel; backend native through the two tarballs), then one table and the time taken. The README's
# Install section shows the two install lines. `./run dist` (no flag) builds every platform.
# Needs: cargo (Rust >= 1.88), python3 (>= 3.9, with venv), node (>= 20) and npm; the first run
# fetches maturin (PyPI), wasm-bindgen-cli (the Rust registry) and binaryen (npm).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
out=$root/dist
work=$CARGO_TARGET_DIR/dist-host
rm -rf "$out" "$work" && mkdir -p "$out" "$work"
say() { echo "dist --host: $*" >&2; }
lap() { say "$1 in $(( $(date +%s) - $2 )) s"; }

# The platform, as the npm platform packages name it (node/npm/<platform>/).
plat=$(node -e '
  const p = process.platform
  const libc = p === "linux" ? (process.report.getReport().header.glibcVersionRuntime ? "-gnu" : "-musl") : ""
  console.log(`${p}-${process.arch}${libc}${p === "win32" ? "-msvc" : ""}`)')
[ -d "node/npm/$plat" ] || { say "no npm platform package for $plat (node/npm/): the main tarball's wasm build serves it"; plat=""; }
version=$(node -p 'require("./node/package.json").version')

# The Rust builds first, in the background while the tools install: the addon, then the wasm build.
t0=$(date +%s)
( cargo build --release -q -p ekl-node && bash wasm/scripts/build.sh >/dev/null ) > "$work/rust.log" 2>&1 &
rust=$!

# maturin, pinned as everywhere (scripts/python-tools.sh's pin), in a venv of its own: one package.
MATURIN=$(sed -n 's/^MATURIN=\([0-9.]*\) .*/\1/p' scripts/python-tools.sh)
python3 -m venv "$work/venv-tools"
"$work/venv-tools/bin/python" -m pip install -q --disable-pip-version-check "maturin==$MATURIN"
t1=$(date +%s)
"$work/venv-tools/bin/maturin" build --release --strip -m python/Cargo.toml -o "$work/wheels" -q
wheel=$(ls "$work"/wheels/ekl_evidence-*.whl)
cp "$wheel" "$out/" && wheel=$out/$(basename "$wheel")
lap "wheel $(basename "$wheel")" "$t1"

wait "$rust" || { cat "$work/rust.log" >&2; say "the addon or the wasm build failed"; exit 1; }
lap "addon and wasm build" "$t0"
addons=()
if [ -n "$plat" ]; then
  case "$(uname -s)" in Darwin) lib=libekl_node.dylib ;; MINGW*|MSYS*|CYGWIN*) lib=ekl_node.dll ;; *) lib=libekl_node.so ;; esac
  cp "$CARGO_TARGET_DIR/release/$lib" "$work/ekl-evidence.$plat.node"
  addons=("$work/ekl-evidence.$plat.node")
fi
bash scripts/npm-pack.sh "$work/npm" "${addons[@]}" >/dev/null
cp "$work"/npm/*.tgz "$out/"
main=$out/ekl-evidence-$version.tgz

# Installed as the README shows, into fresh environments, with no index.
v=$work/venv-check
python3 -m venv "$v"
"$v/bin/python" -m pip install -q --disable-pip-version-check --no-index --find-links "$out" ekl-evidence
py=$(cd "$work" && "$v/bin/python" "$root/scripts/dist/run_vectors.py")
fresh=$work/npm-fresh && mkdir -p "$fresh" && echo '{"name":"fresh","private":true}' > "$fresh/package.json"
tgzs=("$main")
[ -n "$plat" ] && tgzs+=("$out/ekl-evidence-$plat-$version.tgz")
(cd "$fresh" && npm install --offline --no-audit --no-fund --loglevel=error "${tgzs[@]}" >/dev/null)
want=$([ -n "$plat" ] && echo native || echo wasm)
js=$(cd "$fresh" && node -e '
  const e = require("ekl-evidence")
  if (e.backend !== process.argv[1]) throw new Error(`backend ${e.backend}`)
  const c = e.inputCommitment({ q: 1 })
  if (c.digest.length !== 64) throw new Error("commitment")
  console.log(`backend ${e.backend}, core ${e.coreVersion()}`)' "$want")

echo
echo "dist/ (this machine: $plat$([ -z "$plat" ] && echo "$(uname -sm)"))"
echo "| artifact | size | how verified |"
echo "|---|---|---|"
echo "| $(basename "$wheel") | $(( $(stat -c %s "$wheel") / 1024 )) KB | pip install --no-index --find-links dist ekl-evidence into a fresh venv: ${py%% (*} |"
for f in "${tgzs[@]}"; do
  echo "| $(basename "$f") | $(( $(stat -c %s "$f") / 1024 )) KB | npm install --offline of $(printf '%s ' "${tgzs[@]##*/}")into a fresh folder: $js |"
done
echo
echo "install: pip install --no-index --find-links dist ekl-evidence"
echo "         npm install $(printf './dist/%s ' "${tgzs[@]##*/}")"
say "done in $(( $(date +%s) - start )) s"

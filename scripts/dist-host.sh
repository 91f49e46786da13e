#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# ./run dist --host: this machine's own install artifacts, quickly, from a fresh clone (issue 38
# point 2: "until the first release"), into dist/:
#   the Python wheel of this platform (maturin, no zig, no cross-compilation, no sdist),
#   the Node addon of this platform packed as its platform package (ekl-evidence-<platform>),
#   the main npm tarball (the JS API, the types and the WebAssembly build it bundles),
#   the `ekl` binary (profile dist-cli), also inside the wheel (the console script `ekl` runs it)
#   and the platform package (the main package's `bin` runs it), so both installs put `ekl` on
#   the PATH (docs/decisions/packaging.md#ekl-where-users-install),
# each installed into a fresh environment with no index and checked (the vector files through the
# wheel; backend native through the two tarballs; `ekl --version` through both), then one table
# and the time taken. The README's
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
# The backend is maturin's behind one check (python/build_backend/ekl_build.py): maturin's warning
# that build-backend is not "maturin" is about pip's route, which goes through that wrapper.
export MATURIN_NO_MISSING_BUILD_BACKEND_WARNING=1
exe=ekl; case "$(uname -s)" in MINGW*|MSYS*|CYGWIN*) exe=ekl.exe ;; esac
staged=$root/python/ekl_evidence/bin
trap 'rm -rf "$staged"' EXIT
lap() { say "$1 in $(( $(date +%s) - $2 )) s"; }

# The platform, as the npm platform packages name it (node/npm/<platform>/).
plat=$(node -e '
  const p = process.platform
  const libc = p === "linux" ? (process.report.getReport().header.glibcVersionRuntime ? "-gnu" : "-musl") : ""
  console.log(`${p}-${process.arch}${libc}${p === "win32" ? "-msvc" : ""}`)')
[ -d "node/npm/$plat" ] || { say "no npm platform package for $plat (node/npm/): the main tarball's wasm build serves it"; plat=""; }
version=$(node -p 'require("./node/package.json").version')

# The Rust builds first, in the background while the tools install: the `ekl` binary (the wheel
# waits for it), the addon, then the wasm build.
t0=$(date +%s)
( cargo build --profile dist-cli -q -p ekl-cli && touch "$work/cli.done" \
  && cargo build --release -q -p ekl-node && bash wasm/scripts/build.sh >/dev/null ) > "$work/rust.log" 2>&1 &
rust=$!

# maturin, pinned as everywhere (scripts/python-tools.sh's pin), in a venv of its own: one package.
MATURIN=$(sed -n 's/^MATURIN=\([0-9.]*\) .*/\1/p' scripts/python-tools.sh)
python3 -m venv "$work/venv-tools"
"$work/venv-tools/bin/python" -m pip install -q --disable-pip-version-check "maturin==$MATURIN"
while [ ! -f "$work/cli.done" ]; do
  kill -0 "$rust" 2>/dev/null || { wait "$rust" || true; [ -f "$work/cli.done" ] && break; cat "$work/rust.log" >&2; say "the ekl build failed"; exit 1; }
  sleep 1
done
cli=$CARGO_TARGET_DIR/dist-cli/$exe
cp "$cli" "$out/$exe"
lap "ekl binary ($(( $(stat -c %s "$cli") / 1024 )) KB)" "$t0"
rm -rf "$staged" && mkdir -p "$staged" && cp "$cli" "$staged/$exe"
t1=$(date +%s)
"$work/venv-tools/bin/maturin" build --release --strip -m python/Cargo.toml -o "$work/wheels" -q
rm -rf "$staged"
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
  cp "$cli" "$work/ekl.$plat$([ "$exe" = ekl.exe ] && echo .exe)"   # into the platform package (scripts/npm-pack.sh)
fi
bash scripts/npm-pack.sh "$work/npm" "${addons[@]}" >/dev/null
cp "$work"/npm/*.tgz "$out/"
main=$out/ekl-evidence-$version.tgz

# Installed as the README shows, into fresh environments, with no index.
v=$work/venv-check
python3 -m venv "$v"
"$v/bin/python" -m pip install -q --disable-pip-version-check --no-index --find-links "$out" ekl-evidence
py=$(cd "$work" && "$v/bin/python" "$root/scripts/dist/run_vectors.py")
# `ekl` on the venv's PATH: the console script runs the binary the wheel carries.
want_cli="ekl $version"
got=$(PATH="$v/bin:/usr/bin:/bin" ekl --version) && [ "$got" = "$want_cli" ] || { say "ekl of the wheel: '$got', not '$want_cli'"; exit 1; }
got=$(PATH="$v/bin:/usr/bin:/bin" ekl jwks new-seed) && [ ${#got} = 64 ] || { say "ekl jwks new-seed of the wheel: '$got'"; exit 1; }
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
if [ -n "$plat" ]; then
  # `ekl` of the npm install: the main package's bin runs the platform package's binary.
  got=$(cd "$fresh" && ./node_modules/.bin/ekl --version) && [ "$got" = "$want_cli" ] || { say "ekl of the npm install: '$got', not '$want_cli'"; exit 1; }
  set +e; (cd "$fresh" && ./node_modules/.bin/ekl canon --max-bytes 1 <<< '[1]' >/dev/null 2>&1); st=$?; set -e
  [ "$st" = 2 ] || { say "ekl of the npm install: exit $st for a refusal, not 2"; exit 1; }
  js="$js; ekl --version: $got, exit statuses passed through"
fi

# Size budgets of the artifacts that carry the `ekl` binary (docs/decisions/packaging.md#size-budgets).
for f in "$wheel" "${tgzs[@]:1}"; do
  [ "$(stat -c %s "$f")" -le $((3 * 1024 * 1024)) ] || { say "$(basename "$f") is over its 3 MB budget"; exit 1; }
done
[ "$(stat -c %s "$main")" -le $((512 * 1024)) ] || { say "$(basename "$main") is over its 512 KB budget"; exit 1; }

echo
echo "dist/ (this machine: $plat$([ -z "$plat" ] && echo "$(uname -sm)"))"
echo "| artifact | size | how verified |"
echo "|---|---|---|"
echo "| $(basename "$wheel") | $(( $(stat -c %s "$wheel") / 1024 )) KB | pip install --no-index --find-links dist ekl-evidence into a fresh venv: ${py%% (*}; \`ekl --version\` on the venv's PATH: $want_cli |"
echo "| $exe | $(( $(stat -c %s "$out/$exe") / 1024 )) KB ($(( $(gzip -9c "$out/$exe" | wc -c) / 1024 )) KB gzip) | the Rust CLI (profile dist-cli), inside the wheel and the platform package too |"
for f in "${tgzs[@]}"; do
  echo "| $(basename "$f") | $(( $(stat -c %s "$f") / 1024 )) KB | npm install --offline of $(printf '%s ' "${tgzs[@]##*/}")into a fresh folder: $js |"
done
echo
echo "install: pip install --no-index --find-links dist ekl-evidence     # ekl on the venv's PATH too"
echo "         npm install $(printf './dist/%s ' "${tgzs[@]##*/}")  # npx ekl"
echo "         install -m 755 dist/$exe ~/.local/bin/$exe    # the ekl tool alone"
echo "  (\"ekl-evidence[mcp]\" also needs the MCP SDK's wheels: add them to dist/ with pip download -d dist \"mcp>=2.3,<3\", or drop --no-index)"
say "done in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Installs, idempotently, the tools the wasm package and the dashboard need:
#   the wasm32 target, wasm-bindgen-cli at exactly the crate's version (once per machine, linked
#   into target/tools),
#   the npm dev tools of wasm/ (binaryen for wasm-opt, playwright-core, typescript),
#   and Debian's chromium when /usr/bin/chromium is missing.
# Usage: wasm/scripts/tools.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
want=$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p' wasm/Cargo.toml)
[ -n "$want" ] || { echo "tools: cannot read the wasm-bindgen pin from wasm/Cargo.toml" >&2; exit 1; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "tools: rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli, pinned: installed once per machine and user, in a folder every clone finds
# ($EKL_TOOLS_DIR, default ~/.cache/ekl-evidence/tools, one folder per version), and linked as
# target/tools/bin/wasm-bindgen for the build. A wasm-bindgen of the pinned version already on
# PATH is used as it is. cargo's output goes to a log, named when the install fails.
version_of() { "$1" --version 2>/dev/null | awk '{print $2}'; }
bindgen=$root/target/tools/bin/wasm-bindgen
if [ "$(version_of "$bindgen")" != "$want" ]; then
  shared=${EKL_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ekl-evidence/tools}/wasm-bindgen-$want
  found=""
  if [ "$(version_of "$shared/bin/wasm-bindgen")" = "$want" ]; then
    found=$shared/bin/wasm-bindgen
  elif command -v wasm-bindgen >/dev/null && [ "$(version_of "$(command -v wasm-bindgen)")" = "$want" ]; then
    found=$(command -v wasm-bindgen)
  else
    mkdir -p "$shared"
    log=$shared/install.log
    echo "tools: installing wasm-bindgen-cli $want into $shared (once per machine, about a minute)"
    # Unoptimised (opt-level 0): a third of the CPU time of cargo's release build (135 s against
    # 390 s measured here) for the same output byte for byte (it only rewrites our module's
    # glue, 1 s instead of 0.3 s); only the one binary the build runs (docs/decisions.md#first-minutes).
    if ! CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
        cargo install -q wasm-bindgen-cli --version "$want" --bin wasm-bindgen --root "$shared" --force >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      echo "tools: cargo install wasm-bindgen-cli $want failed (the whole log: $log)" >&2
      exit 1
    fi
    found=$shared/bin/wasm-bindgen
  fi
  mkdir -p "$root/target/tools/bin"
  ln -sfn "$found" "$bindgen"
fi
got=$(version_of "$bindgen")
[ "$got" = "$want" ] || { echo "tools: wasm-bindgen $got installed, $want pinned" >&2; exit 1; }

if [ ! -x wasm/node_modules/.bin/wasm-opt ] || [ ! -d wasm/node_modules/playwright-core ] \
   || [ ! -x wasm/node_modules/.bin/tsc ]; then
  echo "tools: npm install (wasm/ dev tools)"
  (cd wasm && npm install --no-package-lock --no-audit --no-fund --loglevel=error)
fi

if [ "${1:-}" != "--no-browser" ] && [ ! -x /usr/bin/chromium ]; then
  echo "tools: apt-get install chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

#!/usr/bin/env bash
# Installs, idempotently, the tools the wasm package and the dashboard need:
#   the wasm32 target, wasm-bindgen-cli at exactly the crate's version (into target/tools),
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

bindgen=$root/target/tools/bin/wasm-bindgen
if [ ! -x "$bindgen" ] || [ "$("$bindgen" --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
  echo "tools: cargo install wasm-bindgen-cli $want (a few minutes cold)"
  cargo install wasm-bindgen-cli --version "$want" --root "$root/target/tools" --force
fi
got=$("$bindgen" --version | awk '{print $2}')
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

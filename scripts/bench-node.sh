#!/usr/bin/env bash
# The Node benchmark (issue 5): ekl-core's Node package against canonicalize, json-canonicalize and
# @truestamp/canonify, on the corpus of the Rust benchmark (bench/src/corpus.rs, written once to
# target/bench-corpus). Called by scripts/bench.sh (step `node`); runs on its own too.
#   BENCH_ROUNDS=N   rounds (default 7; median reported)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

corpus="$root/target/bench-corpus"
if [ ! -f "$corpus/big.json" ]; then
  (cd bench && CARGO_TARGET_DIR="$root/target/bench" cargo build --release --quiet)
  "$root/target/bench/release/ekl-bench" --write-corpus "$corpus" >/dev/null
fi

cd node
stamp=node_modules/.ekl-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
npx napi build --platform --release --js native.js --dts native.d.ts >/dev/null 2>&1 ||
  npx napi build --platform --release --js native.js --dts native.d.ts
node bench/bench.mjs --corpus "$corpus" --rounds "${BENCH_ROUNDS:-7}"

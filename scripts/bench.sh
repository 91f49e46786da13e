#!/usr/bin/env bash
# ./run bench: the benchmarks, one section per step. Each step builds what it needs itself.
#   ./run bench              every step
#   ./run bench STEP..       only the named steps (e.g. ./run bench rust-canon)
#   BENCH_ROUNDS=N           rounds per implementation (default 11; median reported; the wasm
#                            steps default to 3)
# Every step also appends its figures as JSON lines to target/bench-report/<step>.json (through
# EKL_BENCH_JSON); the last step, `report`, prints them as one table (scripts/bench/report.py).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
reports="$root/target/bench-report"

# --- step: rust-canon ---------------------------------------------------------------------------
# ekl-core's canonicaliser against the Rust JCS peers (json-canon, serde_jcs,
# serde_json_canonicalizer, jcs-admit, vr-jcs) and a serde_json parse+print baseline (issue 2).
# bench/ and bench/vr-jcs-worker/ are separate Cargo workspaces, so `cargo test --workspace` never
# compiles the peers; vr-jcs runs in its own process because it changes serde_json's features.
bench_rust_canon() {
  (cd bench && CARGO_TARGET_DIR="$root/target/bench" cargo build --release --quiet)
  (cd bench/vr-jcs-worker && CARGO_TARGET_DIR="$root/target/bench-vr-jcs" cargo build --release --quiet)
  "$root/target/bench/release/ekl-bench" --rounds "${BENCH_ROUNDS:-11}" \
    --worker "vr-jcs 0.4.1=$root/target/bench-vr-jcs/release/ekl-bench-vr-jcs"
}

# --- step: node ------------------------------------------------------------------------------------
# The Node package against canonicalize, json-canonicalize and @truestamp/canonify (issue 5).
bench_node() {
  bash "$root/scripts/bench-node.sh"
}

# --- step: es256 ---------------------------------------------------------------------------------
# ES256 verify µs/op, ekl-core with a precomputed key against OpenSSL via node:crypto (issue 3), and
# keys without a table in paired rounds, with the CPU model (issues 28, 43).
bench_es256() {
  bash scripts/bench-es256.sh "${BENCH_ES256_ITERATIONS:-5000}"
}

# --- step: python ------------------------------------------------------------------------------
# ekl_evidence (the installed wheel) against rfc8785, jcs, canonicaljson and jcs-admit (issue 4).
# Also issue 28's rows on the shared corpus's receipts documents against jcs-admit.
bench_python() {
  bench_corpus
  bash "$root/scripts/bench-python.sh" --json "$reports/python.raw.json" \
    --receipts "$root/target/bench-corpus/small"
}

# The shared corpus (bench/src/corpus.rs) in target/bench-corpus, as scripts/bench-node.sh makes it.
bench_corpus() {
  if [ ! -f "$root/target/bench-corpus/big.json" ]; then
    (cd bench && CARGO_TARGET_DIR="$root/target/bench" cargo build --release --quiet)
    "$root/target/bench/release/ekl-bench" --write-corpus "$root/target/bench-corpus" >/dev/null
  fi
}

# The shared corpus and node/node_modules (the JS peers), as scripts/bench-node.sh makes them.
wasm_inputs() {
  bench_corpus
  local want
  want=$(sha256sum node/package-lock.json | cut -d' ' -f1)
  if [ "$(cat node/node_modules/.ekl-lock-sha256 2>/dev/null)" != "$want" ]; then
    (cd node && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" > node/node_modules/.ekl-lock-sha256
  fi
  bash wasm/scripts/build.sh >/dev/null
}

# --- step: wasm-node -------------------------------------------------------------------------------
# The wasm package (wasm/dist, CommonJS entry) in Node against the JS peers of the node step and
# ES256 verifyJws against node:crypto (issue 7; wasm/bench/bench.mjs).
bench_wasm_node() {
  wasm_inputs
  BENCH_ROUNDS="${BENCH_ROUNDS:-3}" node wasm/bench/bench.mjs --corpus "$root/target/bench-corpus"
}

# --- step: wasm-chromium ---------------------------------------------------------------------------
# The same in headless Chromium (wasm/dist/index.web.mjs; the peers as ES modules from
# node/node_modules; ES256 against WebCrypto) (issue 7; wasm/bench/chromium.mjs).
bench_wasm_chromium() {
  wasm_inputs
  bash wasm/scripts/tools.sh >/dev/null   # Debian's chromium, when missing
  BENCH_ROUNDS="${BENCH_ROUNDS:-3}" node wasm/bench/chromium.mjs --corpus "$root/target/bench-corpus"
}

# --- step: report ----------------------------------------------------------------------------------
# One table: every surface x operation, ours, the fastest peer, the ratio, the issue's target, met?
bench_report() {
  python3 scripts/bench/report.py "$reports"
}

# --- the list of steps, in order (add new steps here) --------------------------------------------
steps=(rust-canon node es256 python wasm-node wasm-chromium report)

mkdir -p "$reports"
for step in "${steps[@]}"; do
  if [ $# -gt 0 ] && [[ " $* " != *" $step "* ]]; then continue; fi
  echo "==> bench: $step"
  if [ "$step" != report ]; then
    rm -f "$reports/$step.json" "$reports/$step.raw.json"
    export EKL_BENCH_JSON="$reports/$step.json"
  fi
  "bench_${step//-/_}"
  echo "<== bench: $step"
done

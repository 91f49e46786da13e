#!/usr/bin/env bash
# ./run bench: the benchmarks, one section per step. Each step builds what it needs itself.
#   ./run bench              every step
#   ./run bench STEP..       only the named steps (e.g. ./run bench rust-canon)
#   BENCH_ROUNDS=N           rounds per implementation (default 11; median reported)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

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
# ES256 verify µs/op, ekl-core with a precomputed key against OpenSSL via node:crypto (issue 3).
bench_es256() {
  bash scripts/bench-es256.sh "${BENCH_ES256_ITERATIONS:-5000}"
}

# --- step: python ------------------------------------------------------------------------------
# ekl_evidence (the installed wheel) against rfc8785, jcs and canonicaljson (issue 4).
bench_python() {
  bash "$root/scripts/bench-python.sh"
}

# --- the list of steps, in order (add new steps here) --------------------------------------------
steps=(rust-canon node es256 python)

for step in "${steps[@]}"; do
  if [ $# -gt 0 ] && [[ " $* " != *" $step "* ]]; then continue; fi
  echo "==> bench: $step"
  "bench_${step//-/_}"
  echo "<== bench: $step"
done

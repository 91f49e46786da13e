#!/usr/bin/env bash
# The V8 number cross-check (core/tests/numbers_v8.rs) on 10,000,000 random doubles (or $1),
# streamed through one node process: memory stays flat. Needs node on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
start=$(date +%s)
EKL_V8_NUMBERS=$n cargo test --release -p ekl-core --test numbers_v8 -- --nocapture number_text_matches_v8
echo "numbers-10m: $n random doubles checked against V8 in $(( $(date +%s) - start )) s"

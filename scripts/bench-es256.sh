#!/usr/bin/env bash
# ES256 verification, ekl-core (fixed-base tables for G and the key) against OpenSSL through
# node:crypto, in one run: µs per verify and the ratio (issue 3 target: within 2x of OpenSSL).
#   scripts/bench-es256.sh [ITERATIONS]    (default 5000; best of 3 rounds each)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -p ekl-core --example bench_es256 -- "${1:-5000}"

#!/usr/bin/env bash
# ES256 verification, ekl-core (fixed-base tables for G and the key) against OpenSSL through
# node:crypto, in one run: µs per verify and the ratio (issue 3 target: within 2x of OpenSSL); keys
# seen for the first time (no table) in paired rounds alternating with OpenSSL's, thread CPU time,
# the median of the pairs' ratios and the CPU's model (issues 28 and 43: at or below OpenSSL).
#   scripts/bench-es256.sh [ITERATIONS]    (default 5000; best of 3 rounds each)
#   BENCH_ES256_CALLGRIND=1                also x86 instructions per verification of a key seen
#                                          for the first time, ours and OpenSSL's (valgrind, a C
#                                          compiler and OpenSSL's headers): a figure load cannot move
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -p ekl-core --example bench_es256 -- "${1:-5000}"
if [ "${BENCH_ES256_CALLGRIND:-0}" = 1 ]; then
  cargo build --release --quiet -p ekl-core --example es256_count
  cc -O2 -o target/es256-openssl-count scripts/bench/es256-openssl-count.c -lcrypto
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
  a=$(count target/release/examples/es256_count 100 cold)
  b=$(count target/release/examples/es256_count 300 cold)
  c=$(count target/es256-openssl-count 100)
  d=$(count target/es256-openssl-count 300)
  ours=$(( (b - a) / 200 )) theirs=$(( (d - c) / 200 ))
  echo "  instructions per verification, a key seen for the first time (callgrind, 300 - 100 runs):"
  echo "    ekl-core (with a key set parsed each time) ${ours}, OpenSSL (EVP, as node:crypto) ${theirs}: $(python3 -c "print(f'{$ours/$theirs:.2f}')")x"
fi

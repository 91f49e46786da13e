#!/usr/bin/env bash
# Regenerates the first N lines (default 100,000,000) of RFC 8785's es6testfile100m.txt with our
# number writer and checks every published SHA-256 up to N (vectors/rfc8785-testdata/es6-hashes.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000000}
start=$(date +%s)
EKL_ES6_LINES=$n cargo test --release -p ekl-core --test rfc8785 -- --nocapture es6_number_file_hashes_match
echo "es6-numbers: first $n lines checked in $(( $(date +%s) - start )) s"

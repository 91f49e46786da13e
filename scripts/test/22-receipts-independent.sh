#!/usr/bin/env bash
# Receipts, endpoint proofs and screening vectors, re-checked without our Rust code:
#  1. the generators (Python stdlib) reproduce vectors/call-receipt.json, endpoint-proof-v2.json and
#     screening-scan.json byte for byte;
#  2. vectors/check/check_receipts.py re-derives every value and verdict with its own verifier
#     (hashlib, hmac, unicodedata and the implementers' guide's canonical.py, vectors/check/guide/), including the guide's own
#     two receipt lines, and its meta-check proves that a changed expected value is caught.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null; then
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || { echo "python3 >= 3.10 needed (the guide's canonical.py uses X | Y annotations)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 vectors/check/make_receipt_vectors.py "$tmp" >/dev/null
python3 vectors/check/make_screening_vectors.py "$tmp" >/dev/null
for f in call-receipt.json endpoint-proof-v2.json screening-scan.json; do
  cmp "$tmp/$f" "vectors/$f" || { echo "vectors/$f differs from what its generator writes"; exit 1; }
done
echo "generators reproduce the three vector files byte for byte"
python3 vectors/check/check_receipts.py --quiet

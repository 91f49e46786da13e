#!/usr/bin/env bash
# Independent re-check of the JWS vectors (receipt-jws.json, screening-rules-jws.json) with
# node:crypto (OpenSSL) and none of our Rust code; then a meta-check: a copy with one changed
# expectation must be refused by the checker.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "node is required (apt-get install -y nodejs)"; exit 1; }
node vectors/check/check_jws.mjs vectors
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp vectors/receipt-jws.json vectors/screening-rules-jws.json "$tmp/"
python3 - "$tmp/receipt-jws.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["cases"][0]["expected"]["receipt_digest"] = "0" * 64
json.dump(d, open(p, "w"))
PY
if node vectors/check/check_jws.mjs "$tmp" >/dev/null 2>&1; then
  echo "meta-check failed: the checker accepted a changed expectation"; exit 1
fi
echo "meta-check: a changed expectation is refused"

#!/usr/bin/env bash
# Independent re-check of the JWS vectors (receipt-jws.json, screening-rules-jws.json,
# credentials-jws.json) with node:crypto (OpenSSL) and none of our Rust code; then meta-checks:
# a copy with one changed expectation must be refused by the checker, for each change below.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "node is required (apt-get install -y nodejs)"; exit 1; }
node vectors/check/check_jws.mjs vectors
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files="receipt-jws.json screening-rules-jws.json credentials-jws.json"
# Each change: the file, then Python that edits its parsed document `d`.
changes=(
  'receipt-jws.json|d["cases"][0]["expected"]["receipt_digest"] = "0" * 64'
  'credentials-jws.json|d["cases"][0]["expected"]["jti"] = "asr_other"'
  'credentials-jws.json|next(c for c in d["cases"] if c["name"] == "at_lifetime_over_bound")["expected"] = {"error": "TOKEN_EXPIRED"}'
  'credentials-jws.json|next(c for c in d["cases"] if c["name"] == "feed_page_valid")["expected"]["exp"] = 0'
  'credentials-jws.json|d["rules"]["verify_access_token"]["max_lifetime"] = 901'
)
for change in "${changes[@]}"; do
  file=${change%%|*}
  edit=${change#*|}
  rm -f "$tmp"/*.json
  for f in $files; do cp "vectors/$f" "$tmp/"; done
  python3 - "$tmp/$file" "$edit" <<'PY'
import json, sys
p, edit = sys.argv[1], sys.argv[2]
d = json.load(open(p, encoding="utf-8"))
exec(edit)
json.dump(d, open(p, "w", encoding="utf-8"), ensure_ascii=False)
PY
  if node vectors/check/check_jws.mjs "$tmp" >"$tmp/out" 2>&1; then
    echo "meta-check failed: the checker accepted a changed expectation ($file: $edit)"; exit 1
  fi
  # Refused as a difference (a FAIL line), not by a crash of the checker.
  grep -q "^FAIL $file" "$tmp/out" || { echo "meta-check failed: no FAIL line for $file ($edit)"; cat "$tmp/out"; exit 1; }
done
echo "meta-check: each of ${#changes[@]} changed expectations is refused"

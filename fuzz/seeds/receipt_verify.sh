#!/usr/bin/env bash
# Seeds for `receipt_verify`: every receipt of vectors/call-receipt.json (published, key ring and
# mismatch cases), one file each. Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
python3 - "$root/vectors/call-receipt.json" "$out" <<'PY'
import hashlib, json, os, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
receipts = [doc["receipt"], {**doc["receipt"], "auth_tag": doc["auth_tag"]}]
receipts += [c["receipt"] for c in doc["key_ring"]["cases"] + doc["mismatch"]["cases"]]
for r in receipts:
    b = json.dumps(r, ensure_ascii=False).encode()
    open(os.path.join(sys.argv[2], "receipt-" + hashlib.sha256(b).hexdigest()[:16]), "wb").write(b)
PY

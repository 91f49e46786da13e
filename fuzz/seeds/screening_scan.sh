#!/usr/bin/env bash
# Seeds for `screening_scan`: every result of vectors/screening-scan.json, one file each. Writes into "$1".
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
python3 - "$root/vectors/screening-scan.json" "$out" <<'PY'
import hashlib, json, os, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
for c in doc["cases"]:
    b = json.dumps(c["result"], ensure_ascii=False).encode()
    open(os.path.join(sys.argv[2], "result-" + hashlib.sha256(b).hexdigest()[:16]), "wb").write(b)
PY

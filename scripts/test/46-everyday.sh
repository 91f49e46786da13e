#!/usr/bin/env bash
# The six everyday tasks (docs/everyday-tasks.md; issue 12, "Show"; the sixth, issue 25): examples/everyday/ours.py
# and ours.ts (ekl-evidence, from the README alone) next to peers.py (PyJWT + rfc8785) and peers.ts
# (jose + canonicalize), pinned. Each is type-checked strictly (mypy --strict and pyright strict;
# tsc --strict), then run against a JWKS served on localhost; the four must print the same results
# (the peers' JWS check verifies our token, the receipts are byte-identical, each program accepts
# the platform call credential once and refuses its second presentation as CREDENTIAL_REPLAY). Then the line counts
# and casts of docs/everyday-tasks.md are checked against the files.
# Needs the wheel of 30-python.sh and the addon of 40-node.sh (./run test runs them first).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
source scripts/examples-env.sh
work="${CARGO_TARGET_DIR:-$repo/target}/everyday-test"
rm -rf "$work" && mkdir -p "$work/www"

ex_venv
ex_pyright "${CARGO_TARGET_DIR:-$repo/target}/pyright"
ex_npm examples/everyday

# types
(cd examples/everyday && rm -rf dist && npx tsc -p tsconfig.json)
(cd "$work" && "$PYRIGHT_BIN" -p "$repo/examples/pyrightconfig.json" --pythonpath "$EX_PYTHON" "$repo"/examples/everyday/*.py)
(cd "$work" && "$EX_PYTHON" -m mypy --strict --no-incremental "$repo"/examples/everyday/*.py)

# a JWKS on localhost
"$EX_PYTHON" examples/everyday/fixture.py "$work/www"
port=$("$EX_PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$EX_PYTHON" -m http.server --bind 127.0.0.1 --directory "$work/www" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  if "$EX_PYTHON" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/jwks.json', timeout=1)" 2>/dev/null; then break; fi
  sleep 0.1
done
export EVERYDAY_JWKS_URL="http://127.0.0.1:$port/jwks.json"
export EVERYDAY_TOKEN; EVERYDAY_TOKEN=$(cat "$work/www/token")
export EVERYDAY_CREDENTIAL; EVERYDAY_CREDENTIAL=$(cat "$work/www/credential")
export EVERYDAY_SALT; EVERYDAY_SALT=$("$EX_PYTHON" -c 'import ekl_evidence as e; print(e.new_salt())')

for prog in ours.py peers.py ours.ts peers.ts; do
  case $prog in
    *.py) "$EX_PYTHON" "examples/everyday/$prog" > "$work/$prog.json" ;;
    *.ts) node "examples/everyday/dist/${prog%.ts}.js" > "$work/$prog.json" ;;
  esac
done
"$EX_PYTHON" - "$work" "$repo" <<'PY'
import json, re, sys
from pathlib import Path
work, repo = Path(sys.argv[1]), Path(sys.argv[2])
outs = {p: json.loads((work / f"{p}.json").read_text()) for p in ("ours.py", "peers.py", "ours.ts", "peers.ts")}
first = outs["ours.py"]
for p, o in outs.items():
    if o != first:
        sys.exit(f"{p} differs from ours.py:\n{o}\n{first}")
print("everyday: ours.py, peers.py, ours.ts, peers.ts print the same results:", ", ".join(sorted(first)))
# Task 6: the same credential presented twice: accepted once, then refused as a replay.
once, again = first["platform_call"]
if not (once.get("accepted") is True and once.get("purpose") == "validation" and once.get("jti", "").startswith("pcc_")
        and again == {"accepted": False, "code": "CREDENTIAL_REPLAY"}):
    sys.exit(f"task 6: expected one acceptance then CREDENTIAL_REPLAY, got {first['platform_call']}")
print(f"  task 6: {once['jti']} accepted once, then {again['code']}")
# The figures of docs/everyday-tasks.md: lines of code (non-blank, not comments, not docstrings)
# and casts, counted here and compared with the table.
def count(path: Path):
    text = path.read_text()
    if path.suffix == ".py":
        text = re.sub(r'^(\s*)"""[\s\S]*?"""', "", text, count=1, flags=re.M)
        lines = [l for l in text.split("\n") if l.strip() and not l.strip().startswith("#")]
        casts = len(re.findall(r"\bcast\(|# type: ignore", text))
    else:
        lines = [l for l in text.split("\n") if l.strip() and not l.strip().startswith("//")]
        casts = len(re.findall(r"\bas (?!const\b)[A-Z{(]|<[A-Z]\w*>\w|!\.|!\)|@ts-", text))
    return len(lines), casts
doc = (repo / "docs" / "everyday-tasks.md").read_text()
for name in ("ours.py", "peers.py", "ours.ts", "peers.ts"):
    loc, casts = count(repo / "examples" / "everyday" / name)
    row = re.search(rf"^\| `examples/everyday/{re.escape(name)}` \| (\d+) \| (\d+) \|", doc, re.M)
    if not row or (int(row.group(1)), int(row.group(2))) != (loc, casts):
        sys.exit(f"docs/everyday-tasks.md: {name} has {loc} lines and {casts} casts; the table says {row.groups() if row else 'nothing'}")
    print(f"  {name}: {loc} lines, {casts} casts (as in docs/everyday-tasks.md)")
PY

#!/usr/bin/env bash
# Real MCP SDKs no one here wrote (issue 12.7): the official Python SDK (PyPI mcp) and TypeScript
# SDK (npm @modelcontextprotocol/sdk), pinned, with examples/mcp/:
#   1. the examples type-checked: tsc --strict (server.ts, client.ts, compiled to dist/),
#      pyright --strict and mypy --strict (server.py, client.py, wiretap.py, independent.py);
#   2. each server (Python, TypeScript) over stdio, behind wiretap.py, called by each client
#      (Python, TypeScript): tools/list and one tools/call;
#   3. the upstream fingerprint of tools/list and the output fingerprint of the tool result, as they
#      crossed the wire, must agree between the two clients of a server, equal the SDK objects'
#      own, and equal an independent computation (hashlib + PyPI rfc8785, from the wire log).
# Needs the wheel of 30-python.sh and the addon of 40-node.sh (./run test runs them first).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
source scripts/examples-env.sh
work="${CARGO_TARGET_DIR:-$repo/target}/mcp-test"
mkdir -p "$work"

ex_venv
ex_pyright "${CARGO_TARGET_DIR:-$repo/target}/pyright"
ex_npm examples/mcp

# 1. types
(cd examples/mcp && rm -rf dist && npx tsc -p tsconfig.json)
(cd "$work" && "$PYRIGHT_BIN" -p "$repo/examples/pyrightconfig.json" --pythonpath "$EX_PYTHON" "$repo"/examples/mcp/*.py)
(cd "$work" && "$EX_PYTHON" -m mypy --strict --no-incremental "$repo"/examples/mcp/*.py)

# 2.-3. every server with every client
salt=$("$EX_PYTHON" -c 'import ekl_evidence as e; print(e.new_salt())')
results="$work/results.jsonl"
: > "$results"
for server in py ts; do
  case $server in
    py) cmd=("$EX_PYTHON" "$repo/examples/mcp/server.py") ;;
    ts) cmd=(node "$repo/examples/mcp/dist/server.js") ;;
  esac
  for client in py ts; do
    log="$work/wire-$server-$client.log"
    rm -f "$log"
    case $client in
      py) out=$(timeout 120 "$EX_PYTHON" examples/mcp/client.py --salt "$salt" "$log" -- "${cmd[@]}") ;;
      ts) out=$(EKL_PYTHON="$EX_PYTHON" timeout 120 node examples/mcp/dist/client.js --salt "$salt" "$log" -- "${cmd[@]}") ;;
    esac
    indep=$("$EX_PYTHON" examples/mcp/independent.py "$salt" "$log")
    echo "{\"server\":\"$server\",\"client\":\"$client\",\"result\":$out,\"independent\":$indep}" >> "$results"
  done
done
"$EX_PYTHON" - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
ok = True
print(f"{'server':7} {'client':7} {'upstream_fingerprint':18} {'output_fingerprint':18} sdk=wire independent")
for r in rows:
    res, ind = r["result"], r["independent"]
    same_ind = res["upstream_fingerprint"] == ind["upstream_fingerprint"] and res["output_fingerprint"] == ind["output_fingerprint"]
    ok &= same_ind and res["sdk_agrees_with_wire"]
    print(f"{r['server']:7} {r['client']:7} {res['upstream_fingerprint'][:16]}.. {res['output_fingerprint'][:16]}.. "
          f"{'yes' if res['sdk_agrees_with_wire'] else 'NO':8} {'equal' if same_ind else 'DIFFERENT'}")
for server in ("py", "ts"):
    fps = {(r["result"]["upstream_fingerprint"], r["result"]["output_fingerprint"]) for r in rows if r["server"] == server}
    if len(fps) != 1:
        ok = False
        print(f"the two clients of the {server} server disagree: {fps}")
if not ok:
    sys.exit("MCP fingerprints disagree")
print("MCP: 2 servers x 2 clients, fingerprints as they crossed the wire agree with each other, with the SDK objects and with rfc8785 + hashlib")
PY

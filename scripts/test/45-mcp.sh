#!/usr/bin/env bash
# Real MCP SDKs no one here wrote (issue 12.7): the official Python SDK (PyPI mcp) and TypeScript
# SDK (npm @modelcontextprotocol/sdk), pinned, with examples/mcp/:
#   1. the examples type-checked: tsc --strict (server.ts, client.ts, compiled to dist/),
#      pyright --strict and mypy --strict (server.py, client.py, wiretap.py, independent.py);
#   2. each server (Python, TypeScript) over stdio, behind wiretap.py, called by each client
#      (Python, TypeScript): tools/list and one tools/call;
#   3. the upstream fingerprint of tools/list and the output fingerprint of the tool result, as they
#      crossed the wire, must agree between the two clients of a server, equal the SDK objects'
#      own, and equal an independent computation (hashlib + PyPI rfc8785, from the wire log);
#   4. the packages' modules (ekl_evidence.mcp, ekl-evidence/mcp: issue 25) against three servers
#      (server.py, server.ts, and server-paged.ts, which lists its tools in pages of two), each over
#      stdio and Streamable HTTP on 127.0.0.1: every tools/list page and one tools/call; for each
#      server the fingerprints of every transport and client agree, and equal independent.py's from
#      the wire each client recorded;
#   5. the Python SDK's objects given to the fingerprint operations (sdk_objects.py): the wire's
#      fingerprint or a refusal naming the right call, never another fingerprint; and the edges of
#      the modules' wire recording (edges.py, edges.mjs, against edge_server.py, written by hand):
#      a log kept across sessions, a server's own requests numbered like the call, concurrent
#      calls on one session, `offered` in a wrong form, a relative log with the server elsewhere;
#   6. the CLI, `ekl mcp`, against the same three servers over stdio (behind wiretap.py) and
#      Streamable HTTP: its upstream fingerprint equals independent.py's from the wire it spoke and
#      the modules' of step 4 for that server, every page read; --expect with the fingerprint
#      exits 0, with another one 1;
#   7. the hostile suite (examples/mcp/hostile.py, against hostile_server.py, written by hand):
#      decoys next to the answer (jsonrpc 1.0 or none, a batch, the id as a string, a member
#      JSON-RPC does not define, a second answer), 100 MB of notifications and 2,000 server
#      requests before each answer, a server that stops reading (ekl mcp: its --timeout holds the
#      writes), a line without end, a 70 MB message, a line that is not UTF-8, a looping and a
#      changing cursor, and where a tap's reading could differ from the SDK's (issue 41: an
#      answer with another id on a request's stream, deflate, gzip, charset=utf-16-le and
#      iso-8859-1, a byte-order mark, a decoy id N.0 on the GET stream); over stdio and Streamable HTTP, against the Python module, the JS module
#      and ekl mcp, each scenario in a process of its own: the real tool fingerprinted or the
#      code expected, within 90 s, under 300 MB peak (docs/decisions/mcp.md).
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
(cd "$work" && "$EX_PYTHON" -m mypy --strict --no-incremental -m ekl_evidence.mcp -m ekl_evidence._mcp_relay)

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

# 4. the packages' modules: 3 servers x 2 transports x 2 clients
# The JS module is reached through examples/mcp/node_modules/ekl-evidence, a link to node/: with
# --preserve-symlinks it finds the SDK (its peer dependency) here, as an installed package would.
free_port() { "$EX_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_http() { # NAME: starts the server over Streamable HTTP, sets url and pid
  local out="$work/http-$1.out"
  : > "$out"
  case $1 in
    py) local port; port=$(free_port)
        "$EX_PYTHON" "$repo/examples/mcp/server.py" --http "$port" > "$out" 2>&1 &
        pid=$!; url="http://127.0.0.1:$port/mcp"
        for _ in $(seq 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done ;;
    ts|paged) local js=server.js; [ "$1" = paged ] && js=server-paged.js
        node "$repo/examples/mcp/dist/$js" --http 0 > "$out" 2>&1 &
        pid=$!
        for _ in $(seq 100); do grep -q '^listening ' "$out" && break; sleep 0.1; done
        url=$(sed -n 's/^listening //p' "$out") ;;
  esac
  [ -n "$url" ] || { cat "$out" >&2; echo "the $1 server did not start" >&2; return 1; }
}
modules="$work/modules.jsonl"
: > "$modules"
for server in py ts paged; do
  case $server in
    py) cmd=("$EX_PYTHON" "$repo/examples/mcp/server.py"); offered=search_listings; call=(search_listings '{"area_ref":"loc:ca:dublin","min_beds":3}') ;;
    ts) cmd=(node "$repo/examples/mcp/dist/server.js"); offered=search_listings; call=(search_listings '{"area_ref":"loc:ca:dublin","min_beds":3}') ;;
    paged) cmd=(node "$repo/examples/mcp/dist/server-paged.js"); offered='search_listings,get_quote,book_viewing,Ünïcode_tool'; call=(get_quote '{"listing_id":"l1"}') ;;
  esac
  for transport in stdio http; do
    target=(-- "${cmd[@]}")
    if [ $transport = http ]; then start_http $server; target=(--url "$url"); fi
    for client in py ts; do
      log="$work/module-$server-$transport-$client.log"
      args=(--salt "$salt" --offered "$offered" --call "${call[@]}" --log "$log" "${target[@]}")
      case $client in
        py) out=$(timeout 120 "$EX_PYTHON" examples/mcp/evidence.py "${args[@]}") ;;
        ts) out=$(timeout 120 node --preserve-symlinks examples/mcp/dist/evidence.js "${args[@]}") ;;
      esac
      indep=$("$EX_PYTHON" examples/mcp/independent.py "$salt" "$log" "$offered")
      echo "{\"server\":\"$server\",\"transport\":\"$transport\",\"client\":\"$client\",\"result\":$out,\"independent\":$indep}" >> "$modules"
    done
    if [ $transport = http ]; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
  done
done
"$EX_PYTHON" - "$modules" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
ok = len(rows) == 12
print(f"{'server':7} {'transport':9} {'client':6} pages {'upstream_fingerprint':18} {'output_fingerprint':18} independent")
for r in rows:
    res, ind = r["result"], r["independent"]
    same = res["upstream_fingerprint"] == ind["upstream_fingerprint"] and res["output_fingerprint"] == ind["output_fingerprint"]
    ok &= same
    print(f"{r['server']:7} {r['transport']:9} {r['client']:6} {res['pages']:5} {res['upstream_fingerprint'][:16]}.. "
          f"{res['output_fingerprint'][:16]}.. {'equal' if same else 'DIFFERENT'}")
for server in ("py", "ts", "paged"):
    fps = {(r["result"]["upstream_fingerprint"], r["result"]["output_fingerprint"]) for r in rows if r["server"] == server}
    if len(fps) != 1:
        ok = False
        print(f"the clients and transports of the {server} server disagree: {fps}")
if not all(r["result"]["pages"] == 3 and len(r["result"]["tools"]) == 5 for r in rows if r["server"] == "paged"):
    ok = False
    print("the paged server's tools were not all read (3 pages, 5 tools)")
if not ok:
    sys.exit("MCP module fingerprints disagree")
print("MCP modules: 3 servers (one paginating) x stdio and Streamable HTTP x Python and JS modules agree with each other and with rfc8785 + hashlib")
PY

# 5. the SDK's objects: the wire's fingerprint or a refusal naming the right call
for server in py ts paged; do
  case $server in
    py) cmd=("$EX_PYTHON" "$repo/examples/mcp/server.py") ;;
    ts) cmd=(node "$repo/examples/mcp/dist/server.js") ;;
    paged) cmd=(node "$repo/examples/mcp/dist/server-paged.js") ;;
  esac
  timeout 120 "$EX_PYTHON" examples/mcp/sdk_objects.py -- "${cmd[@]}"
done
timeout 120 "$EX_PYTHON" examples/mcp/edges.py
(cd examples/mcp && EKL_PYTHON="$EX_PYTHON" timeout 120 node --preserve-symlinks edges.mjs)

# 6. the CLI: ekl mcp, 3 servers x stdio and Streamable HTTP
cargo build --release -q -p ekl-cli --bin ekl
ekl="${CARGO_TARGET_DIR:-$repo/target}/release/ekl"
clis="$work/cli.jsonl"
: > "$clis"
for server in py ts paged; do
  case $server in
    py) cmd=("$EX_PYTHON" "$repo/examples/mcp/server.py"); offered=search_listings ;;
    ts) cmd=(node "$repo/examples/mcp/dist/server.js"); offered=search_listings ;;
    paged) cmd=(node "$repo/examples/mcp/dist/server-paged.js"); offered='search_listings,get_quote,book_viewing,Ünïcode_tool' ;;
  esac
  for transport in stdio http; do
    if [ $transport = http ]; then
      start_http $server
      out=$(timeout 120 "$ekl" mcp --offered "$offered" --url "$url")
      indep=null
      # the presence check: the same fingerprint exits 0, another one 1 (the server's tools changed)
      fp=$("$EX_PYTHON" -c 'import json, sys; print(json.loads(sys.argv[1])["upstream_fingerprint"])' "$out")
      timeout 120 "$ekl" mcp --offered "$offered" --expect "$fp" --url "$url" > /dev/null
      set +e
      timeout 120 "$ekl" mcp --offered "$offered" --expect "$(printf '%064d' 0)" --url "$url" > /dev/null 2> "$work/expect.err"
      status=$?
      set -e
      [ $status = 1 ] && grep -q "the server's tools changed" "$work/expect.err" || { cat "$work/expect.err" >&2; echo "ekl mcp --expect with another fingerprint: exit $status, not 1" >&2; exit 1; }
      kill "$pid"; wait "$pid" 2>/dev/null || true
    else
      log="$work/cli-$server-stdio.log"
      rm -f "$log"
      out=$(timeout 120 "$ekl" mcp --offered "$offered" -- "$EX_PYTHON" examples/mcp/wiretap.py "$log" -- "${cmd[@]}")
      indep=$("$EX_PYTHON" examples/mcp/independent.py "$salt" "$log" "$offered")
    fi
    echo "{\"server\":\"$server\",\"transport\":\"$transport\",\"result\":$out,\"independent\":$indep}" >> "$clis"
  done
done
"$EX_PYTHON" - "$clis" "$modules" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
modules = [json.loads(line) for line in open(sys.argv[2])]
ok = len(rows) == 6
print(f"{'server':7} {'transport':9} pages tools {'upstream_fingerprint':18} server                 independent modules")
for r in rows:
    res, ind = r["result"], r["independent"]
    mods = {m["result"]["upstream_fingerprint"] for m in modules if m["server"] == r["server"]}
    same_mod = mods == {res["upstream_fingerprint"]}
    same_ind = ind is None or ind["upstream_fingerprint"] == res["upstream_fingerprint"]
    ok &= same_mod and same_ind
    s = res["server"]
    print(f"{r['server']:7} {r['transport']:9} {res['pages']:5} {res['tools']:5} {res['upstream_fingerprint'][:16]}.. "
          f"{(s['name'] or '') + ' ' + (s['version'] or ''):22} {'-' if ind is None else 'equal' if same_ind else 'DIFFERENT':11} "
          f"{'equal' if same_mod else 'DIFFERENT'}")
for r in rows:
    want = (3, 5) if r["server"] == "paged" else (1, 2)
    if (r["result"]["pages"], r["result"]["tools"]) != want:
        ok = False
        print(f"{r['server']} over {r['transport']}: {r['result']['pages']} pages, {r['result']['tools']} tools, not {want}")
    names = [t["name"] for t in r["result"]["projection"]]
    if names != sorted(names, key=lambda n: n.encode("utf-16-be")):
        ok = False
        print(f"{r['server']}: the projection is not sorted by UTF-16 code units: {names}")
if not ok:
    sys.exit("ekl mcp disagrees")
print("ekl mcp: 3 servers (one paginating) x stdio and Streamable HTTP agree with rfc8785 + hashlib from the wire and with the packages' modules; --expect exits 0 and 1")
PY

# 6b. ekl mcp over https:// (ureq + rustls, cli/src/mcp/tls.rs): a server whose certificate a private CA signed (made
#     here with openssl), trusted with --ca; without --ca the web PKI's roots refuse it (exit 69)
tls="$work/tls"
rm -rf "$tls" && mkdir -p "$tls"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=ekl test CA" \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
  -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$tls/ext"
openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
  -extfile "$tls/ext" -out "$tls/server.pem" 2>/dev/null
port=$(free_port)
"$EX_PYTHON" examples/mcp/hostile_server.py plain --http "$port" --tls "$tls/server.pem" "$tls/server.key" > "$tls/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^listening ' "$tls/out" && break; sleep 0.1; done
out=$(timeout 60 "$ekl" mcp --ca "$tls/ca.pem" --url "https://127.0.0.1:$port/mcp")
"$EX_PYTHON" -c 'import json, sys; r = json.loads(sys.argv[1]); assert [t["name"] for t in r["projection"]] == ["real"], r' "$out"
set +e
timeout 60 "$ekl" mcp --url "https://127.0.0.1:$port/mcp" > /dev/null 2> "$tls/err"
status=$?
set -e
kill "$pid"; wait "$pid" 2>/dev/null || true
[ $status = 69 ] || { cat "$tls/err" >&2; echo "ekl mcp over https without --ca: exit $status, not 69" >&2; exit 1; }
grep -q "the server's certificate for 127.0.0.1 has an unknown issuer (no web PKI root): for a private server, give its certificate or CA with --ca FILE.pem" "$tls/err" \
  || { cat "$tls/err" >&2; echo "ekl mcp over https without --ca: not the worded refusal" >&2; exit 1; }
echo "ekl mcp over https://: a private CA's server read with --ca, refused without it ($(head -c 120 "$tls/err"))"
# 6c. the certificate most people make (issue 44.1): `openssl req -x509`, self-signed, CA:TRUE,
#     served as is; given with --ca it is trusted (as curl's --cacert does)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=127.0.0.1" \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$tls/self.key" -out "$tls/self.pem" 2>/dev/null
openssl x509 -in "$tls/self.pem" -noout -text | grep -q "CA:TRUE" || { echo "openssl req -x509 did not mark it CA:TRUE: the step tests nothing" >&2; exit 1; }
port=$(free_port)
"$EX_PYTHON" examples/mcp/hostile_server.py plain --http "$port" --tls "$tls/self.pem" "$tls/self.key" > "$tls/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^listening ' "$tls/out" && break; sleep 0.1; done
out=$(timeout 60 "$ekl" mcp --ca "$tls/self.pem" --url "https://127.0.0.1:$port/mcp")
kill "$pid"; wait "$pid" 2>/dev/null || true
"$EX_PYTHON" -c 'import json, sys; r = json.loads(sys.argv[1]); assert [t["name"] for t in r["projection"]] == ["real"], r' "$out"
echo "ekl mcp over https://: the self-signed CA:TRUE certificate of openssl req -x509, given with --ca, is trusted"

# 7. the hostile MCP servers against the three surfaces
for surface in py js cli; do
  (cd examples/mcp && EKL_PYTHON="$EX_PYTHON" timeout 1800 "$EX_PYTHON" hostile.py "$surface" --ekl "$ekl")
done
echo "MCP hostile suite: decoys, floods, a deaf server, endless and oversized lines, invalid UTF-8, looping cursors, the SDKs' readings (ids, encodings, charsets, BOM): each fingerprinted as the SDK was handed it or refused with its code, in time and under 300 MB, on the Python and JS modules and ekl mcp"

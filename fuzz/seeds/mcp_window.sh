#!/usr/bin/env bash
# Seeds for `mcp_window`: a call's answer, decoys next to it, a notification, a server's request,
# a listing page and an event stream. Writes into "$1".
set -euo pipefail
out=$1
mkdir -p "$out"
put() { printf '%s' "$2" > "$out/$1"; }
put answer '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"x"}]}}'
put decoy-version $'{"jsonrpc":"1.0","id":5,"result":{}}\n{"jsonrpc":"2.0","id":5,"result":{}}'
put decoy-batch '[{"jsonrpc":"2.0","id":5,"result":{}}]'
put decoy-string $'{"jsonrpc":"2.0","id":"5","result":{}}\n{"jsonrpc":"2.0","id":5,"result":{}}'
put second $'{"jsonrpc":"2.0","id":5,"result":{}}\n{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"m"}}'
put routed $'{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n{"jsonrpc":"2.0","id":"s","method":"ping"}\n>{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo"}}\n{"jsonrpc":"2.0","id":6,"result":{}}'
put page '{"tools":[{"name":"a"}],"nextCursor":"c"}'
put sse $'event: message\r\nid: 1\r\ndata: {"jsonrpc":"2.0",\r\ndata: "id":5,"result":{}}\r\n\r\n'

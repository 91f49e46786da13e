#!/usr/bin/env bash
# The main job: build the `ekl` tool and run it over the sample in examples/sample, then the
# dashboard (scripts/demo.d/50-dashboard.sh: --no-serve not to serve it at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
# cargo's own notes (future-incompatibility reports of dependencies) are not the demo's output.
cargo build --release -q -p ekl-cli --bin ekl 2> >(grep -v -e 'future version of Rust' -e 'future-incompat' -e '^note: ' >&2)
ekl=target/release/ekl
s=examples/sample
salt=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
step() { printf '\n\033[1m%s\033[0m\n' "$*"; }
step "ekl-json-1 canonical form of $s/input.json"
$ekl canon "$s/input.json"; echo
step "its SHA-256"
$ekl digest "$s/input.json"
step "input commitment (capability input: 256 KB limit applies)"
$ekl commit --capability-input "$s/input.json"
step "salted input fingerprint (§15.3)"
$ekl fingerprint --salt "$salt" "$s/input.json"
step "output fingerprint of the MCP tool result (structuredContent)"
$ekl output-fingerprint --salt "$salt" "$s/tool-result.json"
step "upstream fingerprint of the offered tools (§5.1)"
$ekl upstream-fingerprint --offered extract_invoice,summarise_invoice "$s/tools-list.json"
step "a refusal: duplicate keys after unescaping"
echo '{"a":1,"\u0061":2}' | $ekl canon || echo "(exit status $?)"
for extra in scripts/demo.d/*.sh; do
  [ -e "$extra" ] || continue
  bash "$extra" "$@"
done

#!/usr/bin/env bash
# Seeds for `proofs`: a few NUL-separated (agent key, challenge, endpoint, presented, nonce) tuples.
set -euo pipefail
out=$1
mkdir -p "$out"
printf 'ak_live_1\0ch_1\0https://agent.example/mcp\0%s\0n_1' "$(printf '0%.0s' $(seq 64))" > "$out/zeros"
printf '\002key\0challenge\0endpoint\0\0nonce' > "$out/v2"
printf '\001key\0challenge\0endpoint\0abc\0nonce' > "$out/v1"
printf '\003\0\0\0\0' > "$out/empty"

#!/usr/bin/env bash
# Seeds for `remote_jwks`: an event sequence over a key set body, and options as
# JSON (the state lives in the handle since issue 42). Writes into "$1".
set -euo pipefail
out=$1
mkdir -p "$out"
set='{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"IBPaEMdAdqp6YxXlh70zMSKLxblldoQmMNdSuUfZ6ow","y":"I9B6U2c_y7Iwzk1NQNbXCWZzGpmBvc1Tbvs_CYkL8Ik"}]}'
# mode 1 (https, events), options (cooldown 30, max-age 3x, stale 7x, max_bytes 16x), events, body
printf '\x03\x1e\x64\x64\xff\x00\x00\x00\x01\x00\x01\x00\x10\x00\x03\x04\x03\x05\x00\x00\x06\x00\x00\x02\x40\x00\x00\x00\x00' > "$out/events"
{ cat "$out/events"; printf '%*s' $((96 - 29)) ''; printf '%s' "$set"; } > "$out/events-body"
printf '\x00{"cooldown":30,"max_bytes":1024,"timeout_ms":5000}' > "$out/options"

echo "remote_jwks seeds: 3"

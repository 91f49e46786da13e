#!/usr/bin/env bash
# Seeds for `text_vs_value`: the same as `canonicalize` (every vector file and every "input" case).
exec "$(dirname "$0")/canonicalize.sh" "$@"

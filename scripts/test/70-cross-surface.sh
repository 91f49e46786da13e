#!/usr/bin/env bash
# Cross-surface agreement at CI size (10,000 generated JSON texts, 100,000 random doubles, every
# vector file) over the surfaces built by the earlier steps (30-python, 40-node, 50-wasm): Rust
# (`ekl conformance --serve`), the installed Python package, the Node package, wasm in Node and
# wasm in headless Chromium. A surface that is not built is a FAILURE, not a skip.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec bash scripts/cross-surface.sh "$@"

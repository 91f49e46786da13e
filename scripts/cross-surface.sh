#!/usr/bin/env bash
# Cross-surface agreement (Rust, Python, Node, wasm in Node, wasm in headless Chromium): the same
# seeded request stream through every surface's conformance adapter, compared byte for byte.
#   scripts/cross-surface.sh            CI size (10,000 JSON texts, 100,000 doubles)
#   scripts/cross-surface.sh --full     full size (100,000 JSON texts, 1,000,000 doubles)
# Other options: see tools/cross-surface/run.py --help. Surfaces are taken as built by
# scripts/test/30-python.sh, 40-node.sh and 50-wasm.sh (EKL_PYTHON, EKL_NODE_PACKAGE_DIR,
# EKL_WASM_PACKAGE override).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p ekl-cli --bin ekl
exec python3 tools/cross-surface/run.py "$@"

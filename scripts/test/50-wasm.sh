#!/usr/bin/env bash
# WebAssembly: builds the wasm package (installing the wasm32 target, the pinned wasm-bindgen-cli,
# the npm tools and Debian's chromium when missing), then runs its tests: API surface and types,
# refusals, every vector file in Node and in headless Chromium against the native CLI, size budget,
# the packed tarball in a fresh folder. The dashboard has its own step (55-dashboard.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash wasm/scripts/tools.sh
bash wasm/scripts/build.sh
cargo build --release -q -p ekl-cli --bin ekl
cd wasm
node --test --test-concurrency=1 test/*.test.mjs

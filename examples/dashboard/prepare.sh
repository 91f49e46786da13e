#!/usr/bin/env bash
# Makes examples/dashboard/ servable: builds the wasm package (wasm/scripts/build.sh), copies its
# verify build (wasm/dist-verify: the package's browser entry, as node/wasm/ ships it; what
# verifying receipts needs, docs/decisions/wasm.md#verify-build) to vendor/ekl-evidence/ next to
# the page, builds the ekl CLI and regenerates the sample with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash wasm/scripts/build.sh
cargo build --release -q -p ekl-cli --bin ekl
rm -rf examples/dashboard/vendor && mkdir -p examples/dashboard/vendor
cp -r wasm/dist-verify examples/dashboard/vendor/ekl-evidence
node examples/dashboard/make-sample.mjs

#!/usr/bin/env bash
# Makes examples/dashboard/ servable: builds the wasm package (wasm/scripts/build.sh), copies it to
# vendor/ekl-evidence/ (the package's browser build, as node/wasm/ ships it) next to the page, builds the ekl CLI and regenerates the sample with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash wasm/scripts/build.sh
cargo build --release -q -p ekl-cli --bin ekl
rm -rf examples/dashboard/vendor && mkdir -p examples/dashboard/vendor
cp -r wasm/dist examples/dashboard/vendor/ekl-evidence
node examples/dashboard/make-sample.mjs

#!/usr/bin/env bash
# The receipt-verification dashboard: builds the wasm package into the page, regenerates the sample
# with the CLI (it must equal the checked-in one), generates 10,000 network-signed receipts for the
# timing, then the end-to-end tests in headless Chromium (screenshots in target/dashboard/).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash wasm/scripts/tools.sh
bash examples/dashboard/prepare.sh
git diff --exit-code -- examples/dashboard/sample || { echo "the sample changed when regenerated" >&2; exit 1; }
if node examples/dashboard/make-sample.mjs target/dashboard --signed 10000 2>/dev/null; then :; else
  echo "55-dashboard: no network-signed receipts to time (the CLI cannot issue them)"; fi
node --test --test-concurrency=1 examples/dashboard/test/*.test.mjs

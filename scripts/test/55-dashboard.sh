#!/usr/bin/env bash
# The receipt-verification dashboard: builds the wasm package into the page, regenerates the sample
# with the CLI (it must equal the checked-in one), installs axe-core for the accessibility scans,
# generates 100,000 network-signed receipts for the large-file test and the operator's triage file
# (10,000 receipts, 400 bad: issue 43) (once each; deterministic), then the
# unit tests in Node and the end-to-end tests in headless Chromium. Screenshots of every state and
# the measured figures go to target/dashboard/ (shots/, figures-*.json).
# EKL_DASH_ASSERT_SPEED=1 also asserts the speed budgets (8 s for 100,000 receipts, no main-thread
# task over 50 ms; EKL_TIME_FACTOR scales them); without it they are measured and printed only.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash wasm/scripts/tools.sh
bash examples/dashboard/prepare.sh
git diff --exit-code -- examples/dashboard/sample || { echo "the sample changed when regenerated" >&2; exit 1; }
if [ ! -f examples/dashboard/node_modules/axe-core/axe.min.js ]; then
  (cd examples/dashboard && npm install --no-package-lock --no-audit --no-fund --loglevel=error)
fi
big=target/dashboard/signed-100000.jsonl
if [ ! -s "$big" ] || [ examples/dashboard/make-sample.mjs -nt "$big" ]; then
  node examples/dashboard/make-sample.mjs target/dashboard --signed 100000
fi
triage=target/dashboard/triage-10000.jsonl
if [ ! -s "$triage" ] || [ examples/dashboard/make-sample.mjs -nt "$triage" ]; then
  node examples/dashboard/make-sample.mjs target/dashboard --triage 10000
fi
node --test --test-concurrency=1 examples/dashboard/test/unit.test.mjs examples/dashboard/test/dashboard.test.mjs

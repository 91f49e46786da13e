#!/usr/bin/env bash
# The receipt-verification dashboard: builds the wasm package, copies it next to the page, checks the
# page in headless Chromium with the sample set (one click: the URL's #sample), and prints the URL.
# EKL_DEMO_SERVE=1 keeps serving the page until Ctrl-C (otherwise the demo ends here).
set -euo pipefail
cd "$(dirname "$0")/../.."
step() { printf '\n\033[1m%s\033[0m\n' "$*"; }
step "receipt-verification dashboard (examples/dashboard): wasm build"
bash examples/dashboard/prepare.sh >/dev/null
node examples/dashboard/check.mjs
port=${EKL_DEMO_PORT:-8787}
if [ "${EKL_DEMO_SERVE:-0}" = 1 ]; then
  echo "serving; open http://127.0.0.1:$port/#sample (Ctrl-C to stop)"
  exec node examples/dashboard/serve.mjs --port "$port"
fi
echo "to open it: EKL_DEMO_SERVE=1 ./run demo, then http://127.0.0.1:$port/#sample"
echo "(or serve examples/dashboard/ with any static server)"

#!/usr/bin/env bash
# The receipt-verification dashboard: verifies the sample archive with the CLI (the verdicts go to a
# file named below), builds the wasm package, copies it next to the page, checks the page in
# headless Chromium when /usr/bin/chromium is there (one line on how to look yourself otherwise),
# then serves it on 127.0.0.1 until Ctrl-C.
#   ./run demo --no-serve       do not serve (also EKL_DEMO_SERVE=0)
#   EKL_DEMO_PORT=N             the port (default 8787; a free one when it is taken)
# A run whose standard input is not a terminal does not serve (it would wait for no one).
set -euo pipefail
cd "$(dirname "$0")/../.."
step() { printf '\n\033[1m%s\033[0m\n' "$*"; }
serve=${EKL_DEMO_SERVE:-auto}
for a in "$@"; do [ "$a" = --no-serve ] && serve=0; done

step "verify the sample archive (examples/dashboard/sample/receipts.jsonl) with the CLI"
out=target/demo
mkdir -p "$out"
node -e 'process.stdout.write(JSON.stringify(require("./examples/dashboard/sample/settings.json").receipt_secrets))' > "$out/key-ring.json"
set +e
target/release/ekl receipt verify-archive --no-progress --key-ring "$out/key-ring.json" \
  --jwks examples/dashboard/sample/jwks.json --agent-id agt_c0ns7m3r4a --issuer https://network.example \
  examples/dashboard/sample/receipts.jsonl > "$out/verdicts.jsonl"
status=$?
set -e
[ "$status" -le 1 ] || { echo "ekl receipt verify-archive failed (exit $status)" >&2; exit 1; }
echo "verdicts, one JSON line per receipt: $out/verdicts.jsonl (exit status 1: some are not accepted, as the sample means)"

step "receipt-verification dashboard (examples/dashboard): wasm build"
log=$out/dashboard-build.log
# The build's output goes to the log; its "tools: …" lines (a one-time install) are shown as they
# come, so a first run on a machine says why it takes a minute more.
if ! bash examples/dashboard/prepare.sh 2>&1 | tee "$log" | { grep --line-buffered '^tools: installing' || true; }; then
  tail -n 20 "$log" >&2
  echo "the dashboard's build failed (the whole log: $log)" >&2
  exit 1
fi
echo "built: examples/dashboard/vendor/ekl-evidence (log: $log)"
if [ -x "${EKL_CHROMIUM:-/usr/bin/chromium}" ] && [ -d wasm/node_modules/playwright-core ]; then
  node examples/dashboard/check.mjs
else
  echo "no Chromium here: the headless check is skipped; open the URL below in your browser (./run test installs Chromium)"
fi

port=${EKL_DEMO_PORT:-8787}
if [ "$serve" = 0 ] || { [ "$serve" = auto ] && [ ! -t 0 ]; }; then
  echo "to look at it: ./run demo in a terminal (it serves the page), or node examples/dashboard/serve.mjs, then open http://127.0.0.1:$port/#sample"
  exit 0
fi
if ! node -e 'const s=require("net").createServer().once("error",()=>process.exit(1)).listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$port"; then
  port=0
fi
step "serving the dashboard on 127.0.0.1 (Ctrl-C to stop); open the URL, #sample loads the sample"
exec node examples/dashboard/serve.mjs --port "$port"

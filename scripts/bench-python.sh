#!/usr/bin/env bash
# Python benchmark (issue 4): ekl_evidence against rfc8785, jcs, canonicaljson and jcs-admit (one
# run, one corpus; with --receipts DIR also issue 28's rows on the shared corpus) and ES256 verification against cryptography and PyJWT (python/bench/bench.py). Called by scripts/bench.sh as its `python` step, or directly:
#   bash scripts/bench-python.sh [--quick] [--json OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
venv="$CARGO_TARGET_DIR/python-bench"
pins="maturin==1.16.0 rfc8785==0.1.4 jcs==0.2.1 canonicaljson==2.0.0 jcs-admit==0.1.0 cryptography==50.0.2 PyJWT==2.15.1"
# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh
# shellcheck disable=SC2086 # one word a pin
ekl_venv "$venv" $pins
wheels="$CARGO_TARGET_DIR/python-bench-wheels"
rm -rf "$wheels"
"$venv/bin/maturin" build --release -q -m python/Cargo.toml -o "$wheels"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/ekl_evidence-*.whl
cd "$CARGO_TARGET_DIR"   # not the source tree: the installed package is measured
exec "$venv/bin/python" "$repo/python/bench/bench.py" "$@"

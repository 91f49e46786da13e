#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# The Dask recipe (examples/dask): a partitioned receipt archive verified on a local Dask
# distributed cluster of 2 worker processes, the workers writing their outputs to local files and
# to an S3-compatible server (moto, started by the test on 127.0.0.1), gives the single-process
# verdicts and the CLI's output byte for byte; the README's sh blocks run as written. The Python
# wheel of the python step is reused (built here when missing or older than the sources); the CLI
# is built (release, as the rust step); examples/dask/requirements.txt (every version pinned) is
# installed into a venv of its own (scripts/lib/venv.sh: re-created when the file changes); the
# recipe's scripts are type-checked there first (mypy --strict, examples/dask/mypy.ini).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
work="$CARGO_TARGET_DIR/dask-test"
mkdir -p "$work"
PYTEST=9.2.0 MATURIN=1.16.0 ZIGLANG=0.17.1 MYPY=2.4.1
# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh

# The newest wheel of the python step's or of this step's own build.
wheel=$(ls -t "$CARGO_TARGET_DIR"/python-test/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl \
  "$work"/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ] || [ -n "$(find python/src core/src bridge/src -newer "$wheel" -name '*.rs' | head -1)" ]; then
  tools="$work/tools"
  ekl_venv "$tools" "maturin==$MATURIN" "ziglang==$ZIGLANG"
  rm -rf "$work/wheels"
  PATH="$tools/bin:$PATH" maturin build --release --zig --compatibility manylinux2014 -m python/Cargo.toml -o "$work/wheels" -q
  wheel=$(ls "$work"/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl)
fi

cargo build --release -q -p ekl-cli
export EKL_BIN="$CARGO_TARGET_DIR/release/ekl"

venv="$work/venv"
ekl_venv "$venv" -r examples/dask/requirements.txt "pytest==$PYTEST" "mypy==$MYPY"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
# The recipe's three scripts under mypy --strict (examples/dask/mypy.ini), against the installed
# package's stubs and the pinned dask.
"$venv/bin/python" -m mypy --config-file examples/dask/mypy.ini --no-incremental \
  examples/dask/make_archive.py examples/dask/verify_archive.py examples/dask/scaling.py
run_dir="$work/run"
rm -rf "$run_dir" && mkdir -p "$run_dir"
cd "$run_dir"
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/examples/dask/test_dask.py"

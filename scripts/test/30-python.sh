#!/usr/bin/env bash
# Python package (python/, import name ekl_evidence), from scratch and idempotent:
#   1. a tools venv with pinned maturin, ziglang, pytest, hypothesis, mypy (reused when current);
#   2. a manylinux2014 abi3 wheel built with maturin --zig (workspace target dir: the core is
#      not compiled twice);
#   3. the wheel installed into a FRESH venv; pytest runs there, from outside the source tree,
#      against the installed package; mypy.stubtest checks the stubs against the compiled module;
#      mypy --strict and pyright (strict) check the examples against the stubs;
#   3b. the same wheel under CPython 3.9 (the abi3 floor), when installed;
#   4. `pip install ./python` (the README's way, built through maturin) into another fresh venv,
#      and a smoke test of that install.
# Set EKL_PY_QUICK=1 to skip step 4.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
py=${PYTHON:-python3}
work="$CARGO_TARGET_DIR/python-test"
mkdir -p "$work"

# Pinned versions (checked to work together here, see /work/shared/TOOLCHAIN.md and the decisions).
MATURIN=1.16.0 ZIGLANG=0.17.1 PYTEST=9.2.0 HYPOTHESIS=6.170.17 MYPY=2.4.1
pins="maturin==$MATURIN ziglang==$ZIGLANG pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY"
test_pins="pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY"

# 1. tools venv
tools="$work/tools"
if [ "$(cat "$tools/.pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$tools"
  "$py" -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check $pins
  echo "$pins" > "$tools/.pins"
fi
export PATH="$tools/bin:$PATH"

# 2. the portable wheel
wheels="$work/wheels"
rm -rf "$wheels"
t0=$(date +%s)
maturin build --release --zig --compatibility manylinux2014 -m python/Cargo.toml -o "$wheels" -q
wheel=$(ls "$wheels"/ekl_evidence-*-cp39-abi3-manylinux*.whl)
echo "built $(basename "$wheel") in $(( $(date +%s) - t0 )) s"

# 3. fresh venv, installed wheel, tests from outside the source tree
venv="$work/venv-wheel"
"$py" -m venv --clear "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel" $test_pins
# pyright (strict, examples/pyrightconfig.json): the npm package, pinned (scripts/examples-env.sh)
source "$repo/scripts/examples-env.sh"
ex_pyright "$CARGO_TARGET_DIR/pyright"
run_dir="$work/run"
rm -rf "$run_dir" && mkdir -p "$run_dir"
(
  cd "$run_dir"
  "$venv/bin/python" -m mypy.stubtest ekl_evidence --allowlist "$repo/python/stubtest-allowlist.txt"
  "$venv/bin/python" -m mypy --strict --no-incremental "$repo/examples/python/agent.py" "$repo/examples/conformance/python_adapter.py"
  "$PYRIGHT_BIN" -p "$repo/examples/pyrightconfig.json" --pythonpath "$venv/bin/python" \
    "$repo/examples/python/agent.py" "$repo/examples/conformance/python_adapter.py"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/python/tests"
)

# 3b. the same wheel on the oldest Python it claims (abi3, CPython 3.9), when one is installed
py39=""
for cand in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9.*/bin/python3.9 /usr/bin/python3.9 /usr/local/bin/python3.9; do
  if [ -x "$cand" ] && "$cand" -c 'import venv' 2>/dev/null; then py39=$cand; break; fi
done
if [ -n "$py39" ] && [ "${EKL_PY_QUICK:-0}" != "1" ]; then
  venv39="$work/venv-wheel-py39"
  "$py39" -m venv --clear "$venv39"
  # pytest 9 needs Python 3.10 and hypothesis 6.142 needs 3.10: the last ones for 3.9
  "$venv39/bin/python" -m pip install -q --disable-pip-version-check "$wheel" pytest==8.3.5 hypothesis==6.141.1
  (cd "$run_dir" && "$venv39/bin/python" -m pytest -q -p no:cacheprovider \
    "$repo/python/tests/test_conversion.py" "$repo/python/tests/test_vectors.py" "$repo/python/tests/test_errors.py")
else
  echo "no CPython 3.9 here: the abi3 floor is not exercised"
fi

# 4. pip install ./python (sdist-style build through maturin) into another fresh venv
if [ "${EKL_PY_QUICK:-0}" != "1" ]; then
  venv2="$work/venv-source"
  "$py" -m venv --clear "$venv2"
  t0=$(date +%s)
  "$venv2/bin/python" -m pip install -q --disable-pip-version-check ./python "pytest==$PYTEST" "hypothesis==$HYPOTHESIS"
  echo "pip install ./python took $(( $(date +%s) - t0 )) s"
  (
    cd "$run_dir"
    "$venv2/bin/python" -m pytest -q -p no:cacheprovider \
      "$repo/python/tests/test_vectors.py" "$repo/python/tests/test_readme.py" "$repo/python/tests/test_api.py"
    "$venv2/bin/python" "$repo/examples/python/agent.py" > /dev/null
  )
fi

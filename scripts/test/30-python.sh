#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# Python package (python/, import name ekl_evidence), from scratch and idempotent:
#   1. a tools venv with pinned maturin, ziglang, pytest, hypothesis, mypy, auditwheel, ruff
#      (scripts/python-tools.sh, reused when current); ruff lints the package, its tests and tools
#      (rules in python/pyproject.toml [tool.ruff]): a finding fails the step before anything builds;
#   2. a manylinux2014 abi3 wheel built with maturin --zig (workspace target dir: the core is
#      not compiled twice); its size budget, license files and auditwheel tag;
#   3. the wheel installed into a FRESH venv from a local wheelhouse only (pip --no-index), with
#      no Rust toolchain on PATH; pytest runs there, from outside the source tree, against the
#      installed package; mypy.stubtest checks the stubs against the compiled module; mypy
#      --strict and pyright (strict) check the examples and the README blocks against the stubs;
#   3b. the same wheel under CPython 3.9 (the abi3 floor), when installed;
#   4. the sdist: without cargo on PATH pip stops at once with the backend's one-line message;
#      with cargo pip builds it into another fresh venv, and a smoke test of that install.
# Set EKL_PY_QUICK=1 to skip step 4.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
work="$CARGO_TARGET_DIR/python-test"
mkdir -p "$work"

# 1. the tools venv (pinned maturin, ziglang, pytest, hypothesis, mypy, auditwheel, ruff, and
#    redis-py for the tests); Debian's redis-server for the replay guard's tests (scripts/redis-server.sh)
source scripts/python-tools.sh   # and ekl_venv (scripts/lib/venv.sh) for the venvs below
source scripts/redis-server.sh
export PATH="$tools/bin:$PATH"

# Lint first (about 0.1 s): python/ekl_evidence, python/tests, python/tools, python/build_backend
t0=$(date +%s%N)
(cd python && ruff check --no-cache --quiet .)
echo "ruff check python/: clean in $(( ($(date +%s%N) - t0) / 1000000 )) ms"

# The license files the wheel and the sdist carry are copies of the repository's.
for f in LICENSE-APACHE LICENSE-MIT; do cmp -s "$f" "python/$f" || { echo "python/$f differs from $f: copy it" >&2; exit 1; }; done

# 2. the portable wheel
wheels="$work/wheels"
rm -rf "$wheels"
t0=$(date +%s)
maturin build --release --zig --compatibility manylinux2014 -m python/Cargo.toml -o "$wheels" -q
wheel=$(ls "$wheels"/ekl_evidence-*-cp39-abi3-manylinux*.whl)
echo "built $(basename "$wheel") in $(( $(date +%s) - t0 )) s: $(( $(stat -c %s "$wheel") / 1024 )) KB (budget 1536 KB)"
[ "$(stat -c %s "$wheel")" -le $((1536 * 1024)) ] || { echo "the wheel is over its size budget (docs/decisions.md#packaging)" >&2; exit 1; }
# shellcheck disable=SC2015 # the echo cannot fail
unzip -l "$wheel" | grep "dist-info/licenses/LICENSE-MIT" >/dev/null && unzip -l "$wheel" | grep "dist-info/licenses/LICENSE-APACHE" >/dev/null \
  || { echo "the wheel lacks a license file" >&2; exit 1; }
auditwheel show "$wheel" | tr '\n' ' ' | grep '"manylinux_2_17_x86_64"' >/dev/null || { auditwheel show "$wheel"; exit 1; }

# A local wheelhouse: the wheel and the test tools (downloaded once), so the installs below use no
# index at all.
house="$work/wheelhouse"
if [ "$(cat "$house/.pins" 2>/dev/null)" != "$test_pins" ]; then
  rm -rf "$house" && mkdir -p "$house"
  # shellcheck disable=SC2086 # one word a pin
  "$tools/bin/python" -m pip download -q --disable-pip-version-check -d "$house" $test_pins
  echo "$test_pins" > "$house/.pins"
fi
rm -f "$house"/ekl_evidence-*.whl && cp "$wheel" "$house/"
# No Rust toolchain on PATH for the installs and the tests (pip must not find cargo or maturin).
bare_path=/usr/bin:/bin

# 3. fresh venv, installed wheel, tests from outside the source tree
venv="$work/venv-wheel"
ekl_venv --fresh "$venv"
t0=$(date +%s%N)
PATH=$bare_path "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-index --find-links "$house" ekl-evidence
echo "pip install --no-index ekl-evidence (local wheelhouse, no cargo on PATH): $(( ($(date +%s%N) - t0) / 1000000 )) ms"
# shellcheck disable=SC2086 # one word a pin
PATH=$bare_path "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-index --find-links "$house" $test_pins
# pyright (strict, examples/pyrightconfig.json): the npm package, pinned (scripts/examples-env.sh)
source "$repo/scripts/examples-env.sh"
ex_pyright "$CARGO_TARGET_DIR/pyright"
run_dir="$work/run"
rm -rf "$run_dir" && mkdir -p "$run_dir"
(
  cd "$run_dir"
  export PATH=$bare_path
  "$venv/bin/python" -m mypy.stubtest ekl_evidence --allowlist "$repo/python/stubtest-allowlist.txt"
  "$venv/bin/python" -m mypy --strict --no-incremental "$repo/examples/python/agent.py" "$repo/examples/conformance/python_adapter.py"
  "$PYRIGHT_BIN" -p "$repo/examples/pyrightconfig.json" --pythonpath "$venv/bin/python" \
    "$repo/examples/python/agent.py" "$repo/examples/conformance/python_adapter.py"
  # The README and doc pages' blocks as a user copies them, under the same strict checkers
  # (python/tools/readme_blocks.py; tests/test_readme.py executes them)
  "$venv/bin/python" "$repo/python/tools/readme_blocks.py" "$run_dir/readme-blocks"
  (cd "$run_dir/readme-blocks" && "$venv/bin/python" -m mypy --strict --no-incremental .)
  "$PYRIGHT_BIN" -p "$repo/examples/pyrightconfig.json" --pythonpath "$venv/bin/python" "$run_dir/readme-blocks"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$repo/python/tests"
)

# 3b. the same wheel on the oldest Python it claims (abi3, CPython 3.9), when one is installed
py39=""
for cand in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9.*/bin/python3.9 /usr/bin/python3.9 /usr/local/bin/python3.9; do
  if [ -x "$cand" ] && "$cand" -c 'import venv' 2>/dev/null; then py39=$cand; break; fi
done
if [ -n "$py39" ] && [ "${EKL_PY_QUICK:-0}" != "1" ]; then
  venv39="$work/venv-wheel-py39"
  # pytest 9 needs Python 3.10 and hypothesis 6.142 needs 3.10: the last ones for 3.9
  ekl_venv --python "$py39" "$venv39" pytest==8.3.5 hypothesis==6.141.1
  "$venv39/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
  (cd "$run_dir" && "$venv39/bin/python" -m pytest -q -p no:cacheprovider \
    "$repo/python/tests/test_conversion.py" "$repo/python/tests/test_vectors.py" "$repo/python/tests/test_errors.py")
else
  echo "no CPython 3.9 here: the abi3 floor is not exercised"
fi

# 4. the sdist: without cargo on PATH, one clear error at once (no toolchain download); with cargo,
#    pip builds it (through the in-tree backend, python/build_backend/) into another fresh venv.
if [ "${EKL_PY_QUICK:-0}" != "1" ]; then
  # SOURCE_DATE_EPOCH=now: maturin dates every file of the sdist by it (a fixed 2006 date
  # otherwise), and cargo, building the sdist with the shared target dir, decides by dates whether
  # a cached unit of the workspace's crates is fresh: with old dates it took a stale one (built
  # from older sources at the same relative path) and the build failed on code the sdist does hold.
  SOURCE_DATE_EPOCH=$(date +%s) maturin sdist -m python/Cargo.toml -o "$work/sdist" >/dev/null
  sdist=$(ls -t "$work"/sdist/ekl_evidence-*.tar.gz | head -1)
  for f in LICENSE-APACHE LICENSE-MIT build_backend/ekl_build.py; do
    tar -tzf "$sdist" | grep "/$f\$" >/dev/null || { echo "the sdist lacks $f" >&2; exit 1; }
  done
  venv3="$work/venv-nocargo"
  ekl_venv --fresh "$venv3" "maturin==$MATURIN"
  if out=$(PATH=$bare_path "$venv3/bin/python" -m pip install --no-index --no-build-isolation --disable-pip-version-check "$sdist" 2>&1); then
    echo "the sdist installed without cargo on PATH?" >&2; exit 1
  fi
  grep -q "ekl-evidence: building from source needs a Rust toolchain" <<< "$out" || { echo "$out" >&2; exit 1; }
  echo "sdist without cargo: $(grep -o 'ekl-evidence: building from source needs a Rust toolchain.*none was found\.' <<< "$out" | head -1)"
  venv2="$work/venv-source"
  ekl_venv --fresh "$venv2"
  t0=$(date +%s)
  # --no-cache-dir: pip caches the wheel it built from a local sdist by its path, and the sdist
  # keeps its name between builds, so without it a later run installs the first build again
  "$venv2/bin/python" -m pip install -q --no-cache-dir --disable-pip-version-check "$sdist" "pytest==$PYTEST" "hypothesis==$HYPOTHESIS"
  echo "pip install $(basename "$sdist") (built with cargo) took $(( $(date +%s) - t0 )) s"
  (
    cd "$run_dir"
    "$venv2/bin/python" -m pytest -q -p no:cacheprovider \
      "$repo/python/tests/test_vectors.py" "$repo/python/tests/test_readme.py" "$repo/python/tests/test_api.py"
    "$venv2/bin/python" "$repo/examples/python/agent.py" > /dev/null
  )
fi

# Sourced by scripts/test/30-python.sh and scripts/dist.sh: the tools venv ($tools) with the pinned
# build and test tools, created or re-created when the pins change. Sets $tools and the pins.
# Pinned versions (checked to work together here, see /work/shared/TOOLCHAIN.md and the decisions).
MATURIN=1.16.0 ZIGLANG=0.17.1 PYTEST=9.2.0 HYPOTHESIS=6.170.17 MYPY=2.4.1 AUDITWHEEL=6.8.2 REDIS_PY=8.1.0 RUFF=0.17.6
# ruff: the linter of python/ (its rules in python/pyproject.toml [tool.ruff])
pins="maturin==$MATURIN ziglang==$ZIGLANG pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY auditwheel==$AUDITWHEEL ruff==$RUFF"
test_pins="pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY redis==$REDIS_PY"
tools="${CARGO_TARGET_DIR:-$PWD/target}/python-test/tools"
if [ "$(cat "$tools/.pins" 2>/dev/null)" != "$pins" ]; then
  rm -rf "$tools"
  "${PYTHON:-python3}" -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check $pins
  echo "$pins" > "$tools/.pins"
fi

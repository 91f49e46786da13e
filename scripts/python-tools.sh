# shellcheck shell=bash
# Sourced by scripts/test/30-python.sh and scripts/dist.sh: the tools venv ($tools) with the pinned
# build and test tools (scripts/lib/venv.sh: reused, or re-created when the pins change). Sets
# $tools and the pins.
# Pinned versions (checked to work together here, see /work/shared/TOOLCHAIN.md and the decisions).
MATURIN=1.16.0 ZIGLANG=0.17.1 PYTEST=9.2.0 HYPOTHESIS=6.170.17 MYPY=2.4.1 AUDITWHEEL=6.8.2 REDIS_PY=8.1.0 RUFF=0.17.6
# pytest-xdist and pytest-random-order: the stress run's parallel, shuffled runs (scripts/stress.sh;
# both inactive unless asked: -n, --random-order), with execnet, xdist's dependency, pinned too.
PYTEST_XDIST=3.8.0 EXECNET=2.1.2 PYTEST_RANDOM_ORDER=1.2.0
# ruff: the linter of python/ (its rules in python/pyproject.toml [tool.ruff])
pins="maturin==$MATURIN ziglang==$ZIGLANG pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY auditwheel==$AUDITWHEEL ruff==$RUFF"
# shellcheck disable=SC2034 # test_pins: for 30-python.sh
test_pins="pytest==$PYTEST hypothesis==$HYPOTHESIS mypy==$MYPY redis==$REDIS_PY pytest-xdist==$PYTEST_XDIST execnet==$EXECNET pytest-random-order==$PYTEST_RANDOM_ORDER"
tools="${CARGO_TARGET_DIR:-$PWD/target}/python-test/tools"
# maturin warns that build-backend is not "maturin": it is maturin's, behind one check
# (python/build_backend/ekl_build.py), so the warning is noise in every build log.
export MATURIN_NO_MISSING_BUILD_BACKEND_WARNING=1
# shellcheck source=scripts/lib/venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/venv.sh"
# shellcheck disable=SC2086 # $pins: one word a pin
ekl_venv "$tools" $pins

# shellcheck shell=bash disable=SC2012,SC2034 # ls of the build's outputs; PYRIGHT_BIN, EX_PYTHON: for the caller
# Sourced by scripts/test/45-mcp.sh and 46-everyday.sh (and 30-python.sh for pyright): the
# environment of the examples that use packages no one here wrote, pinned and reused when current.
#   ex_pyright DIR      pyright (the npm package: the PyPI wrapper downloads node itself) in DIR
#   ex_venv             a venv with the pinned PyPI packages and the ekl_evidence wheel (built
#                       by scripts/test/30-python.sh; built here with its tools when missing)
#   ex_npm DIR          npm ci in an examples folder (again only when its lock changed)
# Versions: docs/decisions.md ("Real SDKs").
PYRIGHT=1.1.414
EX_PY_PINS="mcp==2.3.0 rfc8785==0.1.4 PyJWT==2.15.1 cryptography==50.0.2 mypy==2.4.1"
# ekl_venv: the one venv bootstrap of the scripts
# shellcheck source=scripts/lib/venv.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/venv.sh"

# npm with a bound: an install that stalls (seen once here: npm 11 idle on an open connection
# after unpacking) is stopped after 5 min and tried once more.
ex_npm_bounded() {
  timeout 300 npm "$@" || { echo "npm $1 failed or stalled: once more" >&2; timeout 300 npm "$@"; }
}

ex_pyright() {
  local dir=$1
  if [ "$(cat "$dir/.pin" 2>/dev/null)" != "$PYRIGHT" ]; then
    rm -rf "$dir" && mkdir -p "$dir"
    echo '{"name":"pyright-tool","private":true}' > "$dir/package.json"
    (cd "$dir" && ex_npm_bounded install --no-audit --no-fund --loglevel=error "pyright@$PYRIGHT" >/dev/null)
    echo "$PYRIGHT" > "$dir/.pin"
  fi
  PYRIGHT_BIN="$dir/node_modules/.bin/pyright"
}

ex_venv() {
  local target=${CARGO_TARGET_DIR:-$repo/target}
  local work="$target/examples-env"
  local wheel
  wheel=$(ls "$target"/python-test/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ]; then
    local tools="$target/python-test/tools"
    [ -x "$tools/bin/maturin" ] || { echo "no ekl_evidence wheel: run ./run test python first" >&2; return 1; }
    "$tools/bin/maturin" build --release --zig --compatibility manylinux2014 -m "$repo/python/Cargo.toml" -o "$target/python-test/wheels" -q
    wheel=$(ls "$target"/python-test/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl | head -1)
  fi
  EX_VENV="$work/venv"
  # shellcheck disable=SC2086 # one word a pin
  ekl_venv "$EX_VENV" $EX_PY_PINS
  "$EX_VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
  EX_PYTHON="$EX_VENV/bin/python"
}

ex_npm() {
  local dir=$1 want
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ ! -f "$dir/node_modules/.ekl-lock-sha256" ] || [ "$(cat "$dir/node_modules/.ekl-lock-sha256")" != "$want" ]; then
    (cd "$dir" && ex_npm_bounded ci --no-audit --no-fund --loglevel=error >/dev/null)
    echo "$want" > "$dir/node_modules/.ekl-lock-sha256"
  fi
  # ekl-evidence is a link to node/ (file:): its addon is the one 40-node.sh built
  ls "$repo"/node/*.node >/dev/null 2>&1 || { echo "no node addon: run ./run test node first" >&2; return 1; }
}

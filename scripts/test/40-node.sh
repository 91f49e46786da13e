#!/usr/bin/env bash
# Node package (node/): install the dev tools, build the napi addon (release, the workspace's
# target/ so the core is not rebuilt), check the generated loader and declarations are the ones
# checked in, type-check the declarations (tsc --noEmit on types-test/, which uses the whole API),
# run node --test, then `npm pack`, install the tarball into a fresh folder and run the smoke test
# and the whole test suite there with require and import. From scratch and idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
cd node

# 1. dev dependencies (again only when package-lock.json changed)
stamp=node_modules/.ekl-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

# 2. build
npx napi build --platform --release --js native.js --dts native.d.ts
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  if ! git -C "$ROOT" diff --exit-code -- node/native.js node/native.d.ts; then
    echo "node/native.js or node/native.d.ts changed when regenerated: commit them" >&2
    exit 1
  fi
fi

# 3. declarations
npx tsc -p tsconfig.json

# 4. tests of the package in place
# The example test compares with examples/python/agent.py: use the venv of the Python step when
# it ran before this one (./run test), so that comparison runs instead of being skipped.
venv_python="${CARGO_TARGET_DIR:-$ROOT/target}/python-test/venv-wheel/bin/python"
if [ -z "${PYTHON:-}" ] && [ -x "$venv_python" ]; then export PYTHON="$venv_python"; fi
RUST_BACKTRACE=0 node --test test/

# 5. the packed tarball in a fresh folder
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
npm pack --pack-destination "$work" --loglevel=error >/dev/null
tarball=$(ls "$work"/ekl-evidence-*.tgz)
echo "packed $(basename "$tarball"): $(du -k "$tarball" | cut -f1) KB"
mkdir "$work/fresh"
cd "$work/fresh"
echo '{"name":"fresh","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error "$tarball"
node -e '
  const ekl = require("ekl-evidence")
  const out = ekl.canonicalizeValue({ b: [1.0, "é"], a: null }).toString()
  if (out !== "{\"a\":null,\"b\":[1,\"é\"]}") throw new Error("require: " + out)
  try { ekl.canonicalize("[NaN]"); throw new Error("not refused") } catch (e) { if (e.code !== "NON_FINITE_NUMBER" || e.name !== "EklError") throw e }
  console.log("require: ok (" + ekl.backend + ", core " + ekl.coreVersion() + ")")'
node --input-type=module -e '
  import { canonicalize, fingerprint, isEklError } from "ekl-evidence"
  import ekl from "ekl-evidence"
  const out = canonicalize("{\"b\":2,\"a\":1}").toString()
  if (out !== "{\"a\":1,\"b\":2}") throw new Error("import: " + out)
  const fp = fingerprint("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", { area_ref: "loc:ca:dublin", min_beds: 3 })
  if (fp !== "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c") throw new Error("import: " + fp)
  if (ekl.canonicalize !== canonicalize || !isEklError(new ekl.EklError("INVALID_JSON", "x"))) throw new Error("import: default")
  console.log("import: ok")'
# The whole suite against the installed package (the tests resolve "ekl-evidence" from here).
cp -r "$ROOT/node/test" ./test
rm -rf ./test/.readme
EKL_REPO_ROOT="$ROOT" RUST_BACKTRACE=0 node --test test/

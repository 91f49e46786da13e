#!/usr/bin/env bash
# Node package (node/): install the dev tools, type-check (tsc --strict, checkJs) the JS shared with
# the browser build (node/js) and lint (ESLint) all of the package's JS, build the napi addon (release, the workspace's
# target/ so the core is not rebuilt), check the generated loader and declarations are the ones
# checked in, type-check the declarations (tsc --noEmit on types-test/, which uses the whole API),
# run node --test, then pack the npm packages (scripts/npm-pack.sh), install the main tarball and
# this platform's addon package into a fresh folder with --offline, check sizes, licenses and
# contents, run the smoke test and the whole suite there (backend native), then remove the platform
# package and run the vectors again (backend wasm, the bundled build). From scratch and idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
# Debian's redis-server for the replay guard's tests (test/replay.test.js starts its own)
source scripts/redis-server.sh
cd node

# 1. dev dependencies (again only when package-lock.json changed). better-sqlite3 (SqliteStore's
#    tests) is the one with an install script: its prebuilt binary comes from a host this machine
#    cannot reach, so node-gyp compiles SQLite from source, 2 to 5 minutes of `npm ci` on 2 cores.
#    npm ci runs without scripts and that one build is kept per machine, beside the wasm tools
#    ($EKL_TOOLS_DIR, default ~/.cache/ekl-evidence/tools), keyed by the package's version, Node's
#    module ABI and the platform: a fresh clone copies it (docs/decisions/testing.md#suite-time).
stamp=node_modules/.ekl-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  t0=$(date +%s)
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  bsq=node_modules/better-sqlite3
  key="better-sqlite3-$(node -p "require('./$bsq/package.json').version + '-abi' + process.versions.modules + '-' + process.platform + '-' + process.arch")"
  cache="${EKL_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ekl-evidence/tools}/$key"
  if [ -f "$cache/better_sqlite3.node" ]; then
    mkdir -p "$bsq/build/Release" && cp "$cache/better_sqlite3.node" "$bsq/build/Release/"
    how="its build copied from $cache"
  else
    npm rebuild better-sqlite3 --foreground-scripts=false --loglevel=error
    mkdir -p "$cache.tmp.$$" && cp "$bsq/build/Release/better_sqlite3.node" "$cache.tmp.$$/"
    mv -T "$cache.tmp.$$" "$cache" 2>/dev/null || rm -rf "$cache.tmp.$$"   # (another clone's run may have kept it first)
    how="built from source and kept in $cache"
  fi
  node -e 'new (require("better-sqlite3"))(":memory:").close()'
  echo "$want" > "$stamp"
  echo "npm ci: $(( $(date +%s) - t0 )) s (better-sqlite3: $how)"
fi

# 1b. the JS shared with the browser build (js/*.js): type-checked (tsc --strict, checkJs, with
#     the JSDoc types; tsconfig.check.json); all of the package's JS linted (ESLint,
#     eslint.config.mjs: js/ with the globals browsers have, the rest — entry points, tests,
#     benches, scripts — with Node's); a finding fails the step before anything builds
t0=$(date +%s%N)
npx tsc -p tsconfig.check.json
npx eslint --max-warnings 0 .
echo "tsc --checkJs of node/js and eslint of node/: clean in $(( ($(date +%s%N) - t0) / 1000000 )) ms"

# 2. build: the addon (this machine's platform) and the wasm build the package bundles (node/wasm/)
npx napi build --platform --release --js native.js --dts native.d.ts
bash "$ROOT/wasm/scripts/build.sh" >/dev/null
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  if ! git -C "$ROOT" diff --exit-code -- node/native.js node/native.d.ts; then
    echo "node/native.js or node/native.d.ts changed when regenerated: commit them" >&2
    exit 1
  fi
fi

# 3. declarations; then the README flows and the examples under tsc --strict, without a cast, in
#    the nodenext, node10 and bundler resolutions (scripts/typecheck-flows.js)
npx tsc -p tsconfig.json
node scripts/typecheck-flows.js

# 4. tests of the package in place
# The example test compares with examples/python/agent.py: use the venv of the Python step when
# it ran before this one (./run test), so that comparison runs instead of being skipped.
venv_python="${CARGO_TARGET_DIR:-$ROOT/target}/python-test/venv-wheel/bin/python"
if [ -z "${PYTHON:-}" ] && [ -x "$venv_python" ]; then export PYTHON="$venv_python"; fi
# (README snippets an interrupted run left in test/.readme-* would run as tests of their own: cleared)
rm -rf test/.readme test/.readme-*
# One test file per process (node --test), as many at once as this machine has cores: Node's
# default is one fewer (one at a time on 2 cores); the files are hermetic (docs/decisions.md#testing;
# the stress run runs them 8 at a time), so the second core is no longer idle.
conc=$(nproc 2>/dev/null || echo 2)
RUST_BACKTRACE=0 node --test --test-concurrency="$conc" test/

# 5. the packed tarballs (scripts/npm-pack.sh: the main package with the wasm build inside, and
#    the platform package of this machine), installed into a fresh folder with no network.
cd "$ROOT"
work="${CARGO_TARGET_DIR:-$ROOT/target}/npm-test"
rm -rf "$work" && mkdir -p "$work"
bash scripts/npm-pack.sh "$work/packs" node/ekl-evidence.linux-x64-gnu.node >/dev/null
version=$(node -p 'require("./node/package.json").version')
main="$work/packs/ekl-evidence-$version.tgz"
plat="$work/packs/ekl-evidence-linux-x64-gnu-$version.tgz"
for f in "$main" "$plat"; do
  n=$(stat -c %s "$f"); budget=$(( $([ "$f" = "$main" ] && echo 704 || echo 1536) * 1024 ))
  echo "packed $(basename "$f"): $((n / 1024)) KB (budget $((budget / 1024)) KB)"
  [ "$n" -le "$budget" ] || { echo "$(basename "$f") is over its size budget (docs/decisions.md#packaging)" >&2; exit 1; }
  tar -tzf "$f" | grep -x package/LICENSE-MIT >/dev/null && tar -tzf "$f" | grep -x package/LICENSE-APACHE >/dev/null \
    || { echo "$(basename "$f") lacks a license file" >&2; exit 1; }
done
if tar -tzf "$main" | grep '\.node$' >/dev/null; then echo "the main tarball holds a .node file" >&2; exit 1; fi
# Two modules, each once: the verify build (the browser entry, wasm/web/) and the full module
# (Node's fallback, wasm/node/); npm-pack.sh refuses a package that carries a file twice.
[ "$(tar -tzf "$main" | grep -c '\.wasm$')" = 2 ] || { echo "the main tarball should hold two wasm modules: the verify build and the full one" >&2; exit 1; }
for f in wasm/index.web.mjs wasm/binding.cjs wasm/web/ekl_wasm_bg.wasm wasm/node/ekl_wasm_bg.wasm wasm/index.d.mts index.d.ts native.js replay.js replay.mjs replay.d.ts replay.d.mts mcp/index.mjs mcp/index.d.mts mcp/relay.mjs bin/ekl.js; do
  tar -tzf "$main" | grep -x "package/$f" >/dev/null || { echo "the main tarball lacks $f" >&2; exit 1; }
done
if tar -tzf "$main" | grep -E '^package/(test|src|types-test|bench|npm)/' >/dev/null; then echo "tests or sources in the main tarball" >&2; exit 1; fi
# Every platform package's version is the main package's (the optional dependencies pin it).
for d in node/npm/*/; do
  v=$(node -p "require('./$d/package.json').version")
  [ "$v" = "$version" ] || { echo "$d: version $v, the main package is $version" >&2; exit 1; }
done

fresh="$work/fresh"
mkdir -p "$fresh"
cd "$fresh"
echo '{"name":"fresh","private":true}' > package.json
t0=$(date +%s%N)
npm install --offline --no-audit --no-fund --loglevel=error "$main" "$plat"
echo "npm install --offline of the two tarballs: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
smoke() { # EXPECTED-BACKEND
  EXPECT="$1" node -e '
    const ekl = require("ekl-evidence")
    if (ekl.backend !== process.env.EXPECT) throw new Error("backend " + ekl.backend + ", expected " + process.env.EXPECT)
    const out = ekl.canonicalizeValue({ b: [1.0, "é"], a: null }).toString()
    if (out !== "{\"a\":null,\"b\":[1,\"é\"]}") throw new Error("require: " + out)
    try { ekl.canonicalize("[NaN]"); throw new Error("not refused") } catch (e) { if (e.code !== "NON_FINITE_NUMBER" || e.name !== "EklError") throw e }
    console.log("require: ok (" + ekl.backend + ", core " + ekl.coreVersion() + ")")'
  EXPECT="$1" node --input-type=module -e '
    import { canonicalize, fingerprint, isEklError, backend } from "ekl-evidence"
    import ekl from "ekl-evidence"
    if (backend !== process.env.EXPECT) throw new Error("import: backend " + backend)
    const out = canonicalize("{\"b\":2,\"a\":1}").toString()
    if (out !== "{\"a\":1,\"b\":2}") throw new Error("import: " + out)
    const fp = fingerprint("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", { area_ref: "loc:ca:dublin", min_beds: 3 })
    if (fp !== "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c") throw new Error("import: " + fp)
    if (ekl.canonicalize !== canonicalize || !isEklError(new ekl.EklError("INVALID_JSON", "x"))) throw new Error("import: default")
    console.log("import: ok (" + backend + ")")'
}
smoke native
# ekl-evidence/mcp without its peer dependency (the official MCP SDK): one message naming the install
if msg=$(node --input-type=module -e 'await import("ekl-evidence/mcp")' 2>&1); then echo "ekl-evidence/mcp loaded without the MCP SDK?" >&2; exit 1; fi
grep -q "ekl-evidence/mcp needs the official MCP SDK: npm install @modelcontextprotocol/sdk" <<< "$msg" || { echo "$msg" >&2; exit 1; }
echo "ekl-evidence/mcp without the SDK: $(grep -o 'ekl-evidence/mcp needs[^:]*' <<< "$msg" | head -1)"
# The whole suite against the installed package (the tests resolve "ekl-evidence" from here).
cp -r "$ROOT/node/test" ./test
rm -rf ./test/.readme ./test/.readme-*
EKL_REPO_ROOT="$ROOT" RUST_BACKTRACE=0 node --test --test-concurrency="$conc" test/

# 6. the same folder without the platform package (a platform with no native addon): Node loads
#    the bundled wasm build by itself; every vector file and the backend-independent suites pass
#    (not the native-only ones: addon panics, the async thread pool, bounds measured in the addon).
rm -rf node_modules/ekl-evidence-linux-x64-gnu
smoke wasm
# The package's `ekl` command (bin/ekl.js) without the platform package that carries the binary:
# one line naming it, exit 127 (./run dist --host runs the binary through it).
set +e
msg=$(./node_modules/.bin/ekl --version 2>&1); status=$?
set -e
[ "$status" = 127 ] && grep -q "^ekl: no ekl binary for linux-x64-gnu: the optional package ekl-evidence-linux-x64-gnu is not installed" <<< "$msg" \
  || { echo "ekl without its platform package: exit $status: $msg" >&2; exit 1; }
EKL_REPO_ROOT="$ROOT" node --test --test-concurrency="$conc" test/vectors.test.js test/vector-calls.test.js test/convert.test.js test/corpus.test.js test/host.test.js test/issuing.test.js test/remote-jwks.test.js test/remote-jwks-scenarios.test.js test/replay.test.js test/host-apis.test.js test/readme.test.js test/result-types.test.js test/host-idioms.test.js
# 7. EKL_CORE_BACKEND=native there: the honest one-line message, not napi-rs's generic one.
if msg=$(EKL_CORE_BACKEND=native node -e 'require("ekl-evidence")' 2>&1); then echo "EKL_CORE_BACKEND=native loaded without an addon?" >&2; exit 1; fi
grep -q "^Error: ekl-evidence: EKL_CORE_BACKEND=native but the native addon ekl-evidence-linux-x64-gnu is not installed" <<< "$msg" || { echo "$msg" >&2; exit 1; }
if grep -q "npm has a bug" <<< "$msg"; then echo "napi-rs's generic message leaked: $msg" >&2; exit 1; fi
echo "without the platform package: backend wasm, vectors pass; forced native: $(grep '^Error: ekl-evidence' <<< "$msg")"
# 8. the host-only helpers' two implementations side by side, when the Python step ran before this
#    one (./run test): every RemoteJwks scenario's full outcome (messages included) and every
#    replay scenario's outcome on each store, the same in Python and JS.
tgt="${CARGO_TARGET_DIR:-$ROOT/target}"
if [ -f "$tgt/remote-jwks/python.json" ] && [ -f "$tgt/replay/python.json" ]; then
  python3 "$ROOT/tools/remote-jwks/table.py" > "$tgt/remote-jwks/table.md" || { cat "$tgt/remote-jwks/table.md" >&2; exit 1; }
  python3 - "$tgt/replay/python.json" "$tgt/replay/node.json" <<'PY'
import json, sys
py, js = (json.load(open(f)) for f in sys.argv[1:])
diff = sorted(k for k in py.keys() | js.keys() if py.get(k) != js.get(k))
if diff:
    sys.exit(f"the replay scenarios differ between Python and JS: {diff}")
print(f"replay guard: {len(py)} scenario runs, the same outcomes in Python and JS")
PY
  echo "RemoteJwks: $(grep -c '| yes |' "$tgt/remote-jwks/table.md") scenarios, the same outcomes in Python and JS"
else
  echo "the Python step did not run before this one: the side-by-side comparison of the helpers is skipped"
fi

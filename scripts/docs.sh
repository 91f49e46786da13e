#!/usr/bin/env bash
# shellcheck disable=SC2012 # ls of the build's own outputs (names without spaces or newlines)
# ./run docs: one HTML site, target/docs/site/index.html, from what already exists (issue 44.4):
#   rust/    rustdoc of the published library crates (ekl-core, ekl-bridge, ekl-conformance), as
#            the rust step builds them (RUSTDOCFLAGS=-D warnings: no broken or private link);
#   python/  pdoc (pinned, a venv under target/docs) of the installed wheel: the docstrings and the
#            stubs (_api.pyi, _types.py) of ekl_evidence, ekl_evidence.replay and ekl_evidence.mcp;
#   ts/      TypeDoc (pinned, npm, under target/docs) of the declarations node/index.d.ts,
#            node/replay.d.ts and node/mcp/index.d.mts;
#   guide/   every Markdown page of the repository (READMEs, docs/everyday-tasks.md, decisions, ...)
#            rendered to HTML at its own path (tools/docs/site.py), an index page linking it all;
# then checks it (tools/docs/check_site.py): no broken link or anchor, every public item of each
# package present. The wheel is the python step's (built here when missing or older than the
# sources). Tools are installed once and reused while their pins hold. `./run test docs` runs this.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
work="$CARGO_TARGET_DIR/docs"
mkdir -p "$work"
PDOC_PINS="pdoc==16.0.0 Jinja2==3.1.6 MarkupSafe==3.0.4 markdown2==2.5.6 Pygments==2.21.0 mcp==2.3.0"
TYPEDOC_PINS="typedoc@0.28.20 typescript@5.9.3 @types/node@20.19.43"
# shellcheck source=scripts/lib/venv.sh
source scripts/lib/venv.sh
t0=$(date +%s)

# 1. rustdoc (the same command as scripts/test/10-rust.sh: fresh after it)
RUSTDOCFLAGS="-D warnings" cargo doc --release -p ekl-core -p ekl-bridge -p ekl-conformance --no-deps --quiet

# 2. pdoc, of the installed wheel
wheel=$(ls -t "$CARGO_TARGET_DIR"/python-test/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl \
  "$work"/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ] || [ -n "$(find python/src python/ekl_evidence core/src bridge/src -newer "$wheel" -type f | head -1)" ]; then
  source scripts/python-tools.sh
  rm -rf "$work/wheels"
  PATH="$tools/bin:$PATH" maturin build --release --zig --compatibility manylinux2014 -m python/Cargo.toml -o "$work/wheels" -q
  wheel=$(ls "$work"/wheels/ekl_evidence-*-cp39-abi3-manylinux*.whl)
fi
venv="$work/venv"
# shellcheck disable=SC2086 # one word a pin
ekl_venv "$venv" $PDOC_PINS
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
rm -rf "$work/pdoc"
# (the submodules by name: the package's __all__ lists its names, not its modules; pdoc's notes
# that a TypedDict's inherited member "is taken from" the current file are dropped)
if ! (cd "$work" && "$venv/bin/python" -m pdoc --docformat markdown --no-search -o "$work/pdoc" \
    ekl_evidence ekl_evidence.replay ekl_evidence.mcp) > "$work/pdoc.log" 2>&1; then
  cat "$work/pdoc.log" >&2; exit 1
fi
grep -v '^Warn: Cannot determine where .* is taken from, assuming current file' "$work/pdoc.log" || true

# 3. TypeDoc, of the declarations
tool="$work/typedoc"
if [ "$(cat "$tool/.pin" 2>/dev/null)" != "$TYPEDOC_PINS" ]; then
  rm -rf "$tool" && mkdir -p "$tool"
  echo '{"name":"typedoc-tool","private":true}' > "$tool/package.json"
  # shellcheck disable=SC2086 # one word a pin
  (cd "$tool" && npm install --no-audit --no-fund --no-package-lock --loglevel=error $TYPEDOC_PINS)
  echo "$TYPEDOC_PINS" > "$tool/.pin"
fi
cat > "$tool/tsconfig.json" <<EOF
{"compilerOptions": {"strict": true, "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext",
  "types": ["node"], "typeRoots": ["$tool/node_modules/@types"], "skipLibCheck": true, "noEmit": true},
 "files": ["$repo/node/index.d.ts", "$repo/node/replay.d.ts", "$repo/node/mcp/index.d.mts"]}
EOF
rm -rf "$work/typedoc-out"
# (--skipErrorChecking: the MCP module's declarations name the SDK's types, a peer dependency not
# installed here; tsc --strict checks the declarations themselves in the node step)
"$tool/node_modules/.bin/typedoc" --tsconfig "$tool/tsconfig.json" --skipErrorChecking --logLevel Warn \
  --entryPoints "$repo/node/index.d.ts" "$repo/node/replay.d.ts" "$repo/node/mcp/index.d.mts" \
  --name "ekl-evidence (TypeScript / JavaScript)" --readme none --out "$work/typedoc-out"

# 4. the site, 5. its checks
"$venv/bin/python" tools/docs/site.py "$work/site" "$CARGO_TARGET_DIR/doc" "$work/pdoc" "$work/typedoc-out"
python3 tools/docs/check_site.py "$work/site"
echo "docs: file://$work/site/index.html in $(( $(date +%s) - t0 )) s"

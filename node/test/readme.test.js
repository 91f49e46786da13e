'use strict'
// Executes the JavaScript and TypeScript code blocks of every README (README.md, node/README.md,
// wasm/README.md, python/README.md, examples/*/README.md: PAGES): ```js and ```mjs blocks as ES
// modules, ```ts blocks as ES modules once their types are stripped (the TypeScript compiler's
// transpileModule; scripts/typecheck-flows.js type-checks every block under tsc --strict), ```cjs
// blocks as CommonJS (a block that needs `require` says so by its fence). A block preceded by the
// line `<!-- not-tested -->` is skipped. Another fence of JS or TS (```javascript, ```typescript,
// ```jsx, ...) fails: its block would be neither run nor type-checked. The blocks import the package by its name ('ekl-evidence'): they
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

/** The ```js / ```mjs / ```ts / ```cjs blocks of a markdown file, with their line numbers. */
function blocks(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(js|mjs|ts|cjs)\s*$/.exec(lines[i])
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

/** The READMEs whose blocks a user copies (scripts/typecheck-flows.js reads the same list). */
function pages() {
  const ex = path.join(ROOT, 'examples')
  const examples = fs.existsSync(ex) ? fs.readdirSync(ex).sort().map((d) => path.join(ex, d, 'README.md')) : []
  return [path.join(ROOT, 'README.md'), path.join(SRC_DIR, 'README.md'), path.join(ROOT, 'wasm', 'README.md'), path.join(ROOT, 'python', 'README.md'), ...examples].filter((f) => fs.existsSync(f))
}
const READMES = pages()

test('node/README.md has tested JavaScript blocks of every kind', () => {
  const own = blocks(path.join(SRC_DIR, 'README.md')).filter((b) => !b.skipped)
  assert.ok(own.some((b) => b.lang === 'cjs'), 'a ```cjs block')
  assert.ok(own.some((b) => b.lang === 'mjs'), 'a ```mjs block')
  assert.ok(own.some((b) => b.lang === 'ts'), 'a ```ts block, executed too')
})

test('the root README has a TypeScript (ESM) quick start, executed, and its CommonJS block marked', () => {
  const root = blocks(path.join(ROOT, 'README.md')).filter((b) => !b.skipped)
  const ts = root.filter((b) => b.lang === 'ts')
  assert.ok(ts.some((b) => /from 'ekl-evidence'/.test(b.code) && /issueMacReceipt/.test(b.code)), 'a ```ts quick start importing ekl-evidence')
  assert.ok(root.every((b) => b.lang === 'cjs' || !/\brequire\(/.test(b.code)), 'a block with require() is marked ```cjs')
})

test('every JS/TS block of every README runs as ESM or is marked ```cjs, under a fence this runner knows', () => {
  for (const file of [...READMES, ...(fs.existsSync(path.join(ROOT, 'docs')) ? fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(ROOT, 'docs', f)) : [])]) {
    const rel = path.relative(ROOT, file)
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      assert.doesNotMatch(line, /^```\s*(javascript|typescript|jsx|tsx|node|es6|cts|mts|commonjs)\b/i, `${rel}:${i + 1}: use \`\`\`mjs, \`\`\`ts (ESM) or \`\`\`cjs (CommonJS)`)
    })
    for (const b of blocks(file)) {
      if (b.lang !== 'cjs') assert.doesNotMatch(b.code, /^\s*(const|let|var)\s.*=\s*require\(/m, `${rel}:${b.line}: a \`\`\`${b.lang} block runs as an ES module: require() fails there (mark it \`\`\`cjs)`)
    }
  }
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
      const name = `${rel.replace(/[^A-Za-z0-9]+/g, '_')}_${b.line}.${b.lang === 'cjs' ? 'cjs' : 'mjs'}`
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

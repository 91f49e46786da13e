'use strict'
// Type-checks the README flows and the TypeScript/JavaScript examples as a TypeScript user would
// write them, under `tsc --strict` in three module resolutions (nodenext, node10, bundler), with
// no cast (issue 12.5). The ```cjs, ```js, ```mjs and ```ts blocks of every README (README.md,
// node/README.md, wasm/README.md, python/README.md, examples/*/README.md) that use the package are
// written to types-test/.flows/<mode>/ as TypeScript files:
//   ```cjs (CommonJS): `const x = require('m')` becomes `import x = require('m')`; .cts in nodenext,
//          .ts elsewhere (module commonjs in node10, preserve in bundler);
//   ```js, ```mjs, ```ts (ES modules): .mts in nodenext, .ts elsewhere (module es2022 in node10,
//          preserve in bundler);
// a block that imports `ekl-evidence/mcp` is skipped (named on stdout) when its peer dependency,
// the MCP SDK, is not installed here (45-mcp.sh installs it);
// the examples (examples/node/*.mjs checked as JavaScript with checkJs, examples/everyday/*.ts)
// are checked in each mode too. The package resolves by its name from a node_modules link to
// this folder, through package.json's `types` (node10) or `exports` (nodenext, bundler).
// Then the result type of bytes (`Buffer` or `Uint8Array`) that each module resolution gives, as
// node/README.md states it ("Buffer or Uint8Array"), is checked exactly (RESULT_TYPES), with a
// generic wrapper of inputCommitment against each entry's declarations (the wasm build's too).
//   node scripts/typecheck-flows.js      (40-node.sh runs it after the declarations' check)
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const PKG = path.resolve(__dirname, '..')
const ROOT = path.resolve(PKG, '..')
const OUT = path.join(PKG, 'types-test', '.flows')
const NAME = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8')).name
const TSC = path.join(PKG, 'node_modules', 'typescript', 'bin', 'tsc')

/** The ```js / ```mjs / ```ts / ```cjs blocks of a markdown file. */
function blocks(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(js|mjs|ts|cjs)\s*$/.exec(lines[i])
    if (!m) continue
    let end = i + 1
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++
    out.push({ lang: m[1], line: i + 1, code: lines.slice(i + 1, end).join('\n') })
    i = end
  }
  return out
}

const cjsToTs = (code) => code.replace(/^const (\w+) = require\(('[^']+')\)$/gm, 'import $1 = require($2)')

const BASE = {
  strict: true,
  noEmit: true,
  target: 'es2022',
  lib: ['es2022', 'dom'],
  types: ['node'],
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  allowJs: true,
  checkJs: true,
  esModuleInterop: true,
}
/** Per mode: the compiler options of CommonJS files and of ES modules, and the file extensions. */
const MODES = {
  nodenext: { cjs: { module: 'nodenext', moduleResolution: 'nodenext' }, esm: null, ext: { cjs: '.cts', esm: '.mts' } },
  node10: { cjs: { module: 'commonjs', moduleResolution: 'node10' }, esm: { module: 'es2022', moduleResolution: 'node10' }, ext: { cjs: '.ts', esm: '.ts' } },
  // A bundler resolves the package's `exports` without the `node` condition unless told: it then
  // gets the wasm build's types (a browser bundle). These flows are Node programs, so the bundler
  // mode is a Node bundle's configuration (customConditions: ['node']), as tsx, esbuild --platform
  // node and vite-node set it.
  bundler: { cjs: { module: 'preserve', moduleResolution: 'bundler', customConditions: ['node'] }, esm: null, ext: { cjs: '.ts', esm: '.ts' } },
}

/** The READMEs whose blocks a user copies (test/readme.test.js runs the same list). */
function pages() {
  const ex = path.join(ROOT, 'examples')
  const examples = fs.existsSync(ex) ? fs.readdirSync(ex).sort().map((d) => path.join(ex, d, 'README.md')) : []
  return [path.join(ROOT, 'README.md'), path.join(PKG, 'README.md'), path.join(ROOT, 'wasm', 'README.md'), path.join(ROOT, 'python', 'README.md'), ...examples].filter((f) => fs.existsSync(f))
}

/** True when `name` resolves from the package's folder (a peer dependency installed here). */
function installed(name) {
  try {
    require.resolve(`${name}/package.json`, { paths: [PKG] })
    return true
  } catch {
    return false
  }
}

function sources() {
  const out = []
  for (const readme of pages()) {
    const rel = path.relative(ROOT, readme).replace(/[^A-Za-z0-9]+/g, '_')
    for (const b of blocks(readme)) {
      if (!b.code.includes(`'${NAME}'`)) continue // a block that does not use the package
      if (b.code.includes(`'${NAME}/mcp'`) && !installed('@modelcontextprotocol/sdk')) {
        console.log(`${path.relative(ROOT, readme)}:${b.line}: skipped (ekl-evidence/mcp needs @modelcontextprotocol/sdk, not installed here)`)
        continue
      }
      const kind = b.lang === 'cjs' ? 'cjs' : 'esm'
      out.push({ name: `${rel}_${b.line}`, kind, code: kind === 'cjs' ? cjsToTs(b.code) : b.code, from: `${path.relative(ROOT, readme)}:${b.line}` })
    }
  }
  const ex = (dir, ext) => {
    const d = path.join(ROOT, 'examples', dir)
    return fs.existsSync(d) ? fs.readdirSync(d).filter((f) => f.endsWith(ext)).map((f) => path.join(d, f)) : []
  }
  for (const f of ex('node', '.mjs')) out.push({ name: `example_node_${path.basename(f, '.mjs')}`, kind: 'esm', js: true, code: fs.readFileSync(f, 'utf8'), from: path.relative(ROOT, f) })
  // (examples that import other packages, such as examples/everyday/peers.ts, are checked by their
  // own step with their dependencies: 46-everyday.sh, 45-mcp.sh)
  const own = (f) => [...fs.readFileSync(f, 'utf8').matchAll(/^import .* from '([^']+)'/gm)].every((m) => m[1] === NAME || m[1].startsWith(`${NAME}/`) || m[1].startsWith('node:'))
  for (const f of ex('everyday', '.ts').filter(own)) out.push({ name: `example_everyday_${path.basename(f, '.ts')}`, kind: 'esm', code: fs.readFileSync(f, 'utf8'), from: path.relative(ROOT, f) })
  return out
}

/**
 * The declared type of the bytes `canonicalizeValue` returns, per resolution and entry (the table
 * of node/README.md, "Buffer or Uint8Array"): the Node declarations say `Buffer`, the wasm build's
 * `Uint8Array` (package.json `exports`: `browser`, then `node` with `import`/`require`, then
 * `import`, `require`, `default`).
 */
const RESULT_TYPES = [
  { name: 'nodenext-import', opts: { module: 'nodenext', moduleResolution: 'nodenext' }, ext: '.mts', kind: 'esm', type: 'Buffer' },
  { name: 'nodenext-require', opts: { module: 'nodenext', moduleResolution: 'nodenext' }, ext: '.cts', kind: 'cjs', type: 'Buffer' },
  { name: 'node10', opts: { module: 'commonjs', moduleResolution: 'node10' }, ext: '.ts', kind: 'cjs', type: 'Buffer' },
  { name: 'bundler-import', opts: { module: 'preserve', moduleResolution: 'bundler' }, ext: '.ts', kind: 'esm', type: 'Uint8Array' },
  { name: 'bundler-require', opts: { module: 'preserve', moduleResolution: 'bundler' }, ext: '.ts', kind: 'cjs', type: 'Buffer' },
  { name: 'bundler-import-node', opts: { module: 'preserve', moduleResolution: 'bundler', customConditions: ['node'] }, ext: '.ts', kind: 'esm', type: 'Buffer' },
  { name: 'bundler-import-browser', opts: { module: 'preserve', moduleResolution: 'bundler', customConditions: ['browser'] }, ext: '.ts', kind: 'esm', type: 'Uint8Array' },
  { name: 'nodenext-wasm-subpath', opts: { module: 'nodenext', moduleResolution: 'nodenext' }, ext: '.mts', kind: 'esm', entry: `${NAME}/wasm`, type: 'Uint8Array' },
]

/** Each of RESULT_TYPES in a folder of its own: tsc fails unless the type is exactly the one named. */
function resultTypes() {
  let failed = false
  for (const r of RESULT_TYPES) {
    const dir = path.join(OUT, `result-${r.name}`)
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true })
    fs.symlinkSync(PKG, path.join(dir, 'node_modules', NAME), 'dir')
    const entry = r.entry ?? NAME
    const use = r.kind === 'cjs' ? `import ekl = require('${entry}')\n` : `import * as ekl from '${entry}'\n`
    const code = `${use}type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const bytes = ekl.canonicalizeValue({ a: 1 })
export const exactly: Exactly<typeof bytes, ${r.type}> = true
// a generic wrapper compiles against these declarations too (the wasm build's included)
export function wrap<T>(x: T) { return ekl.inputCommitment(x) }
// @ts-expect-error: a function member has no JSON form
ekl.inputCommitment({ f: () => 1 })
`
    const file = `probe${r.ext}`
    fs.writeFileSync(path.join(dir, file), code)
    fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n')
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...BASE, skipLibCheck: true, ...r.opts }, files: [file] }, null, 2))
    try {
      execFileSync(process.execPath, [TSC, '-p', dir], { stdio: 'pipe' })
    } catch (e) {
      failed = true
      console.error(`result type ${r.name}: not exactly ${r.type}:\n${e.stdout}${e.stderr}`)
    }
  }
  if (!failed) console.log(`result types: ${RESULT_TYPES.map((r) => `${r.name} ${r.type}`).join(', ')}`)
  return failed
}

function run() {
  fs.rmSync(OUT, { recursive: true, force: true })
  const srcs = sources()
  let failed = resultTypes()
  for (const [mode, m] of Object.entries(MODES)) {
    const groups = m.esm ? { cjs: m.cjs, esm: m.esm } : { all: m.cjs }
    for (const [group, opts] of Object.entries(groups)) {
      const dir = path.join(OUT, `${mode}-${group}`)
      fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true })
      fs.symlinkSync(PKG, path.join(dir, 'node_modules', NAME), 'dir')
      // Each file is a module of its own (a snippet's names do not collide with another's).
      const files = []
      for (const s of srcs) {
        if (group !== 'all' && s.kind !== group) continue
        const ext = s.js ? '.mjs' : m.ext[s.kind]
        const file = `${s.name}${ext}`
        const code = /^\s*(import|export)\b/m.test(s.code) || s.js ? s.code : `${s.code}\nexport {}`
        fs.writeFileSync(path.join(dir, file), `// from ${s.from}\n${code}\n`)
        files.push(file)
      }
      fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n')
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...BASE, ...opts }, files }, null, 2))
      try {
        execFileSync(process.execPath, [TSC, '-p', dir], { stdio: 'pipe' })
        console.log(`tsc --strict ${mode}${group === 'all' ? '' : ` (${group})`}: ${files.length} files, no error`)

      } catch (e) {
        failed = true
        console.error(`tsc --strict ${mode}${group === 'all' ? '' : ` (${group})`} failed:\n${e.stdout}${e.stderr}`)
      }
    }
  }
  if (failed) process.exit(1)
}

run()

'use strict'
// Generates the operation declarations, the interfaces of the result shapes (the manifest's
// `shapes`, declared in bridge/src/shapes.rs) and the string unions of the refinements (the
// manifest's `refinements`: JwsTyp, ProofVersion, ...) of index.d.ts, the export list of index.mjs
// and the type test types-test/generic.mts from docs/operations.json (the registry of the bridge
// crate), and the union EklErrorCode of index.d.ts from docs/errors.json (the core's error table).
//   node scripts/dts.js           rewrite the three files
//   node scripts/dts.js --check   exit 1 when one is stale (test/api.test.js runs this check)
const fs = require('node:fs')
const path = require('node:path')
const { OBJECT_FORM } = require('../js/api.js')

const PKG = path.resolve(__dirname, '..')
const MANIFEST = path.resolve(PKG, '..', 'docs', 'operations.json')
const BEGIN = '// @generated operations: begin (node scripts/dts.js, from docs/operations.json; do not edit)\n'
const END = '// @generated operations: end\n'
const ERRORS = path.resolve(PKG, '..', 'docs', 'errors.json')
const SHAPES_BEGIN = '// @generated shapes: begin (node scripts/dts.js, from the shapes of docs/operations.json; do not edit)\n'
const SHAPES_END = '// @generated shapes: end\n'

/**
 * index.d.ts with the union of each string refinement of the manifest (`is: literals`) written
 * from its `values`, on one line when it fits in 100 columns (its doc comment stays by hand).
 */
function literalUnions(dts, refinements) {
  for (const r of refinements.filter((r) => r.is === 'literals')) {
    const union = new RegExp(`export type ${r.name} =(?: '| \\| '|\\n {2}\\| ')[^'\\n]*'(?:(?: \\| '|\\n {2}\\| ')[^'\\n]*')*\n`)
    if (!union.test(dts)) throw new Error(`index.d.ts: the union ${r.name} is missing`)
    const one = `export type ${r.name} = ${r.values.map((v) => `'${v}'`).join(' | ')}`
    const text = one.length <= 100 ? `${one}\n` : `export type ${r.name} =\n${r.values.map((v) => `  | '${v}'\n`).join('')}`
    dts = dts.replace(union, () => text)
  }
  return dts
}

/** index.d.ts with its `EklErrorCode` union written from docs/errors.json. */
function errorUnion(dts) {
  const codes = JSON.parse(fs.readFileSync(ERRORS, 'utf8')).codes.map((c) => `  | '${c.code}'`)
  const union = /export type EklErrorCode =\n(?: {2}\| '[A-Z0-9_]+'\n)*/
  if (!union.test(dts)) throw new Error('index.d.ts: the EklErrorCode union is missing')
  return dts.replace(union, `export type EklErrorCode =\n${codes.join('\n')}\n`)
}

/**
 * TypeScript types of the parameter kinds. A value parameter is generic: `JsonArg<T>` accepts any
 * type whose values can have a JSON form (interfaces, `Record<string, unknown>`, the package's own
 * results) and refuses functions, symbols, class instances and `undefined` elements at compile time;
 * a type parameter passes as it is (a generic wrapper compiles: `JsonEnforce` in index.d.ts,
 * docs/decisions.md B13), which types-test/generic.mts, generated below, checks for each one.
 */
const KINDS = {
  value: 'JsonArg<$>',
  text: 'JsonTextInput',
  str: 'string',
  bytes: 'string | Uint8Array',
  int: 'number',
  now: 'Seconds',
  bool: 'boolean',
  str_list: 'readonly string[]',
  jwks: 'Jwks | JsonArg<$>',
  key: 'SigningKey',
  salt: 'string',
  number: 'number',
}
/** TypeScript types of the results (an operation's `returns_type`, a refinement, comes first). */
const RETURNS = { str: 'string', bool: 'boolean', bytes: 'Buffer', Verdicts: 'Array<Verdict | EklError>' }
/**
 * Signatures written whole: `jwksFromSeed` returns one key per kid, typed as a tuple when the kids
 * are a literal list (`keys[0]` is a SigningKey under noUncheckedIndexedAccess).
 */
const SIGNATURES = {
  jwks_from_seed: '<const K extends readonly string[]>(seed: string, kids: K): KeySet<K>',
}

const doc = (text, indent = '') => `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`

/**
 * The TS type of a parameter's refinement (its `type` in the manifest): each alternative a name
 * index.d.ts declares (a refinement's or a shape's), `T[]` a readonly array of them, `json` the
 * kind's own type.
 */
const refinedType = (p) =>
  p.type
    .split(' | ')
    .map((alt) => (alt === 'json' ? KINDS[p.kind] : alt.endsWith('[]') ? `readonly ${alt.slice(0, -2)}[]` : alt))
    .join(' | ')

/** The declared type of parameter `p` of `op`, with `$` where it is generic. */
function paramType(op, p) {
  const t = p.type ? refinedType(p) : KINDS[p.kind]
  // Members that hold a time take a Date too (the registry's `times`).
  if (t === KINDS.value && p.times) return `JsonArgWithTimes<$, ${Object.keys(p.times).map((m) => `'${m}'`).join(' | ')}>`
  return t
}

/** The parameters of `op` as a TS parameter list (a method's `self` left out), with `type`. */
function paramList(op, type) {
  const params = op.params.filter((p) => p.kind !== 'handle')
  const required = params.filter((p) => p.required)
  const optional = params.filter((p) => !p.required)
  const args = required.map((p) => `${p.js}: ${type(p)}`)
  if (optional.length) {
    const members = optional.map((p) => `${doc(p.doc, '    ')}    ${p.js}?: ${type(p)} | null\n`).join('')
    args.push(`options?: {\n${members}  }`)
  }
  const lines = params.map((p) => `   * @param ${p.js} ${p.doc}${p.required ? '' : ' (option)'}\n`).join('')
  return [args, lines]
}

/**
 * The class of a handle (the manifest's `handles`, docs/decisions/handles.md): its constructor
 * row and its methods; no type variables (no parameter of a handle is a JSON value).
 */
function handleClass(h, ops) {
  const byName = new Map(ops.map((op) => [op.name, op]))
  const type = (p) => (p.type ? refinedType(p) : KINDS[p.kind])
  const ret = (op) => op.returns_type ?? RETURNS[op.returns] ?? op.returns
  const newOp = byName.get(h.constructor)
  const [args, lines] = paramList(newOp, type)
  let out = `\n/**\n * ${h.doc} (\`${h.constructor}\`)\n */\nexport declare class ${h.name} {\n`
  out += `  /**\n   * ${newOp.doc} (PROTOCOL ${newOp.section})\n${lines}   */\n  constructor(${args.join(', ')})\n`
  for (const name of h.methods) {
    const op = byName.get(name)
    const [margs, mlines] = paramList(op, type)
    out += `  /**\n   * ${op.doc} (PROTOCOL ${op.section}; \`${op.name}\`)\n${mlines}   */\n  ${op.js}(${margs.join(', ')}): ${ret(op)}\n`
  }
  return `${out}}\n`
}

function declarations(ops, handles = []) {
  let out = ''
  const classes = new Map(handles.map((h) => [h.constructor, h]))
  for (const op of ops) {
    if (op.method_of) continue
    if (classes.has(op.name)) {
      out += handleClass(classes.get(op.name), ops)
      continue
    }
    // Each generic parameter gets its own type variable (T, U, ...).
    const vars = []
    const type = (p) => {
      const t = paramType(op, p)
      if (!t.includes('$')) return t
      const v = 'TUVW'[vars.length]
      vars.push(v)
      return t.replace('$', v)
    }
    const required = op.params.filter((p) => p.required)
    const optional = op.params.filter((p) => !p.required)
    const args = required.map((p) => `${p.js}: ${type(p)}`)
    if (optional.length) {
      const members = optional.map((p) => `${doc(p.doc, '  ')}  ${p.js}?: ${type(p)} | null\n`).join('')
      args.push(`options?: {\n${members}}`)
    }
    const times = (p) => (p.times ? `; a Date is accepted for ${Object.entries(p.times).map(([m, f]) => `${m} (${f})`).join(', ')}` : '')
    const params = op.params.map((p) => ` * @param ${p.js} ${p.doc}${times(p)}${p.required ? '' : ' (option)'}\n`).join('')
    out += `\n/**\n * ${op.doc} (${op.section === '-' ? 'utility' : `PROTOCOL ${op.section}`}; \`${op.name}\`)\n${params} */\n`
    const generic = vars.length ? `<${vars.join(', ')}>` : ''
    if (op.class) {
      // A class cannot have a generic constructor: an interface and a constructor of that name.
      out += `export interface ${op.js} {\n  readonly kids: string[]\n  toJSON(): { keys: Array<Record<string, string>> }\n}\n`
      out += `export declare const ${op.js}: {\n  new ${generic}(${args.join(', ')}): ${op.js}\n  readonly prototype: ${op.js}\n}\n`
    } else {
      const ret = op.returns_type ?? RETURNS[op.returns] ?? op.returns
      // A commitment given a salt is salted: its own overload, first (the general one last, what
      // `Parameters<typeof f>` reads).
      const salt = optional.find((p) => p.name === 'salt')
      if (ret === 'Commitment' && salt) {
        const rest = optional.filter((p) => p !== salt).map((p) => `${doc(p.doc, '  ')}  ${p.js}?: ${type(p)} | null\n`).join('')
        out += `/** \`${op.js}\` given a salt: the commitment is salted (its \`salt\` always present). */\n`
        out += `export declare function ${op.js}${generic}(${[...args.slice(0, required.length), `options: {\n${doc(salt.doc, '  ')}  salt: string\n${rest}}`].join(', ')}): SaltedCommitment\n`
      }
      // The object form (js/api.js OBJECT_FORM): the arguments after the first n by name.
      const n = OBJECT_FORM[op.name]
      if (n !== undefined) {
        const iface = `${op.js[0].toUpperCase()}${op.js.slice(1)}Options`
        const named = [...required.slice(n), ...optional]
        const members = named.map((p) => `${doc(p.doc, '  ')}  ${p.js}${p.required ? '' : '?'}: ${type(p)}${p.required ? '' : ' | null'}\n`).join('')
        out += `/** The arguments of \`${op.js}\` after the first ${n}, by name (its object form). */\nexport interface ${iface} {\n${members}}\n`
        out += `/** \`${op.js}\` with its arguments after the first ${n} by name (the same call as the positional form below). */\n`
        out += `export declare function ${op.js}${generic}(${[...args.slice(0, n), `options: ${iface}`].join(', ')}): ${ret}\n`
      }
      out += `export declare function ${op.js}${SIGNATURES[op.name] ?? `${generic}(${args.join(', ')}): ${ret}`}\n`
    }
  }
  return out
}

/** The TS type of each type of the shapes' language (bridge/src/shapes.rs). */
const SHAPE_TYPES = {
  str: 'string',
  int: 'number',
  bool: 'boolean',
  null: 'null',
  json: 'unknown',
  object: 'Record<string, unknown>',
  error: '{ code: EklErrorCode, message: string }',
}

/** The TS type of a member's type: literals as they are, `T[]` and alternatives translated. */
const tsType = (ty) =>
  ty
    .split(' | ')
    .map((alt) => (alt.startsWith("'") ? alt : alt.endsWith('[]') ? `${tsType(alt.slice(0, -2))}[]` : (SHAPE_TYPES[alt] ?? alt)))
    .join(' | ')

/** A doc comment: on one line when it fits in 100 columns, else wrapped at 100. */
function docBlock(text, indent = '') {
  text = text.replace(/\*\//g, '*\\/')
  const one = `${indent}/** ${text} */`
  if (one.length <= 100) return `${one}\n`
  const lines = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && `${indent} * ${line} ${word}`.length > 100) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  lines.push(line)
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join('')}${indent} */\n`
}

/**
 * The interfaces of the result shapes, in declaration order: an open shape with an index
 * signature; the members TS covers by it (`ts_index`) left out; a member's `ts` type when given.
 */
function shapeInterfaces(shapes) {
  return shapes
    .map((s) => {
      const members = s.members
        .filter((m) => !m.ts_index)
        .map((m) => `${m.doc ? docBlock(m.doc, '  ') : ''}  ${m.name}${m.required ? '' : '?'}: ${m.ts ?? tsType(m.type)}\n`)
      const index = s.ts_open ? '  [member: string]: unknown\n' : ''
      const ext = s.extends ? ` extends ${s.extends}` : ''
      return `${docBlock(s.doc)}export interface ${s.name}${ext} {\n${index}${members.join('')}}\n`
    })
    .join('\n')
}

/**
 * types-test/generic.mts: for every generic parameter of every operation, a wrapper generic in an
 * unconstrained `T` that passes its argument there (issue 26.4: `function f<T>(x: T) { return
 * inputCommitment(x) }` compiles), the operation's other arguments taken as its own parameter
 * types; and the refusals that hold for every value parameter (a function member, a function, a
 * Map, a symbol, `undefined` but for an option) still refused there, each with `@ts-expect-error` (tsc fails
 * when one compiles).
 */
function genericTests(ops) {
  let out = `// @generated by node scripts/dts.js from docs/operations.json: do not edit.
// Every value parameter takes an unconstrained type parameter (a generic wrapper compiles, issue 26.4)
// and still refuses, at compile time, what has no JSON form. Type-checked by tsconfig.json (40-node.sh).
import * as ekl from 'ekl-evidence'
`
  const refusals = [
    ['{ f: () => 1 }', 'a function member'],
    ['() => 1', 'a function'],
    ['new Map<string, number>()', 'a Map'],
    ["Symbol('s')", 'a symbol'],
    ['undefined', 'undefined itself'],
  ]
  for (const op of ops) {
    if (op.method_of) continue
    const required = op.params.filter((p) => p.required)
    const optional = op.params.filter((p) => !p.required)
    const call = (target, value) => {
      const args = required.map((p, i) => (p === target ? value : `a[${i}]`))
      if (optional.includes(target)) args.push(`{ ...a[${required.length}], ${target.js}: ${value} }`)
      else if (optional.length) args.push(`a[${required.length}]`)
      return op.class ? `new ekl.${op.js}(${args.join(', ')})` : `ekl.${op.js}(${args.join(', ')})`
    }
    const params = op.class ? 'ConstructorParameters' : 'Parameters'
    for (const p of op.params) {
      if (!paramType(op, p).includes('$')) continue
      out += `\n/** \`${op.js}\`, parameter \`${p.js}\`${p.required ? '' : ' (option)'}. */\n`
      out += `export function ${op.js}_${p.js}<T>(x: T, a: ${params}<typeof ekl.${op.js}>) {\n`
      for (const [value, what] of refusals) {
        // (an option may be left undefined: it is then absent)
        if (value === 'undefined' && !p.required) continue
        out += `  // @ts-expect-error: ${what}\n  ${call(p, value)}\n`
      }
      out += `  return ${call(p, 'x')}\n}\n`
    }
  }
  return out
}

/** The files as they should be: [path, text]. */
function render() {
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'))
  const ops = manifest.operations
  const dtsPath = path.join(PKG, 'index.d.ts')
  let dts = literalUnions(errorUnion(fs.readFileSync(dtsPath, 'utf8')), manifest.refinements)
  const [c, d] = [dts.indexOf(SHAPES_BEGIN), dts.indexOf(SHAPES_END)]
  if (c < 0 || d < c) throw new Error('index.d.ts: the @generated shapes markers are missing')
  dts = dts.slice(0, c + SHAPES_BEGIN.length) + '\n' + shapeInterfaces(manifest.shapes) + dts.slice(d)
  const [a, b] = [dts.indexOf(BEGIN), dts.indexOf(END)]
  if (a < 0 || b < a) throw new Error('index.d.ts: the @generated markers are missing')
  const newDts = dts.slice(0, a + BEGIN.length) + declarations(ops, manifest.handles) + dts.slice(b)

  // index.mjs: every export of index.js by name (the ESM loader cannot see computed exports).
  const helpers = ['canonicalizeAsync', 'canonicalizeValueAsync', 'verifyReceiptsAsync', 'SigningKey', 'RemoteJwks', 'newSalt', 'newSeed', 'newSigningKey', 'operations', 'errorCodes', 'coreVersion', 'backend', 'EklError', 'isEklError', 'JsonText', 'MAX_DEPTH', 'MAX_INPUT_BYTES', 'MAX_VALUE_BYTES', 'CAPABILITY_INPUT_MAX_BYTES']
  const names = [...ops.filter((op) => !op.method_of).map((op) => op.js), ...helpers]
  const mjs = `// ekl-evidence for Node.js, ESM entry: the same module instance as the CommonJS entry.
// Generated by scripts/dts.js from docs/operations.json: do not edit.
import { createRequire } from 'node:module'

const api = createRequire(import.meta.url)('./index.js')

export const {
${names.map((n) => `  ${n},`).join('\n')}
} = api

export default api
`
  return [[dtsPath, newDts], [path.join(PKG, 'index.mjs'), mjs], [path.join(PKG, 'types-test', 'generic.mts'), genericTests(ops)]]
}

/** The files that differ from what render() gives. */
function stale() {
  const current = (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null)
  return render().filter(([p, text]) => current(p) !== text).map(([p]) => path.relative(PKG, p))
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const s = stale()
    if (s.length) {
      console.error(`stale: ${s.join(', ')} (run node scripts/dts.js)`)
      process.exit(1)
    }
  } else {
    for (const [p, text] of render()) fs.writeFileSync(p, text)
  }
}

module.exports = { render, stale, shapeInterfaces, declarations, BEGIN, END }

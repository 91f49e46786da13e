'use strict'
// The interfaces of the result shapes in index.d.ts are generated from the shapes of
// docs/operations.json (declared once, in bridge/src/shapes.rs) by scripts/dts.js: a stale one fails
// here. Needs no native build (test/api.test.js runs the whole `dts.js --check` with the addon).
const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const path = require('node:path')

const SRC_DIR = path.resolve(__dirname, '..')
const MANIFEST = path.resolve(SRC_DIR, '..', 'docs', 'operations.json')

test('the result shapes of index.d.ts are those of docs/operations.json', (t) => {
  if (!fs.existsSync(MANIFEST)) {
    t.skip('not running from the repository')
    return
  }
  const { render, shapeInterfaces } = require(path.join(SRC_DIR, 'scripts', 'dts.js'))
  const shapes = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')).shapes
  const dtsPath = path.join(SRC_DIR, 'index.d.ts')
  const dts = fs.readFileSync(dtsPath, 'utf8')
  assert.ok(dts.includes(shapeInterfaces(shapes)), 'stale shapes: run `node scripts/dts.js` in node/')
  const rendered = render().find(([p]) => p === dtsPath)[1]
  assert.equal(rendered, dts, 'stale: run `node scripts/dts.js` in node/')
  // Every shape a result names is declared; a member declared in the registry and not in the
  // interfaces (a stale index.d.ts) is seen.
  for (const s of shapes) assert.match(dts, new RegExp(`export interface ${s.name}\\b`), s.name)
  const grown = shapes.map((s) => ({ ...s, members: [...s.members, { name: 'new_member', type: 'str', required: true, doc: '' }] }))
  assert.ok(!dts.includes(shapeInterfaces(grown)) && shapeInterfaces(grown).includes('  new_member: string\n'))
})

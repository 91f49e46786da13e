'use strict'
// Every public name of the package is an operation of the registry or a host-only API listed in
// docs/host-apis.json, with how it is proven (docs/decisions.md#host-apis): a new export that is
// neither fails here, and so does a listed name that is gone. Run over the native and the wasm
// backends (scripts/test/40-node.sh).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { ekl, ROOT } = require('./helpers.js')

const TABLE = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'host-apis.json'), 'utf8')).apis
const LISTED = new Set(TABLE.filter((api) => !api.module).flatMap((api) => api.js))

test('every export is an operation of the registry or a listed host API', () => {
  const registry = new Set(ekl.operations().map((op) => op.js))
  const module = Object.keys(ekl).filter((k) => !registry.has(k)).sort()
  assert.deepEqual(module, [...LISTED].filter((n) => !n.includes('.')).sort())
  const members = []
  for (const cls of ['Jwks', 'SigningKey', 'RemoteJwks']) {
    for (const m of Object.getOwnPropertyNames(ekl[cls].prototype)) if (m !== 'constructor') members.push(`${cls}.${m}`)
    for (const m of Object.getOwnPropertyNames(ekl[cls])) if (!['length', 'name', 'prototype'].includes(m)) members.push(`${cls}.${m}`)
  }
  assert.deepEqual(members.sort(), [...LISTED].filter((n) => n.includes('.')).sort())
})

test('every listed API names its proof, and its twin is an operation', () => {
  const names = new Set(ekl.operations().map((op) => op.name))
  for (const api of TABLE) {
    assert.ok(api.checked_by.trim(), api.name)
    assert.ok(api.twin === null || names.has(api.twin), api.name)
  }
})

test('every subpath exports what its entry lists', () => {
  const modules = TABLE.filter((api) => api.module)
  assert.ok(modules.length > 0, "the replay guard's entry")
  for (const api of modules) {
    const m = require(api.module.js)
    assert.deepEqual(Object.keys(m).sort(), [...api.js].sort(), api.name)
  }
})

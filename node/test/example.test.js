'use strict'
// examples/node/agent.mjs: runs, prints what the vectors say, and (when the Python package is
// importable) exactly what examples/python/agent.py prints.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { ekl, ROOT, SRC_DIR, VECTORS_DIR } = require('./helpers.js')

const EXAMPLE_DIR = path.join(ROOT, 'examples', 'node')
const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex')

function runExample() {
  // The example imports 'ekl-evidence' as its package.json says (file:../../node): link it if
  // `npm install` has not been run there.
  const link = path.join(EXAMPLE_DIR, 'node_modules', 'ekl-evidence')
  if (!fs.existsSync(link)) {
    fs.mkdirSync(path.dirname(link), { recursive: true })
    try {
      fs.symlinkSync(path.relative(path.dirname(link), SRC_DIR), link, 'dir')
    } catch (e) {
      if (e.code !== 'EEXIST') throw e // another run at the same time made the same link
    }
  }
  return execFileSync(process.execPath, [path.join(EXAMPLE_DIR, 'agent.mjs')], { cwd: EXAMPLE_DIR, encoding: 'utf8' })
}

test('examples/node/agent.mjs prints the digests the vectors and the core give', (t) => {
  if (!fs.existsSync(path.join(EXAMPLE_DIR, 'agent.mjs'))) {
    t.skip('not running from the repository')
    return
  }
  const out = runExample()
  const r = JSON.parse(out)
  assert.equal(r.refused, undefined)
  const fp = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'fingerprints.json'), 'utf8'))
  // The example's input and tool result are the vector file's first case and result selection.
  assert.equal(r.input_fingerprint, fp.cases[0].fingerprint)
  assert.equal(r.output_fingerprint, fp.result_selection.fingerprint)
  assert.equal(r.output_fingerprint_over, fp.result_selection.fingerprinted)
  assert.equal(r.input_commitment.digest, sha256('{"area_ref":"loc:ca:dublin","min_beds":3}'))
  assert.equal(r.output_commitment.digest, sha256(ekl.canonicalize(JSON.stringify(fp.result_selection.result))))
  assert.equal(
    r.upstream_fingerprint,
    sha256(
      '[{"annotations":null,"description":"Search homes for sale.","inputSchema":{"properties":{"area_ref":{"type":"string"}},"type":"object"},"name":"search_listings","outputSchema":null}]',
    ),
  )
})

test('examples/node/agent.mjs prints exactly what examples/python/agent.py prints', (t) => {
  const py = path.join(ROOT, 'examples', 'python', 'agent.py')
  if (!fs.existsSync(py)) {
    t.skip('no examples/python/agent.py')
    return
  }
  let pyOut
  try {
    pyOut = execFileSync(process.env.PYTHON || 'python3', [py], { encoding: 'utf8', stdio: 'pipe' })
  } catch (e) {
    t.skip(`the Python package is not importable here (${String(e.stderr).trim().split('\n').pop()})`)
    return
  }
  assert.equal(runExample(), pyOut)
})

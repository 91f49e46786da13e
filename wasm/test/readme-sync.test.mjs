// The root README's browser quick start is the page that pack.test.mjs executes in Chromium from
// wasm/README.md: this test keeps the two copies identical, so the root copy is tested too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const htmlBlocks = (file) =>
  [...readFileSync(root + file, 'utf8').matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1])

test('the root README shows the browser quick start that wasm/README.md executes', () => {
  const [tested] = htmlBlocks('wasm/README.md')
  assert.ok(tested, 'wasm/README.md has an html quick start')
  assert.deepEqual(htmlBlocks('README.md'), [tested])
})

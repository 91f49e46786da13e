#!/usr/bin/env node
'use strict'
// `ekl` on the PATH of `npm install ekl-evidence` users (the package's "bin"): runs the `ekl`
// binary (the Rust CLI, crate ekl-cli) that this platform's optional package
// ekl-evidence-<platform> carries, as esbuild runs its platform binary; arguments, stdio and the
// exit status pass through unchanged (docs/decisions/packaging.md#ekl-where-users-install).
// Without the platform package (an install with --omit=optional, or a platform without one) it
// says so in one line and exits 127.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

/** The napi-rs platform name of this process, as index.js names it. */
function platformName() {
  const { platform, arch } = process
  if (platform === 'win32') return `win32-${arch}-msvc`
  if (platform !== 'linux') return `${platform}-${arch}`
  let glibc
  try {
    glibc = Boolean(process.report && process.report.getReport().header.glibcVersionRuntime)
  } catch {
    glibc = false
  }
  return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
}

const plat = platformName()
const exe = process.platform === 'win32' ? 'ekl.exe' : 'ekl'
let binary
try {
  binary = path.join(path.dirname(require.resolve(`ekl-evidence-${plat}/package.json`)), exe)
} catch {
  process.stderr.write(`ekl: no ekl binary for ${plat}: the optional package ekl-evidence-${plat} is not installed (an install with --omit=optional, or a platform without one); \`cargo install ekl-cli\` builds it\n`)
  process.exit(127)
}
if (!fs.existsSync(binary)) {
  process.stderr.write(`ekl: no ekl binary for ${plat}: ekl-evidence-${plat} holds none (a build without it); \`cargo install ekl-cli\` builds it\n`)
  process.exit(127)
}
const r = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true })
if (r.error) {
  process.stderr.write(`ekl: cannot run ${binary}: ${r.error.message}\n`)
  process.exit(127)
}
if (r.signal) process.kill(process.pid, r.signal)
process.exit(r.status ?? 1)

// The JS module (ekl-evidence/mcp) against one scenario of hostile_server.py, for hostile.py:
//   node --preserve-symlinks hostile.mjs stdio|http SCENARIO [URL]
// prints one JSON line: {tools, text, fingerprint} or {code} (or {error}: the SDK's own failure).
//   node --preserve-symlinks hostile.mjs hold MARKER
// connects to the `stubborn` server (given MARKER), prints "connected" and waits to be killed.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { connect } from 'ekl-evidence/mcp'

const here = dirname(fileURLToPath(import.meta.url))
const [transport, scenario, url] = process.argv.slice(2)
const python = process.env.EKL_PYTHON ?? 'python3'
if (transport === 'hold') {
  const held = await connect({ command: python, args: [join(here, 'hostile_server.py'), 'stubborn', scenario] })
  await held.listTools()
  console.log('connected')
  await new Promise((resolve) => setTimeout(resolve, 3_600_000))
}
const target = transport === 'http' ? url : { command: python, args: [join(here, 'hostile_server.py'), scenario] }
let out
let s
try {
  s = await connect(target)
  const listing = await s.listTools()
  const call = await s.callTool('real', {})
  out = { tools: listing.tools.map((t) => t.name), text: call.wireResult.content[0].text, fingerprint: listing.upstreamFingerprint() }
} catch (e) {
  out = typeof e?.code === 'string' && /^[A-Z0-9_]+$/.test(e.code) ? { code: e.code } : { error: String(e?.message ?? e) }
}
console.log(JSON.stringify(out))
try {
  await s?.close()
} catch {}
process.exit(0)

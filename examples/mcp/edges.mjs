// The edges of ekl-evidence/mcp's wire recording, against edge_server.py (a server written by
// hand): a log kept across two sessions whose servers list different tools, a server's own
// requests numbered like the client's call, concurrent calls on one session, `offered` in a wrong
// form, and a relative log with the server in another working directory; and (issue 41) a
// listing's refusal failing the session, and `timeout` on the handshake and on a call. edges.py
// checks the same of ekl_evidence.mcp. Run by scripts/test/45-mcp.sh (EKL_PYTHON runs the server); prints one line a check.
import { mkdtempSync, mkdirSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { connect } from 'ekl-evidence/mcp'

const here = dirname(fileURLToPath(import.meta.url))
const python = process.env.EKL_PYTHON ?? 'python3'
const server = (tag, cwd) => ({ command: python, args: [join(here, 'edge_server.py'), tag], ...(cwd ? { cwd } : {}) })

function check(ok, what, got) {
  if (!ok) {
    console.error(`FAILED: ${what}: got ${JSON.stringify(got)}`)
    process.exit(1)
  }
  console.log(`ok: ${what}`)
}

const textOf = (call) => call.wireResult.content[0].text

async function codeOf(f) {
  try {
    await f()
  } catch (e) {
    return e.code
  }
  return null
}

{
  const hostile = await connect({ command: python, args: [join(here, 'hostile_server.py'), 'loop-cursor'] })
  try {
    const first = await codeOf(() => hostile.listTools())
    const later = await codeOf(() => hostile.callTool('real', {}))
    check(first === 'MCP_BAD_CURSOR' && later === 'MCP_BAD_CURSOR', "a listing's MCP_BAD_CURSOR fails the session (M2)", [first, later])
  } finally {
    await hostile.close()
  }
  let start = Date.now()
  const slow = await connect(server('a'), { timeout: 1000 })
  try {
    const first = await codeOf(() => slow.callTool('sleep', {}))
    const took = Date.now() - start
    const later = await codeOf(() => slow.callTool('echo', { text: 'x' }))
    check(first === 'MCP_TIMEOUT' && later === 'MCP_TIMEOUT' && took < 8000, 'a call past timeout: MCP_TIMEOUT, and the session refuses the next', [first, later, took])
  } finally {
    await slow.close()
  }
  start = Date.now()
  const handshake = await codeOf(() => connect(server('mute'), { timeout: 1000 }))
  check(handshake === 'MCP_TIMEOUT' && Date.now() - start < 8000, 'a handshake past timeout: MCP_TIMEOUT', [handshake, Date.now() - start])
  check((await codeOf(() => connect(server('a'), { timeout: 0 }))) === 'INVALID_ARGUMENT', 'timeout 0 is INVALID_ARGUMENT', null)
}

const tmp = mkdtempSync(join(tmpdir(), 'ekl-mcp-edges-'))
try {
  const log = join(tmp, 'kept.log')
  const names = []
  for (const tag of ['a', 'b']) {
    const s = await connect(server(tag), { log })
    try {
      names.push((await s.listTools()).tools.map((t) => t.name))
    } finally {
      await s.close()
    }
  }
  check(JSON.stringify(names) === JSON.stringify([['echo', 'tool_a'], ['echo', 'tool_b']]), 'a kept log: each session reads its own answers', names)

  const s = await connect(server('a'))
  try {
    const one = await s.callTool('echo', { text: 'one' })
    check(textOf(one) === 'one', "the server's own requests, numbered like the call, are not its answer", textOf(one))
    const calls = await Promise.all(['x', 'y', 'z'].map((t) => s.callTool('echo', { text: t })))
    const texts = calls.map(textOf)
    check(JSON.stringify(texts) === '["x","y","z"]', 'concurrent calls on one session: each gets its own answer', texts)
    const listing = await s.listTools()
    for (const bad of [['echo'], 'echo', { offerd: ['echo'] }, { offered: 'echo' }]) {
      let code = null
      try {
        listing.upstreamFingerprint(bad)
      } catch (e) {
        code = e.code
      }
      check(code === 'INVALID_ARGUMENT', `upstreamFingerprint(${JSON.stringify(bad)}) is INVALID_ARGUMENT`, code)
    }
    check(listing.upstreamFingerprint({ offered: ['echo'] }) === (await s.upstreamFingerprint({ offered: ['echo'] })), 'the listing and the session agree', null)
  } finally {
    await s.close()
  }

  const elsewhere = join(tmp, 'elsewhere')
  mkdirSync(elsewhere)
  const before = process.cwd()
  process.chdir(tmp)
  let listed
  try {
    const r = await connect(server('a', elsewhere), { log: 'relative.log' })
    try {
      listed = (await r.listTools()).tools.map((t) => t.name)
    } finally {
      await r.close()
    }
  } finally {
    process.chdir(before)
  }
  check(JSON.stringify(listed) === '["echo","tool_a"]' && existsSync(join(tmp, 'relative.log')), "a relative log is the client's, whatever the server's working directory", listed)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}

// A stdio relay that records every JSON-RPC message exactly as it crosses the wire (used by
// ekl-evidence/mcp; the design of examples/mcp/wiretap.py):
//
//   node relay.mjs LOG -- COMMAND [ARG...]
//
// runs COMMAND (an MCP server over stdio), passes the client's stdin to it and its stdout back,
// byte for byte, and appends each line to LOG *before* passing it on: `> ` + the line for
// client -> server, `< ` + the line for server -> client. MCP's stdio transport frames one
// JSON-RPC message per line, so each LOG line after its two-character prefix is one message's text
// as sent. The SDK's transport never sees this relay (it speaks to it as to the server).
import { spawn } from 'node:child_process'
import { openSync, writeSync } from 'node:fs'

const [log, sep, command, ...args] = process.argv.slice(2)
if (log === undefined || sep !== '--' || command === undefined) {
  console.error('usage: relay.mjs LOG -- COMMAND [ARG...]')
  process.exit(64)
}
const fd = openSync(log, 'a')
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })

function pump(src, dst, prefix, done) {
  const head = Buffer.from(prefix)
  let parts = [] // the pieces of the line not yet ended (each chunk is scanned once)
  src.on('data', (chunk) => {
    let from = 0
    let i
    while ((i = chunk.indexOf(10, from)) >= 0) {
      parts.push(chunk.subarray(from, i + 1))
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts)
      parts = []
      from = i + 1
      writeSync(fd, Buffer.concat([head, line])) // recorded before it is passed on
      dst.write(line)
    }
    if (from < chunk.length) parts.push(chunk.subarray(from))
  })
  src.on('end', () => {
    if (parts.length) {
      const rest = Buffer.concat(parts)
      writeSync(fd, Buffer.concat([head, rest, Buffer.from('\n')]))
      dst.write(rest)
    }
    done()
  })
}

child.on('error', (e) => {
  console.error(`relay: ${e.message}`)
  process.exit(127)
})
pump(process.stdin, child.stdin, '> ', () => child.stdin.end())
child.stdin.on('error', () => {})
pump(child.stdout, process.stdout, '< ', () => {})
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s))

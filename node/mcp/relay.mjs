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
  let buf = Buffer.alloc(0)
  src.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk
    let i
    while ((i = buf.indexOf(10)) >= 0) {
      const line = buf.subarray(0, i + 1)
      buf = buf.subarray(i + 1)
      writeSync(fd, Buffer.concat([head, line])) // recorded before it is passed on
      dst.write(line)
    }
  })
  src.on('end', () => {
    if (buf.length) {
      writeSync(fd, Buffer.concat([head, buf, Buffer.from('\n')]))
      dst.write(buf)
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

// A stdio relay that hands every JSON-RPC message to ekl-evidence/mcp as it crosses the wire:
//
//   node relay.mjs SOCKET [--log LOG] -- COMMAND [ARG...]
//
// runs COMMAND (an MCP server over stdio), passes the client's stdin to it and its stdout back,
// byte for byte, and sends each line to the Unix socket SOCKET *before* passing it on: `> ` + the
// line for client -> server, `< ` + the line for server -> client (`!` alone for a line beyond
// 64 MiB, which is dropped: the module refuses it, BODY_TOO_LARGE, and the SDK never buffers it). MCP's stdio transport frames one
// JSON-RPC message per line. With --log the same records are appended to LOG (the caller's file:
// it grows with the traffic). When the client's stdin ends, or the relay is asked to stop, the
// server's stdin is closed and the server ended after 2 s at most: a client that dies does not
// leave the server running. The SDK's transport never sees this relay.
import { spawn } from 'node:child_process'
import { openSync, writeSync } from 'node:fs'
import { connect } from 'node:net'

const MAX_LINE = 64 * 1024 * 1024
const argv = process.argv.slice(2)
const sockPath = argv.shift()
let logFd
if (argv[0] === '--log') {
  logFd = openSync(argv[1], 'a')
  argv.splice(0, 2)
}
const [sep, command, ...args] = argv
if (sockPath === undefined || sep !== '--' || command === undefined) {
  console.error('usage: relay.mjs SOCKET [--log LOG] -- COMMAND [ARG...]')
  process.exit(64)
}

const sink = connect(sockPath)
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })

function stop() {
  child.stdin.destroy()
  const kill = setTimeout(() => child.kill('SIGKILL'), 2000)
  kill.unref()
  child.once('close', () => process.exit(1))
  if (child.exitCode !== null || child.signalCode !== null) process.exit(1)
}
sink.on('error', stop) // the client is gone

function record(data) {
  sink.write(data) // before the message is passed on (one stream: the records keep their order)
  if (logFd !== undefined) writeSync(logFd, data)
}

function pump(src, dst, prefix, done) {
  const head = Buffer.from(prefix)
  let parts = [] // the pieces of the line not yet ended
  let size = 0
  let over = false // the line went past MAX_LINE: recorded as `!`, dropped to its end
  const forward = (data) => {
    // backpressure: a reader that stops reading stops this relay, never grows its memory
    if (!dst.write(data)) {
      src.pause()
      dst.once('drain', () => src.resume())
    }
  }
  src.on('data', (chunk) => {
    let from = 0
    let i
    while ((i = chunk.indexOf(10, from)) >= 0) {
      const piece = chunk.subarray(from, i + 1)
      from = i + 1
      if (over) {
        over = false
        continue
      }
      const line = parts.length ? Buffer.concat([...parts, piece]) : piece
      parts = []
      size = 0
      record(Buffer.concat([head, line]))
      forward(line)
    }
    if (from < chunk.length && !over) {
      const rest = chunk.subarray(from)
      if (size + rest.length > MAX_LINE) {
        over = true
        record(Buffer.from('!\n'))
        parts = []
        size = 0
      } else {
        parts.push(Buffer.from(rest))
        size += rest.length
      }
    }
  })
  src.on('end', () => {
    if (parts.length && !over) {
      const rest = Buffer.concat(parts)
      record(Buffer.concat([head, rest, Buffer.from('\n')]))
      dst.write(rest)
    }
    done()
  })
}

child.on('error', (e) => {
  console.error(`relay: ${e.message}`)
  process.exit(127)
})
// The client closed its end (MCP's stdio shutdown) or died: the server gets 2 s.
pump(process.stdin, child.stdin, '> ', () => {
  child.stdin.end()
  setTimeout(() => child.kill('SIGKILL'), 2000).unref()
})
child.stdin.on('error', () => {})
process.stdout.on('error', stop) // the client's end of the server's output broke: the client is gone
pump(child.stdout, process.stdout, '< ', () => {})
child.on('close', (code, signal) => {
  sink.end()
  process.exit(code ?? (signal ? 1 : 0))
})
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, stop)

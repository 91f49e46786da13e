// MCP evidence with `ekl-evidence/mcp` (the package's module over the official TypeScript SDK):
// every page of tools/list and one tools/call, fingerprinted as they crossed the wire.
//
//   node dist/evidence.js --salt HEX --offered A,B --call NAME ARGS_JSON --log OUT -- SERVER_COMMAND [ARG...]
//   node dist/evidence.js --salt HEX --offered A,B --call NAME ARGS_JSON --log OUT --url URL
//
// prints one JSON object and writes the recorded wire to OUT (the format independent.py reads).
import { writeFileSync } from 'node:fs'
import { connect } from 'ekl-evidence/mcp'

const argv = process.argv.slice(2)
const opts: Record<string, string> = {}
while (argv.length && ['--salt', '--offered', '--log', '--url', '--call'].includes(argv[0]!)) {
  const flag = argv.shift()!
  if (flag === '--call') {
    opts['tool'] = argv.shift()!
    opts['args'] = argv.shift()!
  } else opts[flag.slice(2)] = argv.shift()!
}
const url = opts['url']
const [sep, command, ...args] = argv
if (url === undefined && (sep !== '--' || command === undefined)) {
  console.error('usage: evidence.js --salt HEX --offered A,B --call NAME ARGS --log OUT (-- COMMAND ARGS | --url URL)')
  process.exit(64)
}
const session = await connect(url ?? { command: command!, args })
const listing = await session.listTools()
const call = await session.callTool(opts['tool']!, JSON.parse(opts['args']!) as Record<string, unknown>)
await session.close()
writeFileSync(opts['log']!, session.wire.map((m) => (m.direction === 'sent' ? '> ' : '< ') + m.text + '\n').join(''))
console.log(
  JSON.stringify({
    client: 'ts',
    upstream_fingerprint: listing.upstreamFingerprint({ offered: opts['offered']!.split(',') }),
    output_fingerprint: call.outputFingerprint(opts['salt']!),
    pages: listing.texts.length,
    tools: listing.tools.map((t) => (t as { name: string }).name),
  }),
)

// An MCP client over stdio with the official TypeScript SDK (npm @modelcontextprotocol/sdk) that
// keeps EKP evidence of what the server answered (PROTOCOL §5.1, §15.3):
//
// * the upstream fingerprint of `tools/list` (the tools offered: here `search_listings`), and
// * the salted output fingerprint of a `tools/call` result (structuredContent, else content),
//
// both computed over the messages exactly as they crossed the wire: the server is started behind
// wiretap.py, which records every JSON-RPC line before passing it on; the client finds the
// response to its own request by id and fingerprints that text (through `canonicalize`, which
// refuses a message that breaks ekl-json-1, such as one with a duplicate key). It computes the same
// two fingerprints from the SDK's parsed objects too and says whether they agree.
//
//   node dist/client.js [--salt HEX] LOG -- SERVER_COMMAND [ARG...]
//
// prints one JSON object (see 45-mcp.sh, which runs it against server.py and server.ts).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { canonicalize, newSalt, outputFingerprint, upstreamFingerprint } from 'ekl-evidence'

const OFFERED = ['search_listings']

const argv = process.argv.slice(2)
let salt = newSalt() // a fresh salt per call, as an agent draws it
if (argv[0] === '--salt') {
  salt = argv[1] ?? ''
  argv.splice(0, 2)
}
const [log, sep, command, ...args] = argv
if (log === undefined || sep !== '--' || command === undefined) {
  console.error('usage: client.js [--salt HEX] LOG -- SERVER_COMMAND [ARG...]')
  process.exit(64)
}

/** The result of the JSON-RPC response to the request `method` sent last, as it crossed the wire. */
function wireResult(method: string): unknown {
  const lines = readFileSync(log!, 'utf8').split('\n')
  let id: unknown
  for (const line of lines) {
    if (!line.startsWith('> ')) continue
    const msg: { method?: string; id?: unknown } = JSON.parse(line.slice(2))
    if (msg.method === method && msg.id !== undefined) id = msg.id
  }
  for (const line of lines) {
    if (!line.startsWith('< ')) continue
    // canonicalize reads the text with every ekl-json-1 rule (duplicate keys, integers beyond
    // 2^53, lone surrogates are refused); what it returns parses back to the same value.
    const msg: { id?: unknown; result?: unknown } = JSON.parse(canonicalize(line.slice(2)).toString())
    if (msg.id === id && 'result' in msg) return msg.result
  }
  throw new Error(`no response to ${method} in ${log}`)
}

const wiretap = fileURLToPath(new URL('../wiretap.py', import.meta.url))
const transport = new StdioClientTransport({
  command: process.env.EKL_PYTHON ?? 'python3',
  args: [wiretap, log, '--', command, ...args],
})
const client = new Client({ name: 'ekl-evidence-example', version: '1.0.0' })
await client.connect(transport)
const tools = await client.listTools()
const result = await client.callTool({ name: 'search_listings', arguments: { area_ref: 'loc:ca:dublin', min_beds: 3 } })
await client.close()

// The SDK's objects go to the core as they are: no cast, no copy.
const sdk = {
  upstream_fingerprint: upstreamFingerprint(tools, { offered: OFFERED }),
  output_fingerprint: outputFingerprint(salt, result),
}
const wire = {
  upstream_fingerprint: upstreamFingerprint(wireResult('tools/list'), { offered: OFFERED }),
  output_fingerprint: outputFingerprint(salt, wireResult('tools/call')),
}
const same = sdk.upstream_fingerprint === wire.upstream_fingerprint && sdk.output_fingerprint === wire.output_fingerprint
console.log(JSON.stringify({ client: 'ts', salt, ...wire, sdk_agrees_with_wire: same, sdk }))

// An MCP server with the official TypeScript SDK's low-level `Server` that lists its tools in pages
// of two (`nextCursor`), so a client must follow every page (PROTOCOL §5.1 covers every tool
// listed). Five tools; `get_quote` answers with a content array only (the output fingerprint then
// covers `content`). Run: node dist/server-paged.js (stdio) or node dist/server-paged.js --http
// PORT (Streamable HTTP on 127.0.0.1:PORT, path /mcp; PORT 0: any free port, printed as
// `listening URL` on stdout).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

const PAGE = 2
const TOOLS: Tool[] = [
  { name: 'search_listings', description: 'Search homes for sale.', inputSchema: { type: 'object', properties: { area_ref: { type: 'string' } }, required: ['area_ref'] }, annotations: { readOnlyHint: true } },
  { name: 'get_quote', title: 'Quote', description: 'Price a listing (€, 0.1 % fee).', inputSchema: { type: 'object', properties: { listing_id: { type: 'string' }, fee: { type: 'number', default: 0.001 } } } },
  { name: 'internal_debug', description: 'Not offered to the network.', inputSchema: { type: 'object' } },
  { name: 'book_viewing', description: 'Book a viewing.', inputSchema: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } }, outputSchema: { type: 'object', properties: { booked: { type: 'boolean' } } }, annotations: { destructiveHint: false, idempotentHint: true } },
  { name: 'Ünïcode_tool', description: 'Sorted by UTF-16 code units.', inputSchema: { type: 'object', properties: {} } },
]

function paged(): Server {
  const server = new Server({ name: 'paged-ts', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor.replace(/^page-/, ''))
    if (!Number.isInteger(start) || start < 0 || start >= TOOLS.length) throw new McpError(ErrorCode.InvalidParams, 'bad cursor')
    const end = start + PAGE
    return end < TOOLS.length ? { tools: TOOLS.slice(start, end), nextCursor: `page-${end}` } : { tools: TOOLS.slice(start) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name === 'get_quote') {
      return { content: [{ type: 'text', text: `quote for ${String(request.params.arguments?.['listing_id'])}: 1349000.00` }] }
    }
    if (request.params.name === 'book_viewing') return { structuredContent: { booked: true }, content: [{ type: 'text', text: '{"booked":true}' }] }
    return { content: [{ type: 'text', text: 'ok' }] }
  })
  return server
}

if (process.argv[2] === '--http') {
  const http = createServer((req, res) => {
    const server = paged()
    const transport = new StreamableHTTPServerTransport({})
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((e: unknown) => {
        console.error(e)
        if (!res.headersSent) res.writeHead(500).end()
      })
  })
  http.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
    console.log(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)
  })
} else {
  await paged().connect(new StdioServerTransport())
}

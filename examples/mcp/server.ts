// A small MCP server with the official TypeScript SDK (npm @modelcontextprotocol/sdk), the twin of
// server.py: `search_listings` (structured output: the output fingerprint covers structuredContent)
// and `internal_debug` (not offered to the network). Run: node dist/server.js (stdio), or
// node dist/server.js --http PORT (Streamable HTTP on 127.0.0.1:PORT, path /mcp; PORT 0: any free
// port, printed as `listening URL` on stdout).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

const homes = [
  { address: '4252 Escudo Ct', price: '1349000.00', beds: 4 },
  { address: '17 Rue Émile Zola', price: '689000.00', beds: 3 },
]

function listings(): McpServer {
  const server = new McpServer({ name: 'listings-ts', version: '1.0.0' })
  server.registerTool(
    'search_listings',
    {
      description: 'Search homes for sale.',
      inputSchema: { area_ref: z.string(), min_beds: z.number().int().default(1) },
      outputSchema: {
        listings: z.array(z.object({ address: z.string(), price: z.string(), beds: z.number().int() })),
        next_cursor: z.string().nullable(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ min_beds }) => {
      const structuredContent = { listings: homes.filter((h) => h.beds >= min_beds), next_cursor: null }
      return { structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] }
    },
  )
  server.registerTool('internal_debug', { description: 'Not offered to the network.' }, async () => ({
    content: [{ type: 'text', text: 'ok' }],
  }))
  return server
}

if (process.argv[2] === '--http') {
  // stateless: a server and a transport per request, as the SDK's own example does
  const http = createServer((req, res) => {
    const server = listings()
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
  await listings().connect(new StdioServerTransport())
}

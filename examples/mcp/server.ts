// A small MCP server over stdio with the official TypeScript SDK (npm @modelcontextprotocol/sdk),
// the twin of server.py: `search_listings` (structured output: the output fingerprint covers
// structuredContent) and `internal_debug` (not offered to the network). Run: node dist/server.js
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'listings-ts', version: '1.0.0' })

const homes = [
  { address: '4252 Escudo Ct', price: '1349000.00', beds: 4 },
  { address: '17 Rue Émile Zola', price: '689000.00', beds: 3 },
]

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

await server.connect(new StdioServerTransport())

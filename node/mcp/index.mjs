// ekl-evidence/mcp: MCP evidence as it crossed the wire, with the official MCP TypeScript SDK
// (npm @modelcontextprotocol/sdk, a peer dependency). Node only.
//
// PROTOCOL §5.1 fingerprints the tools a server lists (tools/list) and §15.3 a tool result. The
// SDK's `Client` is connected through the SDK's own transports, and the raw text of every JSON-RPC
// message is kept as it arrived:
// * stdio: the server command runs behind relay.mjs, which writes each line to a log before
//   passing it on (the SDK's StdioClientTransport is unchanged);
// * Streamable HTTP: the SDK's StreamableHTTPClientTransport with a `fetch` that records each
//   request body and each response (a JSON body, or each event of an SSE stream) before the SDK
//   reads it.
// Each response is read through `canonicalize` (every ekl-json-1 rule: a duplicate key or an
// integer beyond 2^53 is refused, never silently changed). docs/decisions.md, B10.
//
// A response is found among the messages recorded since its own call began: the last request of
// that method the SDK sent for it (the same tool name, the same cursor) and the response with its
// id (a message with `result` or `error`, not a server's own request). The calls of one Session
// run one at a time, so each finds its own. A kept `log` may hold earlier sessions (whose request
// ids start again at 0): a session reads only what the relay appends after it began.
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { canonicalize, outputFingerprint, upstreamFingerprint } from '../index.mjs'

let sdk
try {
  const [client, stdio, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ])
  sdk = { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport }
} catch (e) {
  throw new Error(`ekl-evidence/mcp needs the official MCP SDK: npm install @modelcontextprotocol/sdk (1.x): ${e.message}`, { cause: e })
}

const RELAY = fileURLToPath(new URL('./relay.mjs', import.meta.url))

/** The most tools/list pages followed before giving up (a server whose cursors never end). */
export const MAX_PAGES = 1000

/**
 * The messages of one connection, in the order they crossed, each parsed once. Over stdio they are
 * read from the relay's log as it grows (HTTP adds them as they cross): from where the log ended
 * when the connection began, whole lines only (the last may be half written), each line once; a
 * line that is not UTF-8 keeps its bytes, which canonicalize refuses (INVALID_UTF8) if it is ever
 * the response asked for.
 */
class Wire {
  constructor(log) {
    this.log = log // stdio: the relay's log file (an absolute path); HTTP: kept in memory
    this.list = []
    this.raw = [] // a log line's bytes, as canonicalize reads them
    this.parsed = []
    this.readTo = log === undefined ? 0 : sizeOf(log)
    this.pending = Buffer.alloc(0)
  }
  add(direction, text, raw) {
    this.list.push(Object.freeze({ direction, text }))
    this.raw.push(raw)
    this.parsed.push(members(text))
  }
  sync() {
    if (this.log === undefined) return
    const fd = openSync(this.log, 'r')
    let data
    try {
      const size = fstatSync(fd).size
      data = Buffer.alloc(Math.max(0, size - this.readTo))
      let at = 0
      while (at < data.length) {
        const n = readSync(fd, data, at, data.length - at, this.readTo + at)
        if (n === 0) break
        at += n
      }
      data = data.subarray(0, at)
    } finally {
      closeSync(fd)
    }
    this.readTo += data.length
    data = this.pending.length ? Buffer.concat([this.pending, data]) : data
    const cut = data.lastIndexOf(10) + 1
    this.pending = Buffer.from(data.subarray(cut))
    let from = 0
    while (from < cut) {
      const end = data.indexOf(10, from)
      const line = data.subarray(from, end)
      from = end + 1
      if (line.length >= 2 && (line[0] === 0x3e || line[0] === 0x3c) && line[1] === 0x20) {
        const raw = Buffer.from(line.subarray(2))
        this.add(line[0] === 0x3e ? 'sent' : 'received', raw.toString('utf8'), raw)
      }
    }
  }
  count() {
    this.sync()
    return this.list.length
  }
  messages() {
    this.sync()
    return this.list.slice()
  }
  /** The id of the last `method` request sent from message `start` on whose params `accept` takes. */
  requestId(start, method, accept) {
    this.sync()
    const found = []
    for (let i = start; i < this.list.length; i++) {
      if (this.list[i].direction !== 'sent') continue
      for (const m of this.parsed[i]) if (isObject(m) && m.method === method && 'id' in m && accept(m.params)) found.push(m.id)
    }
    if (found.length === 0) throw new Error(`the SDK sent no ${method} request`)
    return found[found.length - 1]
  }
  /** The text of the response to `id` (received from message `start` on) and its result, read through canonicalize. */
  response(start, id) {
    this.sync()
    for (let i = start; i < this.list.length; i++) {
      const m = this.list[i]
      if (m.direction !== 'received') continue
      const lenient = this.parsed[i]
      for (let j = 0; j < lenient.length; j++) {
        const msg = lenient[j]
        if (isObject(msg) && !('method' in msg) && ('result' in msg || 'error' in msg) && msg.id === id) {
          // canonicalize reads the text with every ekl-json-1 rule (throws EklError on a duplicate
          // key, an integer beyond 2^53 or invalid UTF-8); its output parses back to the same value.
          const strict = JSON.parse(canonicalize(this.raw[i] ?? m.text).toString())
          const one = Array.isArray(strict) ? strict[j] : strict
          if (!isObject(one.result)) throw new Error(`the response to request ${JSON.stringify(id)} has no result object`)
          return { text: m.text, result: one.result }
        }
      }
    }
    throw new Error(`no response to request ${JSON.stringify(id)} was recorded`)
  }
  freeze() {
    if (this.log !== undefined) {
      this.sync()
      this.log = undefined
    }
  }
}

function sizeOf(file) {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

/** The message(s) of one wire text, parsed leniently (only to find ids and methods). */
function members(text) {
  let v
  try {
    v = JSON.parse(text)
  } catch {
    return []
  }
  return Array.isArray(v) ? v : [v]
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Every page of one tools/list as it crossed the wire. */
export class ToolsListing {
  constructor(texts, results, sdkPages) {
    /** The raw text of each page's JSON-RPC response, in order. */
    this.texts = texts
    /** Each page's result, read through canonicalize. */
    this.results = results
    /** The SDK's parsed pages (for display; not what is fingerprinted). */
    this.sdk = sdkPages
    Object.freeze(this)
  }
  /** The tools of every page, as the server sent them. */
  get tools() {
    return this.results.flatMap((r) => (Array.isArray(r.tools) ? r.tools : []))
  }
  /**
   * PROTOCOL §5.1 over the tools of every page (a name listed on two pages is refused when
   * offered). `options` as upstreamFingerprint's: `{ offered }`, checked as there (an unknown
   * option or `offered` that is not an array of strings is INVALID_ARGUMENT).
   */
  upstreamFingerprint(options) {
    for (const r of this.results) if (!Array.isArray(r.tools)) upstreamFingerprint(r, options) // the core's own refusal
    return upstreamFingerprint({ tools: this.tools }, options)
  }
}

/** One tools/call as it crossed the wire. */
export class ToolCall {
  constructor(text, wireResult, result) {
    /** The raw text of the JSON-RPC response. */
    this.text = text
    /** Its result, read through canonicalize: what the output fingerprint covers. */
    this.wireResult = wireResult
    /** The SDK's parsed result (not what is fingerprinted). */
    this.result = result
    Object.freeze(this)
  }
  /** PROTOCOL §15.3: SHA-256(salt ‖ JCS(structuredContent, else content)) of the wire result. */
  outputFingerprint(salt) {
    return outputFingerprint(salt, this.wireResult)
  }
}

/** An SDK client whose messages are recorded as they crossed the wire. */
export class Session {
  #wire
  #cleanup
  #turn = Promise.resolve()
  constructor(client, wire, cleanup) {
    /** The official SDK's client, connected. */
    this.client = client
    this.#wire = wire
    this.#cleanup = cleanup
  }
  /** Every message recorded so far, in order. */
  get wire() {
    return this.#wire.messages()
  }
  /** Runs `f` after the calls before it (each call finds its own response among the messages since it began). */
  #inTurn(f) {
    const run = this.#turn.then(f)
    this.#turn = run.then(() => {}, () => {})
    return run
  }
  /** tools/list, every page, each asked with the nextCursor of the page before as it crossed the wire. */
  async listTools() {
    const texts = []
    const results = []
    const pages = []
    const seen = new Set()
    let cursor
    for (let n = 0; n < MAX_PAGES; n++) {
      const asked = cursor
      const { page, text, result } = await this.#inTurn(async () => {
        const start = this.#wire.count()
        const page = await this.client.listTools(asked === undefined ? undefined : { cursor: asked })
        const id = this.#wire.requestId(start, 'tools/list', (p) => (isObject(p) ? p.cursor : undefined) === asked)
        return { page, ...this.#wire.response(start, id) }
      })
      texts.push(text)
      results.push(result)
      pages.push(page)
      const next = result.nextCursor
      if (next === undefined || next === null) return new ToolsListing(texts, results, pages)
      if (typeof next !== 'string' || seen.has(next)) throw new Error(`tools/list: nextCursor ${JSON.stringify(next)} is not a new string`)
      seen.add(next)
      cursor = next
    }
    throw new Error(`tools/list: more than ${MAX_PAGES} pages`)
  }
  /** The upstream fingerprint (§5.1) of every page of tools/list, asked now. */
  async upstreamFingerprint(options = {}) {
    return (await this.listTools()).upstreamFingerprint(options)
  }
  /** tools/call through the SDK, with the response as it crossed the wire (the last tools/call it sent). */
  async callTool(name, args, options) {
    return this.#inTurn(async () => {
      const start = this.#wire.count()
      const params = args === undefined ? { name } : { name, arguments: args }
      const result = await this.client.callTool(params, undefined, options)
      const id = this.#wire.requestId(start, 'tools/call', (p) => isObject(p) && p.name === name)
      const { text, result: wireResult } = this.#wire.response(start, id)
      return new ToolCall(text, wireResult, result)
    })
  }
  /** Closes the client (and the server process over stdio); the recorded messages stay readable. */
  async close() {
    try {
      await this.client.close()
    } finally {
      this.#wire.freeze()
      this.#cleanup()
    }
  }
  async [Symbol.asyncDispose]() {
    await this.close()
  }
}

/** An SSE parser (the WHATWG event-stream rules) fed the bytes the SDK is about to read. */
class SseTap {
  constructor(wire) {
    this.wire = wire
    this.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
    this.buf = ''
    this.data = []
    this.event = ''
  }
  feed(chunk, final = false) {
    this.buf += this.decoder.decode(chunk, { stream: !final })
    for (;;) {
      const cr = this.buf.indexOf('\r')
      const lf = this.buf.indexOf('\n')
      const i = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf)
      if (i < 0) break
      if (this.buf[i] === '\r' && i + 1 === this.buf.length && !final) break // a \r\n split across chunks
      const end = this.buf.startsWith('\r\n', i) ? i + 2 : i + 1
      const line = this.buf.slice(0, i)
      this.buf = this.buf.slice(end)
      this.line(line)
    }
  }
  line(line) {
    if (line === '') {
      if (this.data.length && (this.event === '' || this.event === 'message')) this.wire.add('received', this.data.join('\n'))
      this.data = []
      this.event = ''
      return
    }
    if (line.startsWith(':')) return
    const c = line.indexOf(':')
    const name = c < 0 ? line : line.slice(0, c)
    let value = c < 0 ? '' : line.slice(c + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (name === 'data') this.data.push(value)
    else if (name === 'event') this.event = value
  }
}

function tapFetch(wire, inner) {
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() === 'POST' && typeof init?.body === 'string' && init.body.trim()) wire.add('sent', init.body)
    const res = await inner(url, init)
    const kind = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
    if (res.body === null || (kind !== 'application/json' && kind !== 'text/event-stream')) return res
    let transform
    if (kind === 'text/event-stream') {
      const sse = new SseTap(wire)
      transform = { transform: (chunk, c) => (sse.feed(chunk), c.enqueue(chunk)), flush: () => sse.feed(new Uint8Array(0), true) }
    } else {
      const parts = []
      transform = {
        transform: (chunk, c) => (parts.push(chunk), c.enqueue(chunk)),
        flush: () => {
          const raw = Buffer.concat(parts)
          const text = raw.toString('utf8')
          if (text.trim()) wire.add('received', text, raw)
        },
      }
    }
    // recorded in the transform, before the SDK reads the bytes
    return new Response(res.body.pipeThrough(new TransformStream(transform)), { status: res.status, statusText: res.statusText, headers: res.headers })
  }
}

/**
 * Connects the SDK's Client to `server`: `{ command, args?, env?, cwd? }` (stdio) or a URL (string or
 * URL: Streamable HTTP). Options: `clientInfo` ({ name, version }), `clientOptions` (the Client's
 * second argument), `log` (stdio: the relay's log file, kept; by default a temporary one removed on
 * close), `requestInit` and `fetch` (HTTP: passed to the SDK's transport, `fetch` wrapped).
 */
export async function connect(server, options = {}) {
  const own = (k) => (Object.hasOwn(options, k) ? options[k] : undefined)
  const clientInfo = own('clientInfo') ?? { name: 'ekl-evidence', version: '1' }
  const client = new sdk.Client(clientInfo, own('clientOptions'))
  let wire
  let cleanup = () => {}
  let transport
  if (typeof server === 'string' || server instanceof URL) {
    wire = new Wire()
    const opts = { fetch: tapFetch(wire, own('fetch') ?? globalThis.fetch) }
    if (own('requestInit') !== undefined) opts.requestInit = own('requestInit')
    transport = new sdk.StreamableHTTPClientTransport(new URL(server), opts)
  } else if (isObject(server) && typeof server.command === 'string') {
    let log = own('log')
    if (log === undefined) {
      const dir = mkdtempSync(join(tmpdir(), 'ekl-mcp-'))
      log = join(dir, 'wire.log')
      cleanup = () => rmSync(dir, { recursive: true, force: true })
    } else {
      log = resolve(log) // the relay may run in the server's own cwd
    }
    writeFileSync(log, '', { flag: 'a' })
    wire = new Wire(log)
    const params = { command: process.execPath, args: [RELAY, log, '--', server.command, ...(server.args ?? [])] }
    for (const k of ['env', 'cwd', 'stderr']) if (server[k] !== undefined) params[k] = server[k]
    transport = new sdk.StdioClientTransport(params)
  } else {
    throw new TypeError('server must be { command, args? } (stdio) or a URL (Streamable HTTP)')
  }
  try {
    await client.connect(transport)
  } catch (e) {
    cleanup()
    throw e
  }
  return new Session(client, wire, cleanup)
}

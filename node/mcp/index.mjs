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
// Every message, as its bytes crossed, goes to the core's MCP machine (mcpWindow, mcpListingPage;
// docs/decisions/mcp.md), which judges it as the official SDKs do and keeps only the answer the
// SDK was handed: a decoy next to the answer (jsonrpc 1.0, a batch, the id as a string, a second
// answer) is refused with its code (MCP_INVALID_MESSAGE, MCP_AMBIGUOUS_ANSWER), as is what the
// core's reader refuses (INVALID_UTF8, DUPLICATE_KEY, ...), at once: the SDK's call is aborted.
// Notifications and the server's own requests are routed and dropped, never kept.
//
// The SDK's reading decides (docs/decisions/mcp.md#mcp-sdk-reading): the taps read what the SDK
// reads (fetch's body, already decoded from its Content-Encoding; UTF-8, a byte-order mark
// dropped as the SDK's TextDecoderStream drops it), a charset other than UTF-8 is refused
// (MCP_UNSUPPORTED_ENCODING), an answer on a request's event stream must carry that request's id
// (MCP_AMBIGUOUS_ANSWER: the Python SDK would take it as the answer, this SDK by its id), and once
// the SDK returns, the answer recorded is read by the SDK's own zod schemas (JSONRPCMessageSchema,
// ListToolsResultSchema, CallToolResultSchema) and compared with what the SDK returned: any
// difference is MCP_AMBIGUOUS_ANSWER, never evidence. Every refusal fails the session. `timeout`
// (DEFAULT_TIMEOUT_MS) bounds the handshake and each call (MCP_TIMEOUT).
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { EklError, mcpListingPage, mcpWindow, outputFingerprint, upstreamFingerprint } from '../index.mjs'

let sdk
try {
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ])
  sdk = {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
    ListToolsResultSchema: types.ListToolsResultSchema,
    CallToolResultSchema: types.CallToolResultSchema,
    RequestTimeout: types.ErrorCode.RequestTimeout,
  }
} catch (e) {
  throw new Error(`ekl-evidence/mcp needs the official MCP SDK: npm install @modelcontextprotocol/sdk (1.x): ${e.message}`, { cause: e })
}

const RELAY = fileURLToPath(new URL('./relay.mjs', import.meta.url))

/** The most tools/list pages followed (the core's bound, ekl_core::mcp::MAX_PAGES). */
export const MAX_PAGES = 1000
/** The most bytes of one message (the core's bound on an input). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024
/** How long the answer the SDK was handed may take to reach the router (it is sent first). */
const SETTLE_MS = 10_000
/** The default `timeout` of connect, in milliseconds: the handshake, and each call (one tools/call, one page of tools/list). */
export const DEFAULT_TIMEOUT_MS = 60_000
const IDLE = Object.freeze({ method: '', match: {} })

const tooLarge = (what) => new EklError('BODY_TOO_LARGE', `${what} holds more than ${MAX_MESSAGE_BYTES} bytes`)
const ambiguous = (what) => new EklError('MCP_AMBIGUOUS_ANSWER', what)
const timedOut = (what, ms) => new EklError('MCP_TIMEOUT', `${what} did not finish within ${ms} ms (the session's timeout)`)

/**
 * Whether the answer recorded (`text`), read by the SDK's own schemas (the JSON-RPC message, then
 * `schema` for its result, as the SDK's Protocol reads it), is what the SDK returned (`value`).
 */
function delivered(schema, text, value) {
  try {
    const message = sdk.JSONRPCMessageSchema.parse(JSON.parse(text))
    return Object.hasOwn(message, 'result') && isDeepStrictEqual(schema.parse(message.result), value)
  } catch {
    return false
  }
}

/**
 * One event stream the SDK reads for one request (a POST's; a GET that resumes one, `window`
 * null): an answer on it must carry that request's id (the Python SDK takes the first answer on a
 * request's stream as its answer whatever its id, this SDK by its id: refused).
 */
class RequestStream {
  constructor(window) {
    this.window = window
  }
  check(raw, seen) {
    const ok = this.window === null ? seen === 'answer' || seen === 'error' : ['answer', 'error'].includes(mcpWindow(this.window, 'received', { message: raw }).seen)
    if (!ok) throw ambiguous("an answer on the event stream of a request whose id is not that request's (the Python SDK takes it as the answer, the TypeScript SDK does not)")
  }
}

/**
 * Hands each message to the core's machine as it crosses (from the relay's socket over stdio, from
 * the fetch's stream over HTTP): the window of the call under way, or an idle one between calls (a
 * message the core refuses then fails the next call). Keeps the window's state, the first refusal,
 * and the request and answer of each call: never another message.
 */
class Router {
  constructor() {
    this.window = null
    this.failure = null
    this.request = null
    this.answer = null
    this.kept = []
    this.waiters = []
  }
  open(method, match) {
    this.window = { method, match }
    this.request = null
    this.answer = null
  }
  wake() {
    const waiters = this.waiters
    this.waiters = []
    for (const f of waiters) f()
  }
  /** A promise settled at the next answer or refusal. */
  changed() {
    return new Promise((resolve) => this.waiters.push(resolve))
  }
  fail(e) {
    if (this.failure === null) this.failure = e
    this.wake()
  }
  feed(direction, raw, stream = null) {
    if (this.failure !== null) return
    let step
    try {
      step = mcpWindow(this.window ?? IDLE, direction, { message: raw })
      if (stream !== null && ['answer', 'error', 'other'].includes(step.seen)) stream.check(raw, step.seen)
    } catch (e) {
      this.fail(e)
      return
    }
    if (this.window === null) return
    this.window = step.window
    if (step.seen === 'call') this.request = Buffer.from(raw).toString('utf8')
    else if (step.seen === 'answer') {
      this.answer = { text: Buffer.from(raw).toString('utf8'), result: step.result, bytes: step.bytes }
      this.wake()
    }
  }
  /** Ends the call's window: its answer, kept when `isDelivered` says the SDK handed it to the caller (MCP_AMBIGUOUS_ANSWER otherwise; MCP_NO_ANSWER when none was seen). A refusal fails the session. */
  close(isDelivered) {
    const window = this.window
    this.window = null
    if (this.failure === null) {
      try {
        mcpWindow(window, 'end')
        if (!isDelivered(this.answer.text)) throw ambiguous('the recorded answer is not the one the SDK delivered')
      } catch (e) {
        this.fail(e)
      }
    }
    if (this.failure !== null) throw this.failure
    this.kept.push(Object.freeze({ direction: 'sent', text: this.request }), Object.freeze({ direction: 'received', text: this.answer.text }))
    return this.answer
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Every page of one tools/list as it crossed the wire. */
export class ToolsListing {
  constructor(texts, results, sdkPages) {
    /** The raw text of each page's JSON-RPC response, in order. */
    this.texts = texts
    /** Each page's result, read by the core's reader. */
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
    return upstreamFingerprint({ tools: this.tools }, options)
  }
}

/** One tools/call as it crossed the wire. */
export class ToolCall {
  constructor(text, wireResult, result) {
    /** The raw text of the JSON-RPC response. */
    this.text = text
    /** Its result, read by the core's reader: what the output fingerprint covers. */
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

/** An SDK client whose messages are judged by the core as they cross the wire. */
export class Session {
  #router
  #cleanup
  #timeout
  #turn = Promise.resolve()
  constructor(client, router, cleanup, timeout = DEFAULT_TIMEOUT_MS) {
    /** The official SDK's client, connected. */
    this.client = client
    this.#router = router
    this.#cleanup = cleanup
    this.#timeout = timeout
  }
  /** The request and the answer of each call recorded so far, in order (notifications and the server's own requests are routed and dropped, not kept). */
  get wire() {
    return this.#router.kept.slice()
  }
  /** Runs `f` after the calls before it (each call has a window of its own). */
  #inTurn(f) {
    const run = this.#turn.then(f)
    this.#turn = run.then(() => {}, () => {})
    return run
  }
  /** Runs the SDK's call (given an AbortSignal) in a window of its own, within the session's timeout (MCP_TIMEOUT); a refusal of the core aborts it at once. Its answer is evidence only when the SDK's own `schema` reads it as what the SDK returned. */
  #call(method, match, schema, sdkCall) {
    return this.#inTurn(async () => {
      const r = this.#router
      if (r.failure !== null) throw r.failure
      r.open(method, match)
      const ms = this.#timeout
      const timer = ms === null ? null : setTimeout(() => r.fail(timedOut(method, ms)), ms)
      const abort = new AbortController()
      let done = false
      let finish
      const watch = new Promise((resolve) => {
        // wakes at each answer or refusal until the call is over (then stops re-arming)
        const check = () => (done ? undefined : r.failure !== null ? resolve(true) : r.changed().then(check))
        check()
        finish = resolve
      })
      let value
      try {
        const outcome = await Promise.race([sdkCall(abort.signal).then((v) => ({ v })), watch])
        if (outcome === true) abort.abort(r.failure)
        else value = outcome.v
      } catch (e) {
        if (r.failure === null && e?.code === sdk.RequestTimeout) r.fail(timedOut(method, ms))
        if (r.failure === null) {
          r.window = null
          throw e
        }
      } finally {
        done = true
        finish(false)
        if (timer !== null) clearTimeout(timer)
      }
      // The answer is handed over before the SDK reads it: it is on its way.
      const until = Date.now() + SETTLE_MS
      while (r.failure === null && r.answer === null && Date.now() < until) {
        await Promise.race([r.changed(), new Promise((resolve) => setTimeout(resolve, 20))])
      }
      return { value, ...r.close((text) => delivered(schema, text, value)) }
    })
  }
  /** tools/list, every page, each asked with the nextCursor of the page before as it crossed the wire (a cursor repeated, more than MAX_PAGES pages: MCP_BAD_CURSOR). */
  async listTools() {
    const texts = []
    const results = []
    const pages = []
    let step = mcpListingPage()
    while (step.window !== null) {
      const cursor = step.next
      const { value, text, result, bytes } = await this.#call('tools/list', step.window.match, sdk.ListToolsResultSchema, (signal) =>
        this.client.listTools(cursor === null ? undefined : { cursor }, { signal }),
      )
      texts.push(text)
      results.push(result)
      pages.push(value)
      try {
        step = mcpListingPage({ listing: step.listing, result, bytes })
      } catch (e) {
        this.#router.fail(e) // a refusal fails the session (docs/decisions/mcp.md M2)
        throw e
      }
    }
    return new ToolsListing(texts, results, pages)
  }
  /** The upstream fingerprint (§5.1) of every page of tools/list, asked now. */
  async upstreamFingerprint(options = {}) {
    return (await this.listTools()).upstreamFingerprint(options)
  }
  /** tools/call through the SDK, with the response as it crossed the wire (the last tools/call of this tool it sent). */
  async callTool(name, args, options) {
    const params = args === undefined ? { name } : { name, arguments: args }
    const { value, text, result } = await this.#call('tools/call', { name }, sdk.CallToolResultSchema, (signal) =>
      this.client.callTool(params, undefined, { ...options, signal: options?.signal ?? signal }),
    )
    return new ToolCall(text, result, value)
  }
  /** Closes the client (and the server process over stdio); the recorded calls stay readable. */
  async close() {
    try {
      await this.client.close()
    } finally {
      this.#cleanup()
    }
  }
  async [Symbol.asyncDispose]() {
    await this.close()
  }
}

/** An SSE parser (the WHATWG event-stream rules) fed the bytes the SDK is about to read; each message event goes to the router. */
class SseTap {
  constructor(router, stream) {
    this.router = router
    this.stream = stream
    this.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
    this.parts = []
    this.pending = 0
    this.afterCr = false
    this.data = []
    this.size = 0
    this.event = ''
  }
  feed(chunk, final = false) {
    let text
    try {
      text = this.decoder.decode(chunk, { stream: !final })
    } catch {
      this.router.fail(new EklError('INVALID_UTF8', 'an event stream of the server is not UTF-8'))
      return
    }
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1) // a \r\n split across chunks
    this.afterCr = false
    // each chunk's text is scanned once; the line not yet ended is kept as its pieces
    const ends = /[\r\n]/g
    let from = 0
    let m
    while ((m = ends.exec(text)) !== null) {
      const i = m.index
      const piece = text.slice(from, i)
      this.line(this.parts.length ? this.parts.join('') + piece : piece)
      this.parts = []
      this.pending = 0
      from = i + 1
      if (text[i] === '\r') {
        if (i + 1 === text.length) this.afterCr = true
        else if (text[i + 1] === '\n') from = i + 2
      }
      ends.lastIndex = from
    }
    if (from < text.length) {
      this.parts.push(text.slice(from))
      this.pending += text.length - from
    }
    if (this.pending + this.size > MAX_MESSAGE_BYTES) {
      this.router.fail(tooLarge('an event of the server'))
      this.parts = []
      this.pending = 0
      this.data = []
      this.size = 0
    }
  }
  line(line) {
    if (line === '') {
      const data = this.data.join('\n') // empty data (a priming event) is skipped, as the SDK skips it
      if (data !== '' && (this.event === '' || this.event === 'message')) this.router.feed('received', Buffer.from(data, 'utf8'), this.stream)
      this.data = []
      this.size = 0
      this.event = ''
      return
    }
    if (line.startsWith(':')) return
    const c = line.indexOf(':')
    const name = c < 0 ? line : line.slice(0, c)
    let value = c < 0 ? '' : line.slice(c + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (name === 'data') {
      this.data.push(value)
      this.size += value.length + 1
    } else if (name === 'event') this.event = value
  }
}

/** A response whose charset is not UTF-8 (the Python SDK decodes an event stream with it, this SDK as UTF-8): its refusal. */
function charsetRefusal(contentType) {
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=')
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue
    const value = param.slice(eq + 1).trim().replace(/^"|"$/g, '').toLowerCase()
    if (value !== 'utf-8' && value !== 'utf8') return new EklError('MCP_UNSUPPORTED_ENCODING', 'a response of the server in a charset other than UTF-8 (the SDKs decode it differently)')
  }
  return null
}

/** The request stream of a response the SDK reads as one request's (a POST of a request; a GET with Last-Event-ID), else null. */
function requestStream(method, init, body) {
  if (method === 'GET') return new Headers(init?.headers).has('last-event-id') ? new RequestStream(null) : null
  if (method !== 'POST' || body === null) return null
  let message
  try {
    message = JSON.parse(body)
  } catch {
    return null
  }
  if (!isObject(message) || !Object.hasOwn(message, 'method') || !Object.hasOwn(message, 'id')) return null
  try {
    return new RequestStream(mcpWindow({ method: message.method, match: {} }, 'sent', { message: Buffer.from(body, 'utf8') }).window)
  } catch {
    return null
  }
}

function tapFetch(router, inner) {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase()
    const body = method === 'POST' && typeof init?.body === 'string' && init.body.trim() ? init.body : null
    if (body !== null) router.feed('sent', Buffer.from(body, 'utf8'))
    const res = await inner(url, init)
    const contentType = res.headers.get('content-type') ?? ''
    const kind = contentType.split(';')[0].trim().toLowerCase()
    if (res.body === null || (kind !== 'application/json' && kind !== 'text/event-stream')) return res
    const refusal = charsetRefusal(contentType)
    if (refusal !== null) {
      router.fail(refusal)
      await res.body.cancel().catch(() => {})
      throw refusal
    }
    let transform
    if (kind === 'text/event-stream') {
      const sse = new SseTap(router, requestStream(method, init, body))
      transform = {
        transform: (chunk, c) => {
          sse.feed(chunk)
          // a refusal ends the stream: the SDK never reads (nor holds) past it
          if (router.failure !== null) c.error(router.failure)
          else c.enqueue(chunk)
        },
        flush: () => sse.feed(new Uint8Array(0), true),
      }
    } else {
      const parts = []
      let size = 0
      transform = {
        transform: (chunk, c) => {
          size += chunk.length
          if (size > MAX_MESSAGE_BYTES) {
            router.fail(tooLarge('a body of the server'))
            c.error(router.failure)
            return
          }
          parts.push(chunk)
          c.enqueue(chunk)
        },
        flush: () => {
          const raw = Buffer.concat(parts)
          if (size <= MAX_MESSAGE_BYTES && raw.toString('latin1').trim()) router.feed('received', raw)
        },
      }
    }
    // handed to the router in the transform, before the SDK reads the bytes
    return new Response(res.body.pipeThrough(new TransformStream(transform)), { status: res.status, statusText: res.statusText, headers: res.headers })
  }
}

/** Reads the relay's records (`> ` or `< ` and a message, one a line; `!` a line beyond the bound) from its socket and hands them to the router. */
function listen(router, path) {
  const server = createServer((sock) => {
    server.close()
    let parts = []
    let size = 0
    let skipping = false
    sock.on('data', (chunk) => {
      let from = 0
      let i
      while ((i = chunk.indexOf(10, from)) >= 0) {
        const piece = chunk.subarray(from, i)
        from = i + 1
        if (skipping) {
          skipping = false
          continue
        }
        const line = parts.length ? Buffer.concat([...parts, piece]) : piece
        parts = []
        size = 0
        if (line[0] === 0x21) router.fail(tooLarge('a message of the server'))
        else if (line.length >= 2 && (line[0] === 0x3e || line[0] === 0x3c) && line[1] === 0x20) router.feed(line[0] === 0x3e ? 'sent' : 'received', line.subarray(2))
      }
      if (from < chunk.length && !skipping) {
        size += chunk.length - from
        if (size > MAX_MESSAGE_BYTES + 2) {
          router.fail(tooLarge('a message of the server'))
          parts = []
          skipping = true
        } else parts.push(Buffer.from(chunk.subarray(from)))
      }
    })
    sock.on('error', () => {})
  })
  server.listen(path)
  return server
}

/**
 * Connects the SDK's Client to `server`: `{ command, args?, env?, cwd? }` (stdio) or a URL (string or
 * URL: Streamable HTTP). Options: `clientInfo` ({ name, version }), `clientOptions` (the Client's
 * second argument), `log` (stdio: a file the relay appends every line to as well: yours to keep and
 * bound; none by default), `requestInit` and `fetch` (HTTP: passed to the SDK's transport, `fetch`
 * wrapped), `timeout` (milliseconds, DEFAULT_TIMEOUT_MS = 60000: the handshake, as the SDK's
 * request timeout, and each call of the session; past it MCP_TIMEOUT and the session refuses later
 * calls; null: no deadline of the module's own).
 */
export async function connect(server, options = {}) {
  const own = (k) => (Object.hasOwn(options, k) ? options[k] : undefined)
  const timeout = Object.hasOwn(options, 'timeout') ? options.timeout : DEFAULT_TIMEOUT_MS
  if (timeout !== null && !(Number.isFinite(timeout) && timeout > 0)) throw new EklError('INVALID_ARGUMENT', 'timeout must be a positive number of milliseconds or null')
  const clientInfo = own('clientInfo') ?? { name: 'ekl-evidence', version: '1' }
  const client = new sdk.Client(clientInfo, own('clientOptions'))
  const router = new Router()
  let cleanup = () => {}
  let transport
  if (typeof server === 'string' || server instanceof URL) {
    const opts = { fetch: tapFetch(router, own('fetch') ?? globalThis.fetch) }
    if (own('requestInit') !== undefined) opts.requestInit = own('requestInit')
    transport = new sdk.StreamableHTTPClientTransport(new URL(server), opts)
  } else if (isObject(server) && typeof server.command === 'string') {
    const dir = mkdtempSync(join(tmpdir(), 'ekl-mcp-'))
    const path = join(dir, 'wire.sock')
    const listener = listen(router, path)
    await new Promise((resolve, reject) => (listener.listening ? resolve() : listener.once('listening', resolve).once('error', reject)))
    cleanup = () => {
      listener.close()
      rmSync(dir, { recursive: true, force: true })
    }
    const log = own('log')
    const extra = log === undefined ? [] : ['--log', resolve(log)] // the relay may run in the server's own cwd
    const params = { command: process.execPath, args: [RELAY, path, ...extra, '--', server.command, ...(server.args ?? [])] }
    for (const k of ['env', 'cwd', 'stderr']) if (server[k] !== undefined) params[k] = server[k]
    transport = new sdk.StdioClientTransport(params)
  } else {
    throw new TypeError('server must be { command, args? } (stdio) or a URL (Streamable HTTP)')
  }
  try {
    await client.connect(transport, timeout === null ? undefined : { timeout })
  } catch (e) {
    cleanup()
    if (router.failure !== null && e !== router.failure) throw router.failure
    if (e?.code === sdk.RequestTimeout) throw timedOut('the MCP handshake', timeout)
    throw e
  }
  return new Session(client, router, cleanup, timeout)
}

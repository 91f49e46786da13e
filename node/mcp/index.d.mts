// ekl-evidence/mcp: MCP evidence as it crossed the wire, with the official MCP TypeScript SDK
// (a peer dependency). Node only. See index.mjs, docs/decisions.md B10 and docs/decisions/mcp.md.
// A message the core refuses (a decoy next to the answer, invalid UTF-8, a bound passed) is an
// EklError with its code (MCP_INVALID_MESSAGE, MCP_AMBIGUOUS_ANSWER, MCP_NO_ANSWER,
// MCP_BAD_CURSOR, INVALID_UTF8, BODY_TOO_LARGE, ...), thrown by the call under way.
import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js'
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { Implementation } from '@modelcontextprotocol/sdk/types.js'

/** The most tools/list pages followed (the core's bound). */
export declare const MAX_PAGES: number
/** The most bytes of one message (the core's bound on an input). */
export declare const MAX_MESSAGE_BYTES: number
/** The default `timeout` of connect, in milliseconds (60000): the handshake, and each call. */
export declare const DEFAULT_TIMEOUT_MS: number

/** One JSON-RPC message as it crossed the wire: its text exactly as sent. */
export interface WireMessage {
  readonly direction: 'sent' | 'received'
  readonly text: string
}

/** Every page of one tools/list as it crossed the wire. */
export declare class ToolsListing {
  private constructor()
  /** The raw text of each page's JSON-RPC response, in order. */
  readonly texts: readonly string[]
  /** Each page's result, read by the core's reader. */
  readonly results: readonly Record<string, unknown>[]
  /** The SDK's parsed pages (for display; not what is fingerprinted). */
  readonly sdk: readonly Awaited<ReturnType<Client['listTools']>>[]
  /** The tools of every page, as the server sent them. */
  readonly tools: unknown[]
  /** PROTOCOL §5.1 over the tools of every page. */
  upstreamFingerprint(options?: { offered?: readonly string[] | null }): string
}

/** One tools/call as it crossed the wire. */
export declare class ToolCall {
  private constructor()
  /** The raw text of the JSON-RPC response. */
  readonly text: string
  /** Its result, read by the core's reader: what the output fingerprint covers. */
  readonly wireResult: Record<string, unknown>
  /** The SDK's parsed result (not what is fingerprinted). */
  readonly result: Awaited<ReturnType<Client['callTool']>>
  /** PROTOCOL §15.3: SHA-256(salt ‖ JCS(structuredContent, else content)) of the wire result. */
  outputFingerprint(salt: string): string
}

/** An SDK client whose messages are judged by the core as they cross the wire. */
export declare class Session {
  private constructor()
  /** The official SDK's client, connected. */
  readonly client: Client
  /** The request and the answer of each call recorded so far, in order (notifications and the
   * server's own requests are routed and dropped, not kept). */
  readonly wire: WireMessage[]
  /** tools/list, every page, following the nextCursor of each page as it crossed the wire. */
  listTools(): Promise<ToolsListing>
  /** The upstream fingerprint (§5.1) of every page of tools/list, asked now. */
  upstreamFingerprint(options?: { offered?: readonly string[] | null }): Promise<string>
  /** tools/call through the SDK, with the response as it crossed the wire. */
  callTool(name: string, args?: Record<string, unknown>, options?: RequestOptions): Promise<ToolCall>
  /** Closes the client (and the server process over stdio); the recorded calls stay readable. */
  close(): Promise<void>
  [Symbol.asyncDispose](): Promise<void>
}

/** A server over stdio, started behind the recording relay. */
export interface StdioServer {
  command: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
  stderr?: 'inherit' | 'ignore' | 'pipe'
}

export interface ConnectOptions {
  clientInfo?: Implementation
  clientOptions?: ClientOptions
  /** stdio: a file the relay appends every line to as well (yours to keep and bound; none by default). */
  log?: string
  /** Streamable HTTP: passed to the SDK's transport. */
  requestInit?: RequestInit
  /** Streamable HTTP: the fetch to wrap (default: globalThis.fetch). */
  fetch?: typeof fetch
  /**
   * Milliseconds for the handshake and for each call of the session (one tools/call, one page of
   * tools/list): past it MCP_TIMEOUT, and the session refuses later calls. Default
   * DEFAULT_TIMEOUT_MS (60000); null: no deadline of the module's own.
   */
  timeout?: number | null
}

/** Connects the SDK's Client to a server over stdio (`{ command, args }`) or Streamable HTTP (a URL). */
export declare function connect(server: StdioServer | string | URL, options?: ConnectOptions): Promise<Session>

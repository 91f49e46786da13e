// Ordinary TypeScript type-checks without a cast (issue 12.5): interfaces, Record<string, unknown>
// (a parsed response), an SDK's result types, the package's own results, optional members left
// undefined; and what has no JSON form is refused at compile time as at run time.
import {
  canonicalizeValue,
  commitment,
  fingerprint,
  inputCommitment,
  issueReceipt,
  jwksFromSeed,
  Jwks,
  JsonText,
  outputFingerprint,
  receiptDigest,
  signJws,
  signReceipt,
  upstreamFingerprint,
  verifyJws,
  verifyReceipt,
  verifyReceipts,
  verifySignedReceipt,
  type Commitment,
  type JsonArg,
  type JsonArgWithTimes,
  type Receipt,
  type Verdict,
  type ReceiptCall,
} from 'ekl-evidence'

const salt = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'

// An interface (no index signature), with an optional member.
interface SearchInput {
  area_ref: string
  min_beds?: number
  tags: readonly string[]
}
const input: SearchInput = { area_ref: 'loc:ca:dublin', tags: ['a'] }
const c1: Commitment = commitment(input)
// A parsed response.
declare const parsed: Record<string, unknown>
const fp1: string = fingerprint(salt, parsed)
declare const body: unknown
const fp2: string = fingerprint(salt, body)
const fp3: string = fingerprint(salt, JSON.parse('{"a":1}'))
// An SDK's result types (shaped like @modelcontextprotocol/sdk's zod-inferred ones).
type ContentBlock =
  | { type: 'text'; text: string; _meta?: { [x: string]: unknown } | undefined; [x: string]: unknown }
  | { type: 'image'; data: string; mimeType: string; [x: string]: unknown }
interface CallToolResult {
  [x: string]: unknown
  content: ContentBlock[]
  structuredContent?: { [x: string]: unknown } | undefined
  isError?: boolean | undefined
}
interface Tool {
  name: string
  description?: string | undefined
  inputSchema: { type: 'object'; properties?: { [x: string]: object } | undefined; [x: string]: unknown }
  annotations?: { readOnlyHint?: boolean | undefined } | undefined
}
declare const result: CallToolResult
declare const tools: { tools: Tool[]; nextCursor?: string | undefined }
const of: string = outputFingerprint(salt, result)
const up: string = upstreamFingerprint(tools, { offered: ['search_listings'] })
// The package's own results as inputs.
const c2: Commitment = commitment(c1)
const receipt: Receipt = signReceipt({ receipt_version: '1.1', input_commitment: c1, output_commitment: commitment(result) }, 'secret')
const rd: string = receiptDigest(receipt)
const call: ReceiptCall = { execution_id: 'e', collaboration_id: 'c', capability_id: 'x', requester_agent_id: 'r', provider_agent_id: 'p' }
const verdict: Verdict = verifyReceipt(receipt, 'secret', call, { inputCommitment: c1, outputCommitment: c2 })
const again: Buffer = canonicalizeValue(verdict)
const batch = verifyReceipts([{ receipt, call }, { receipt: parsed, call }, { receipt: new JsonText('{}'), call }], 'secret')
const { jwks, keys } = jwksFromSeed('11'.repeat(32), ['k1'])
const key = keys[0]!
const issued = issueReceipt({ issued_at: '2026-05-28T00:00:00Z' }, key, 'https://n.example', 'c')
const signedCall = { execution_id: 'ex', provider_agent_id: 'p', requester_agent_id: 'c', capability_id: 'cap', input_fingerprint: 'f', own_agent_id: 'c', network_issuer: 'https://n.example', sent_at: 1, received_at: 2 }
const v2: Verdict = verifySignedReceipt(issued, jwks.toJSON(), signedCall)
const set: Jwks = new Jwks(parsed)
const set2: Jwks = new Jwks(jwks)
if (set instanceof Jwks) void set.kids
interface Claims { iss: string; iat: number; exp: number; aud?: string }
const claims: Claims = { iss: 'https://n.example', iat: 1, exp: 2 }
const token: string = signJws('ekl-access+jwt', claims, key)
const claimsBack: Record<string, unknown> = verifyJws(token, 'ekl-access+jwt', set2, { now: new Date() }).claims
const tuple: Buffer = canonicalizeValue([1, 'x', { a: null }] as const)
const unset: Buffer = canonicalizeValue({ q: 'x', page: undefined })

// Refused at compile time as at run time:
// @ts-expect-error: a function has no JSON form
canonicalizeValue({ f: () => 1 })
// @ts-expect-error: undefined as an element
canonicalizeValue([1, undefined])
// @ts-expect-error: a Map
canonicalizeValue(new Map<string, number>())
// @ts-expect-error: a Date inside a value (format it: formatTimestamp)
canonicalizeValue({ at: new Date() })
// (A symbol-keyed member is refused at run time only: NON_STRING_KEY.)
// @ts-expect-error: undefined itself
canonicalizeValue(undefined)

void [fp1, fp2, fp3, of, up, rd, again, batch, v2, claimsBack, tuple, unset]

// A recursive interface (a tree) and a recursive type alias.
interface TreeNode { name: string; children: TreeNode[]; parent?: TreeNode }
declare const tree: TreeNode
const treeBytes: Buffer = canonicalizeValue(tree)
type Nested = { value: number; next: Nested | null }
declare const nested: Nested
const nestedBytes: Buffer = canonicalizeValue(nested)
void [treeBytes, nestedBytes]

// Time members take a Date (issued_at; iat, nbf, exp; sent_at, received_at); elsewhere it is refused.
const datedReceipt: Receipt = signReceipt({ receipt_version: '1.1', issued_at: new Date(), key_id: 'rk-1' }, 'secret')
const datedToken: string = signJws('ekl-access+jwt', { iss: 'https://n.example', iat: new Date(), exp: new Date(Date.now() + 60000) }, key)
const datedCall = { ...signedCall, sent_at: new Date(), received_at: new Date() }
const datedVerdict: Verdict = verifySignedReceipt(issueReceipt({ issued_at: new Date() }, key, 'https://n.example', 'c'), jwks, datedCall)
// @ts-expect-error: a Date in a member that is not a time
signJws('ekl-access+jwt', { iat: 1, note: new Date() }, key)
void [datedReceipt, datedToken, datedVerdict]

// Generic code (issue 26.4): a type parameter is accepted as it is, like `unknown`, and checked at
// run time; types-test/generic.mts (generated) has a wrapper for every value parameter.
function f<T>(x: T) { return inputCommitment(x) }
function constrained<T extends Record<string, unknown>>(x: T): Commitment { return commitment(x) }
function objectBound<T extends object>(x: T): Buffer { return canonicalizeValue(x) }
function inMembers<T>(x: T): string { return fingerprint(salt, { value: x, list: [x] }) }
function timed<T>(claims: T): string { return signJws('ekl-access+jwt', claims, key) }
function wrapped<T>(x: T): Receipt { return signReceipt(x, 'secret') }
const fromGeneric: Commitment = f({ area_ref: 'loc:ca:dublin' })
void [constrained, objectBound, inMembers, timed, wrapped, fromGeneric]
// A wrapper typed as the package's functions are keeps its callers checked.
function checked<T>(x: JsonArg<T>): Commitment { return inputCommitment(x) }
function checkedTimes<T>(claims: JsonArgWithTimes<T, 'iat' | 'exp'>): string { return signJws('ekl-access+jwt', claims, key) }
const viaChecked: Commitment = checked({ area_ref: 'loc:ca:dublin' })
const viaCheckedTimes: string = checkedTimes({ iat: new Date(), exp: 1 })
void [viaChecked, viaCheckedTimes]
// @ts-expect-error: a function member, refused at the wrapper's call
checked({ f: () => 1 })
// @ts-expect-error: a Date outside a time member, refused at the wrapper's call
checkedTimes({ iat: 1, note: new Date() })
// ...while a concrete argument is still checked where the generic code is called from:
// @ts-expect-error: a symbol member
canonicalizeValue({ s: Symbol('s') })
// @ts-expect-error: a function itself
canonicalizeValue(() => 1)
// @ts-expect-error: a class instance with a method
canonicalizeValue(new (class { m() { return 1 } })())
// @ts-expect-error: a symbol as claims (a value with times refuses it too, since issue 26.4)
signJws('ekl-access+jwt', Symbol('s'), key)
// @ts-expect-error: undefined as claims
signJws('ekl-access+jwt', undefined, key)

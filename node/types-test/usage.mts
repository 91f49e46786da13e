// Uses the whole public API through the ESM entry, for `tsc --noEmit` (scripts/test/40-node.sh).
// test/api.test.js checks that every operation of docs/operations.json appears here.
import ekl, {
  canonicalize,
  canonicalizeValue,
  canonicalizeAsync,
  canonicalizeValueAsync,
  sha256Hex,
  commitment,
  inputCommitment,
  termsHash,
  valueDigest,
  fingerprint,
  outputFingerprint,
  selectResultBody,
  upstreamFingerprint,
  upstreamProjection,
  proofKey,
  challengeProofV1,
  challengeProofV2,
  enrollAuthorityV1,
  enrollAuthorityV2,
  verifySignature,
  checkVerifySignature,
  verifyChallengeProof,
  verifyEnrollAuthority,
  receiptKey,
  authTag,
  receiptDigest,
  signReceipt,
  issueMacReceipt,
  verifyReceipt,
  verifyReceipts,
  verifyReceiptsAsync,
  verifyReceiptLines,
  summarizeReceiptLines,
  verifyArchive,
  screeningRules,
  screen,
  screeningFold,
  mcpWindow,
  mcpListingPage,
  verifyJws,
  verifyReceiptJws,
  verifySignedReceipt,
  verifyScreeningRules,
  signingKey,
  signingKeyFromJwk,
  signingKeyFromPem,
  publicJwk,
  formatTimestamp,
  newSalt,
  newSeed,
  newSigningKey,
  verifyExecutionGrant,
  verifyRelationshipAssertion,
  verifyPlatformCall,
  verifyRevocationFeed,
  verifyAccessToken,
  RemoteJwks,
  RemoteJwksPolicy,
  jwksFromSeed,
  signJws,
  issueReceipt,
  issueRelationshipAssertion,
  issuePlatformCall,
  issueExecutionGrant,
  issueRevocationFeed,
  issueAccessToken,
  replayKey as replayKeyOp,
  replayAdmit,
  replayAnswer,
  replayRestore,
  Jwks,
  SigningKey,
  errorCodes,
  coreVersion,
  backend,
  EklError,
  isEklError,
  JsonText,
  MAX_DEPTH,
  MAX_INPUT_BYTES,
  CAPABILITY_INPUT_MAX_BYTES,
  type Commitment,
  type ReplayAdmission,
  type ReplayRestore,
  type EklErrorCode,
  type JsonValue,
  type ResultBody,
  type ReceiptLineSummary,
  type ArchiveOutput,
  type Verdict,
  type SafetyFlag,
  type McpWindowStep,
  type McpListingStep,
  type ProofVersion,
  type VerifiedJws,
  type RemoteJwksCause,
  type RemoteJwksDecision,
  type ScreeningRulesToken,
  type ScreeningRules,
  type VerifiedRelationshipAssertion,
  type VerifiedPlatformCall,
  type VerifiedRevocationFeed,
  type VerifiedAccessToken,
  type PlatformCallPurpose,
  type Jwk,
  type IssuedReceipt,
} from 'ekl-evidence'

const salt = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'
const value: JsonValue = { min_beds: 3, area_ref: 'loc:ca:dublin', big: 5n, list: [1, 'x', null, true] }

const a: Buffer = canonicalize('{"b":1,"a":2}')
const b: Buffer = canonicalize(Buffer.from('[1]'), { maxBytes: 10 })
const c: Buffer = canonicalize(new Uint8Array([0x5b, 0x5d]))
const d: Buffer = canonicalizeValue(value)
const e: Buffer = canonicalizeValue(new JsonText('{"a":1}'), { maxBytes: null })
const f: Promise<Buffer> = canonicalizeAsync('{}')
const g: Promise<Buffer> = canonicalizeValueAsync([1, 2, 3])

const h: string = sha256Hex('abc') + sha256Hex(a)
const cm: Commitment = commitment(value, { salt, saltId: 's-1' })
const digest: string = cm.digest
const saltId: string | undefined = cm.salt_id
const ic: Commitment = inputCommitment({ q: 'x' })
const th: string = termsHash({ price: '1.00', hash: 'x' })
const vd: string = valueDigest(value) + valueDigest(new JsonText('[1]'), { salt }) + valueDigest(null, { salt: null })

const fp: string = fingerprint(salt, value)
const of: string = outputFingerprint(salt, { structuredContent: { a: 1 }, content: [] })
const body: ResultBody = selectResultBody({ content: [{ type: 'text', text: 'x' }] })
const member: 'structuredContent' | 'content' = body.member
const up: string = upstreamFingerprint({ tools: [{ name: 't' }] }, { offered: ['t'] })
const up2: string = upstreamFingerprint([{ name: 't' }])
const proj: JsonValue[] = upstreamProjection({ tools: [{ name: 't' }] }, { offered: ['t'] })
const proj2: JsonValue[] = upstreamProjection([{ name: 't' }])

const pk: string = proofKey('eklp_x')
const p1: string = challengeProofV1('eklp_x', 'ch', 'https://e.example/ekl')
const p2: string = challengeProofV2(pk, 'ch', 'https://e.example/ekl')
const e1: string = enrollAuthorityV1('eklp_x', 'enr', 'nonce', 'https://e.example/ekl')
const e2: string = enrollAuthorityV2(pk, 'enr', 'nonce', 'https://e.example/ekl')
const vs: string = verifySignature('secret', 'agent', 'enr', 'ch')
const ok: boolean = checkVerifySignature('secret', 'agent', 'enr', 'ch', vs)

const v2: ProofVersion = verifyChallengeProof('ch', 'https://e.example/ekl', { proofV2: p2, proofKey: pk })
const v1: ProofVersion = verifyChallengeProof('ch', 'https://e.example/ekl', { proof: p1, credentialHash: h })
const ea: ProofVersion = verifyEnrollAuthority('v2', 'eklp_x', 'enr', 'nonce', 'https://e.example/ekl', { authority: e2, authorityVersion: 2 })
const rk: string = receiptKey('secret', 'rk-1')
const receipt = { receipt_version: '1.1', key_id: 'rk-1' }
const tag: string = authTag(receipt, 'secret')
const signed: Record<string, unknown> = signReceipt(receipt, 'secret')
const rd: string = receiptDigest(signed)
const call = { execution_id: 'ex', collaboration_id: 'col', capability_id: 'cap', requester_agent_id: 'a', provider_agent_id: 'b' }
const verdict: Verdict = verifyReceipt(signed, 'secret', call, { inputCommitment: cm, outputCommitment: null })
const issuedCall = { ...call, execution_kind: 'trial', connection_id: 'con', capability_version: '1', terms_hash: 't' }
const macIssued: IssuedReceipt = issueMacReceipt(issuedCall, { q: 1 }, { a: 2 }, 'succeeded', 1, 1, 'secret', { keyId: 'rk-1', issuedAt: new Date(), inputSalt: newSalt(), outputSalt: null })
const issuedSalt: string = macIssued.input_commitment.salt
const issuedVerdict: Verdict = verifyReceipt(macIssued, 'secret', issuedCall, { inputCommitment: commitment({ q: 1 }, { salt: issuedSalt }) })
const rotated: Verdict = verifyReceipt(receipt, [{ key_id: 'rk-2', secret: 's', valid_from: '2026-12-01T00:00:00Z', valid_until: null }], call)
const batch: Array<Verdict | EklError> = verifyReceipts([{ receipt, call }], 'secret')
const batchAsync: Promise<Array<Verdict | EklError>> = verifyReceiptsAsync([{ receipt: {}, call }], 'secret', { jobs: 2 })
const archive: Array<Verdict | EklError> = verifyReceiptLines('{"receipt_jws":"a.b.c","call":{}}\n', { jwks: { keys: [] }, ownAgentId: 'c', networkIssuer: 'https://n.example', jobs: 2 })
for (const r of batch) if (!(r instanceof EklError)) console.log(r.accepted, r.checks[0]?.outcome, r.receipt_digest)
const brief: ReceiptLineSummary[] = summarizeReceiptLines('{"receipt_jws":"a.b.c","call":{}}\n', { jwks: { keys: [] }, ownAgentId: 'c' })
const archived: ArchiveOutput = verifyArchive('{"receipt_jws":"a.b.c","call":{}}\n', { jwks: { keys: [] }, failuresOnly: true, firstLine: 7 })
console.log(archived.output.length, archived.accepted, archived.not_accepted, archived.refused)
for (const r of brief) console.log(r.line, r.kind, r.accepted ?? r.error?.code, r.failing.map((f) => `${f.name}: ${f.outcome}`), r.receipt_id)
const rules: ScreeningRules = screeningRules({ rules_version: '1', rules: [] })
const flags: SafetyFlag[] = screen({ content: [] }, { rules })
const local: SafetyFlag[] = screen({ content: [] })
const folded: string = screeningFold('Straße')
const first: McpListingStep = mcpListingPage()
const sent: McpWindowStep = mcpWindow(first.window ?? { method: 'tools/list', match: {} }, 'sent', { message: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })
const got: McpWindowStep = mcpWindow(sent.window, 'received', { message: Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}') })
const page: McpListingStep = mcpListingPage({ listing: first.listing, result: got.result ?? null, bytes: got.bytes ?? null })
console.log(got.seen, page.next, page.window?.awaited)

const key: SigningKey = signingKey('11'.repeat(32), 'net-1')
const jwks = new Jwks({ keys: [] })
const kids: string[] = jwks.kids
const seeded: { jwks: Jwks; keys: SigningKey[] } = jwksFromSeed('11'.repeat(32), ['net-1', 'net-2'])
const seededKids: string[] = seeded.jwks.kids.concat(seeded.keys.map((k) => k.kid))
const token: string = signJws('ekl-receipt+jwt', { a: 1 }, key)
const verified: VerifiedJws = verifyJws(token, 'ekl-receipt+jwt', jwks, { now: 1780000000, issuer: 'https://n.example' })
const verifiedNow: string = verifyJws(token, 'ekl-receipt+jwt', jwks.toJSON(), { now: new Date(), skew: 5 }).token_sha256
const signedCall = { execution_id: 'ex', provider_agent_id: 'p', requester_agent_id: 'c', capability_id: 'cap', input_fingerprint: 'f', own_agent_id: 'c', network_issuer: 'https://n.example', sent_at: 1, received_at: 2 }
const vj: Verdict = verifyReceiptJws(token, jwks, signedCall)
const issued = issueReceipt({ issued_at: '2026-05-28T00:00:00Z' }, key, 'https://n.example', 'c')
// Per-type issuers: a token string each (claims as the typed verifier requires them).
const assertionToken: string = issueRelationshipAssertion({ iss: 'i', aud: 'a', iat: 1, exp: 61, sub: 's', jti: 'j', org: 'o', auth_profile: 'ekl-auth-1.1', con: 'c', rel_ver: 1, dsc_ver: 1, caps: [{ id: 'x', ver: 1 }] }, key)
const platformCallToken: string = issuePlatformCall({ iss: 'i', iat: 1, exp: 61, jti: 'j', purpose: 'deliver' }, key)
const grantToken: string = issueExecutionGrant({ iss: 'i', aud: 'ekl:agent:p', iat: new Date(1000), exp: 61 }, key)
const feedToken: string = issueRevocationFeed({ iss: 'i', aud: 'p', iat: 1 }, key)
const accessToken: string = issueAccessToken({ iss: 'i', aud: 'ekl:agent:p', iat: 1, exp: 901 }, key)
void [assertionToken, platformCallToken, grantToken, feedToken, accessToken]
const vs2: Verdict = verifySignedReceipt(issued, { keys: [] }, signedCall)
const sr: ScreeningRulesToken = verifyScreeningRules(token, jwks, 'https://n.example', { now: 1 })
const fromJwk: SigningKey = signingKeyFromJwk({ kty: 'EC', crv: 'P-256', kid: 'k', d: 'AA' })
const fromPem: SigningKey = signingKeyFromPem('-----BEGIN PRIVATE KEY-----', 'k')
const pub: Jwk = publicJwk(fromPem)
const pubKid: string = pub.kid + fromJwk.kid
const stamp: string = formatTimestamp(new Date()) + formatTimestamp(1780000000)
const fresh: string = fingerprint(newSalt(), { a: 1 })
const randomKey: SigningKey = newSigningKey('k-1')
const keptKey: SigningKey = signingKey(newSeed(), 'k-1')
const randomPub: Jwk = publicJwk(randomKey)
const grant: VerifiedJws = verifyExecutionGrant(token, jwks, 'https://n.example', 'agt_p', { now: new Date() })
const assertion: VerifiedRelationshipAssertion = verifyRelationshipAssertion(token, jwks, 'https://n.example', 'https://p.example/oauth/token', { now: 1 })
const capVer: number | string = assertion.caps[0]!.ver
const relVer: number | string = assertion.rel_ver
const purposeWanted: PlatformCallPurpose = 'deliver'
const platformCall: VerifiedPlatformCall = verifyPlatformCall(token, jwks, 'https://n.example', purposeWanted, { audience: 'agt_p', now: new Date() })
const callJti: string = platformCall.jti
// @ts-expect-error: not a purpose of a platform call credential
verifyPlatformCall(token, jwks, 'https://n.example', 'admin')
const feed: VerifiedRevocationFeed = verifyRevocationFeed(token, jwks, 'https://n.example', 'agt_p')
const feedExp: number | null = feed.exp
// @ts-expect-error: a feed's exp may be null
const feedExpNumber: number = feed.exp
const access: VerifiedAccessToken = verifyAccessToken(token, jwks, 'https://n.example', 'agt_p', { now: 1 })
const accessExp: number = access.exp
const asJws: VerifiedJws = access
void [capVer, relVer, callJti, feedExp, feedExpNumber, accessExp, asJws]
const remote = new RemoteJwks('https://n.example/.well-known/jwks.json', { cooldown: 30 })
const fetched: Promise<Jwks> = remote.jwksFor(token)
// The policy under RemoteJwks, a handle (its state stays in it): ask, do the I/O, report.
const policy = new RemoteJwksPolicy('https://n.example/j', { scheme: 'https', host: 'n.example', cooldown: 30 })
const step: RemoteJwksDecision = policy.need(12.5)
const stepAction: 'serve' | 'fetch' | 'fail' | 'follow' | 'read' = step.action
const stepTimeout: number | undefined = step.timeout
const hop: RemoteJwksDecision = policy.response(302, 0, { location: '/moved', scheme: 'https', host: 'n.example', port: null })
const held: Jwks = policy.body(12.5, '{"keys":[]}', { cacheControl: 'max-age=60', longer: false })
const cause: RemoteJwksCause = 'timeout'
const fail: RemoteJwksDecision = policy.failed(13, cause, { message: null })
const kidStep: RemoteJwksDecision = policy.kid(14, { token })
void [fetched, stepAction, stepTimeout, hop, held, fail, kidStep, policy.needFailed(15), policy.kidFetched({ token }), policy.kidFailed()]
const flags2: SafetyFlag[] = screen({ content: [] }, { rules: { rules_version: sr.rules_version, rules: sr.rules } })
void [verifiedNow, kids, verified, vj, vs2, flags2, vd, proj, proj2, seededKids]

const codes: EklErrorCode[] = errorCodes()
const version: string = coreVersion()
const which: 'native' | 'wasm' = backend
const depth: 64 = MAX_DEPTH
const limit: 262144 = CAPABILITY_INPUT_MAX_BYTES
const maxInput: 67108864 = MAX_INPUT_BYTES

try {
  canonicalize('{"a":1,"a":2}')
} catch (err) {
  if (isEklError(err)) {
    const code: EklErrorCode = err.code
    const name: 'EklError' = err.name
    console.log(code, name, err.message)
  }
  if (err instanceof EklError && err.code === 'DUPLICATE_KEY') console.log('duplicate')
}
const made = new EklError('INVALID_ARGUMENT', 'made by hand')
// @ts-expect-error: not a code of the core
const wrong: EklErrorCode = 'NOT_A_CODE'
// @ts-expect-error: functions are not JSON values
canonicalizeValue({ f: () => 1 })

const viaDefault: Buffer = ekl.canonicalizeValue({ a: 1 })
// An SDK's optional member left undefined: absent (the rule of JSON.stringify).
type Query = { q: string; page?: number }
const query: Query = { q: 'x' }
const unset: Buffer = canonicalizeValue({ q: 'x', page: undefined, nested: { query } })

void [v2, v1, ea, rk, tag, rd, verdict, rotated, batchAsync, flags, local, folded]
void [a, b, c, d, e, f, g, h, digest, saltId, ic, th, fp, of, member, up, up2, p1, p2, e1, e2, ok, codes, version, which, depth, limit, maxInput, made, wrong, viaDefault, unset]

// The replay guard's machine (the registry's operations the replay module drives)
{
  const key: string = replayKeyOp('platform_call', 'i', 'a', 'j')
  const admitted: ReplayAdmission = replayAdmit('platform_call', 'i', 'a', 'j', 1800000000, 1800000060, 1800000000000, { skew: 60 })
  const expires: number = admitted.expires_at_ms
  const fine: boolean = replayAnswer(admitted, { restoreMoment: 1, added: true })
  const restore: ReplayRestore = replayRestore(1800000000000)
  const window: number = restore.window
  void [key, expires, fine, window]
}

// ekl-evidence/replay (Node only): every export, through the ESM subpath
import replayDefault, { ReplayGuard, MemoryStore, SqliteStore, RedisStore, replayKey, SKEW, ASSERTION_MAX_LIFETIME, PLATFORM_CALL_MAX_LIFETIME, RESTORE_WINDOW } from 'ekl-evidence/replay'
import type { ReplayStore, CredentialTimes, SqliteDatabase } from 'ekl-evidence/replay'
{
  const custom: ReplayStore = { add: async () => true, restoreMoment: () => null, recordRestore: () => {} }
  const times: CredentialTimes = { iat: 1, exp: 2, now: 1.5 }
  const g = new ReplayGuard(custom, { clock: () => Date.now() / 1000 })
  const windowSeconds: number = g.restoreWindow
  const p1: Promise<void> = g.consumePlatformCall('iss', 'aud', 'jti', times)
  const p2: Promise<void> = g.recordRestore({ now: 5 })
  const db = null as unknown as SqliteDatabase
  const sq: SqliteStore = new SqliteStore(db, { timeoutMs: 100 })
  const sq2: SqliteStore = new SqliteStore('replay.db')
  sq2.close()
  const rs = new RedisStore({ sendCommand: async (args: string[]) => args.length }, { prefix: 'p:', timeoutMs: 10 })
  const rs2 = new RedisStore(async (args: string[]) => args[0])
  const full: number = new MemoryStore().size
  const k: string = replayKey('relationship_assertion', 'i', 'a', 'j')
  const same: typeof ReplayGuard = replayDefault.ReplayGuard
  void [windowSeconds, p1, p2, sq, rs, rs2, full, k, same, SKEW, ASSERTION_MAX_LIFETIME, PLATFORM_CALL_MAX_LIFETIME, RESTORE_WINDOW]
}

// The six everyday tasks with jose + canonicalize and node:crypto, for comparison with ours.ts
// (docs/everyday-tasks.md): what a TypeScript developer writes without ekl-core.
// Run (compiled by scripts/test/46-everyday.sh): EVERYDAY_JWKS_URL=... EVERYDAY_TOKEN=...
// EVERYDAY_CREDENTIAL=... EVERYDAY_SALT=... node dist/peers.js
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import canonicalize from 'canonicalize'
import { createRemoteJWKSet, jwtVerify } from 'jose'

function env(name: string): string {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}
const SALT = env('EVERYDAY_SALT')
const SECRET = 'rs_example-secret'
const CALL_INPUT = { area_ref: 'loc:ca:dublin', min_beds: 3 }
const TOOL_RESULT = { structuredContent: { total: 41.0, city: 'Dublin' }, content: [{ type: 'text', text: '41 in Dublin' }], isError: false }
const CALL = { execution_id: 'ex_1', collaboration_id: 'col_1', capability_id: 'cap_1', requester_agent_id: 'agt_c', provider_agent_id: 'agt_p' }

// canonicalize() returns string | undefined (undefined for a value JSON.stringify drops)
function jcs(value: unknown): string {
  const text = canonicalize(value)
  if (text === undefined) throw new Error('no JSON form')
  return text
}
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

// 1. canonicalise (RFC 8785: no refusal of duplicate keys, integers beyond 2^53, depth > 64)
const canonical = jcs({ b: 1.0, a: [true, null, 'é'], n: 1e21 })
// 2. commit (no 256 KB limit of PROTOCOL §2.5)
const committed = { alg: 'sha-256', canon: 'ekl-json-1', digest: sha256(jcs(CALL_INPUT)) }
// 3. fingerprint an MCP tool result (§15.3: structuredContent, else content; null counts as absent)
const body = TOOL_RESULT.structuredContent ?? TOOL_RESULT.content
const output = createHash('sha256').update(Buffer.from(SALT, 'hex')).update(jcs(body)).digest('hex')
// 4. sign and verify a MAC receipt (§9.5: the receipt key and the tag, by hand)
function mac(secret: string, keyId: string, fields: object): string {
  const key = createHmac('sha256', secret).update(`ekl-receipt-1.1\u0000${keyId}`).digest()
  return createHmac('sha256', key).update(jcs(fields)).digest('hex')
}
const fields = {
  receipt_version: '1.1', receipt_id: 'r1', execution_kind: 'trial', ...CALL,
  connection_id: 'con_1', capability_version: '1.0', rel_ver_at_admission: 1, dsc_ver: 1,
  terms_hash: sha256(jcs({ price: '0' })), input_commitment: committed,
  output_commitment: { alg: 'sha-256', canon: 'ekl-json-1', digest: sha256(jcs(TOOL_RESULT.structuredContent)) },
  status: 'succeeded', issued_at: new Date(Date.UTC(2026, 10, 29, 12, 0)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  key_id: 'rk-1', auth_profile: 'ekl-evidence-mac-1.1',
}
const receipt = { ...fields, auth_tag: mac(SECRET, 'rk-1', fields) }
const { auth_tag: tag, ...unsigned } = receipt
const accepted =
  timingSafeEqual(Buffer.from(mac(SECRET, receipt.key_id, unsigned)), Buffer.from(tag)) &&
  Object.entries(CALL).every(([k, v]) => (receipt as Record<string, unknown>)[k] === v) &&
  jcs(receipt.input_commitment) === jcs(committed)
const receiptDigest = sha256(jcs(receipt))
// 5. verify a JWS against a fetched JWKS
const token = env('EVERYDAY_TOKEN')
const jwks = createRemoteJWKSet(new URL(env('EVERYDAY_JWKS_URL')))
const { payload } = await jwtVerify(token, jwks, { typ: 'ekl-access+jwt', algorithms: ['ES256'], issuer: 'https://net.example', audience: 'agt_c' })
// 6. verify a platform call credential once (§3, §4: single use): the type's rules by hand
// (docs/decisions.md JWS 3 and 10: aud exactly the string or a one-element array, exp - iat <= 60 s,
// jti and purpose required, 60 s skew; jose checks iat in the future only with maxTokenAge), and a
// single-use set kept until exp + 60 s, unbounded
const used = new Map<string, number>()
async function present(credential: string) {
  const { payload } = await jwtVerify(credential, jwks, {
    typ: 'ekl-platform-call+jwt', algorithms: ['ES256'], issuer: 'https://net.example',
    requiredClaims: ['iat', 'exp', 'jti', 'purpose'], clockTolerance: 60,
  })
  const { iss, aud, iat, exp, jti, purpose } = payload
  if (aud !== 'agt_p' && !(Array.isArray(aud) && aud.length === 1 && aud[0] === 'agt_p')) throw new Error('aud is not agt_p')
  if (iss === undefined || iat === undefined || exp === undefined || typeof jti !== 'string' || jti === '') throw new Error('claims')
  const now = Date.now() / 1000
  if (iat > now + 60) throw new Error('iat in the future')
  if (exp - iat < 0 || exp - iat > 60) throw new Error('lifetime over 60 s')
  if (purpose !== 'validation') throw new Error('purpose is not validation')
  for (const [k, until] of used) if (until <= now) used.delete(k)
  const key = JSON.stringify([iss, 'agt_p', jti])
  if (used.has(key)) return { accepted: false, code: 'CREDENTIAL_REPLAY' }
  used.set(key, exp + 60)
  return { accepted: true, jti, purpose }
}
const credential = env('EVERYDAY_CREDENTIAL')
const platformCall = [await present(credential), await present(credential)]

const out = {
  auth_tag: receipt.auth_tag,
  canonical,
  commitment: committed.digest,
  jws_sub: payload.sub,
  output_fingerprint: output,
  platform_call: platformCall,
  receipt_accepted: accepted,
  receipt_digest: receiptDigest,
}
console.log(JSON.stringify(out))

// The six everyday tasks with ekl-core, written from the README alone (docs/everyday-tasks.md).
// Run (compiled by scripts/test/46-everyday.sh): EVERYDAY_JWKS_URL=... EVERYDAY_TOKEN=...
// EVERYDAY_CREDENTIAL=... EVERYDAY_SALT=... node dist/ours.js
import { canonicalizeValue, commitment, inputCommitment, isEklError, outputFingerprint, RemoteJwks, signReceipt, termsHash, verifyJws, verifyPlatformCall, verifyReceipt } from 'ekl-evidence'
import { MemoryStore, ReplayGuard } from 'ekl-evidence/replay'

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

// 1. canonicalise
const canonical = canonicalizeValue({ b: 1.0, a: [true, null, 'é'], n: 1e21 }).toString()
// 2. commit
const committed = inputCommitment(CALL_INPUT)
// 3. fingerprint an MCP tool result
const output = outputFingerprint(SALT, TOOL_RESULT)
// 4. sign and verify a MAC receipt
const receipt = signReceipt({
  receipt_version: '1.1', receipt_id: 'r1', execution_kind: 'trial', ...CALL,
  connection_id: 'con_1', capability_version: '1.0', rel_ver_at_admission: 1, dsc_ver: 1,
  terms_hash: termsHash({ price: '0' }), input_commitment: committed,
  output_commitment: commitment(TOOL_RESULT.structuredContent), status: 'succeeded',
  issued_at: new Date(Date.UTC(2026, 10, 29, 12, 0)), key_id: 'rk-1', auth_profile: 'ekl-evidence-mac-1.1',
}, SECRET)
const verdict = verifyReceipt(receipt, SECRET, CALL, { inputCommitment: inputCommitment(CALL_INPUT) })
// 5. verify a JWS against a fetched JWKS
const token = env('EVERYDAY_TOKEN')
const jwks = new RemoteJwks(env('EVERYDAY_JWKS_URL'))
const verified = verifyJws(token, 'ekl-access+jwt', await jwks.jwksFor(token), { issuer: 'https://net.example', audience: 'agt_c' })
// 6. verify a platform call credential once (§3, §4: single use)
const guard = new ReplayGuard(new MemoryStore()) // SqliteStore across restarts, RedisStore across replicas
async function present(credential: string) {
  try {
    const checked = verifyPlatformCall(credential, await jwks.jwksFor(credential), 'https://net.example', 'validation', { audience: 'agt_p' })
    await guard.consumePlatformCall(checked.iss, 'agt_p', checked.jti, { iat: checked.iat, exp: checked.exp })
    return { accepted: true, jti: checked.jti, purpose: checked.purpose }
  } catch (e) {
    if (isEklError(e)) return { accepted: false, code: e.code }
    throw e
  }
}
const credential = env('EVERYDAY_CREDENTIAL')
const platformCall = [await present(credential), await present(credential)]

const out = {
  auth_tag: receipt.auth_tag,
  canonical,
  commitment: committed.digest,
  jws_sub: verified.claims.sub,
  output_fingerprint: output,
  platform_call: platformCall,
  receipt_accepted: verdict.accepted,
  receipt_digest: verdict.receipt_digest,
}
console.log(JSON.stringify(out))

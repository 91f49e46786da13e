// Agent-side evidence with ekl-evidence (EKP 1.2), the Node twin of examples/python/agent.py.
//
// The consumer agent calls a provider's capability and keeps evidence of the call:
//
// 1. before sending, it commits to the call's `input` (§9.5, 256 KB limit of §2.5) and takes the
//    salted input fingerprint (§15.3);
// 2. on the answer, it commits to the `result`, takes the output fingerprint over
//    `structuredContent` (or the `content` array), and the upstream fingerprint of the tools it
//    offered (§5.1);
// 3. it checks the provider's MAC receipt and the network-signed receipt against its own
//    commitments, and prints the receipt digest it would report in `collaboration_report`.
//    The network-signed receipt (ekl-evidence-sig-1.2) is checked against the network's JWKS.
//
// Run: node examples/node/agent.mjs   (after `npm ci && npm run build` in node/; prints one JSON
// object, byte for byte what the Python example prints)
import * as ekl from 'ekl-evidence'

// A fixed salt so the output is reproducible (an agent draws 32 random bytes per call).
const SALT = '00112233445566778899aabbccddeeff'.repeat(2)

const CALL_INPUT = { area_ref: 'loc:ca:dublin', min_beds: 3 }
const TOOL_RESULT = {
  structuredContent: {
    listings: [{ address: '4252 Escudo Ct', price: '1349000.00' }],
    next_cursor: null,
  },
  content: [{ type: 'text', text: '{...}' }],
  isError: false,
  _meta: { ekl: { outcome: 'succeeded' } },
}
const TOOLS_LIST = {
  tools: [
    {
      name: 'search_listings',
      description: 'Search homes for sale.',
      inputSchema: { type: 'object', properties: { area_ref: { type: 'string' } } },
    },
    { name: 'internal_debug', description: 'Not offered to the network.' },
  ],
}

// The provider's MAC receipt for this call (profile ekl-evidence-mac-1.1). Here the example makes
// it itself with a test secret, as a provider would; an agent receives it in _meta.ekl.receipt.
const REGISTRATION_SECRET = 'rs_example-secret-not-a-real-one'
const CALL = {
  execution_id: 'ex_19c4',
  collaboration_id: 'col_c3c7b453aa7e',
  capability_id: 'cap_search_listings',
  requester_agent_id: 'agt_c0ns7m3r4a',
  provider_agent_id: 'agt_pr0v1d3r9b',
  execution_kind: 'trial',
}

function providerReceipt() {
  const unsigned = {
    receipt_version: '1.1',
    receipt_id: 'rcpt_example',
    execution_kind: 'trial',
    requester_agent_id: CALL.requester_agent_id,
    provider_agent_id: CALL.provider_agent_id,
    collaboration_id: CALL.collaboration_id,
    connection_id: 'con_5f0e2b9a11d4',
    execution_id: CALL.execution_id,
    capability_id: CALL.capability_id,
    capability_version: '1.0.0',
    rel_ver_at_admission: 1,
    dsc_ver: 1,
    terms_hash: ekl.termsHash({ price_per_call: '0.00', currency: 'USD' }),
    input_commitment: ekl.inputCommitment(CALL_INPUT),
    output_commitment: ekl.commitment(TOOL_RESULT),
    status: 'succeeded',
    issued_at: '2026-11-29T18:40:05.250Z',
    key_id: 'rk-1',
    auth_profile: 'ekl-evidence-mac-1.1',
  }
  return ekl.signReceipt(unsigned, REGISTRATION_SECRET)
}

// The network's key set and its signed receipt for the call. Here the example plays the network
// with a key derived from a test seed; an agent fetches /.well-known/jwks.json instead.
const NETWORK_ISSUER = 'https://network.example'
const NETWORK_SEED = '6e6574776f726b2d6578616d706c652d736565642d6e6f742d612d7265616c21'
const SENT_AT = 1795970000 // the agent's clock around the call
const RECEIVED_AT = 1795970002

/** @param {ekl.SigningKey} key */
function networkSignedReceipt(key) {
  const fields = {
    receipt_version: '1.2',
    receipt_id: 'rcp_example',
    execution_kind: 'trial',
    requester_agent_id: CALL.requester_agent_id,
    provider_agent_id: CALL.provider_agent_id,
    collaboration_id: CALL.collaboration_id,
    connection_id: 'con_5f0e2b9a11d4',
    execution_id: CALL.execution_id,
    capability_id: CALL.capability_id,
    capability_version: '1.0.0',
    input_fingerprint: ekl.fingerprint(SALT, CALL_INPUT),
    output_fingerprint: ekl.outputFingerprint(SALT, TOOL_RESULT),
    status: 'succeeded',
    issued_at: '2026-11-29T16:33:21Z',
    auth_profile: 'ekl-evidence-sig-1.2',
  }
  return ekl.issueReceipt(fields, key, NETWORK_ISSUER, CALL.requester_agent_id)
}

/** @param {ekl.Verdict} verdict */
const notPassed = (verdict) => verdict.checks.filter((c) => c.outcome !== 'pass').map((c) => c.name)
/** @param {ekl.Verdict} verdict */
const disputed = (verdict) =>
  verdict.checks.length > 0 &&
  verdict.checks.every((c) => c.outcome !== 'fail') &&
  verdict.checks.some((c) => c.outcome === 'mismatch')

export function main() {
  const report = {}
  try {
    // 1. before sending the call
    report.input_commitment = ekl.inputCommitment(CALL_INPUT)
    report.input_fingerprint = ekl.fingerprint(SALT, CALL_INPUT)
    // 2. on the answer
    report.output_commitment = ekl.commitment(TOOL_RESULT)
    report.output_fingerprint_over = ekl.selectResultBody(TOOL_RESULT).member
    report.output_fingerprint = ekl.outputFingerprint(SALT, TOOL_RESULT)
    report.upstream_fingerprint = ekl.upstreamFingerprint(TOOLS_LIST, { offered: ['search_listings'] })
    // 3. the provider's MAC receipt, checked against the call and our own commitments
    const verdict = ekl.verifyReceipt(providerReceipt(), REGISTRATION_SECRET, CALL, {
      inputCommitment: report.input_commitment,
      outputCommitment: report.output_commitment,
    })
    report.mac_receipt = { accepted: verdict.accepted, not_passed: notPassed(verdict), disputed: disputed(verdict) }
    if (verdict.accepted || disputed(verdict)) {
      // the digest to put in collaboration_report (or abuse_report for a dispute)
      report.receipt_digest = verdict.receipt_digest
    }
    // 4. the network-signed receipt, checked against the network's key set and the call
    const { jwks, keys } = ekl.jwksFromSeed(NETWORK_SEED, ['net-example-1'])
    const signed = networkSignedReceipt(keys[0])
    const sigVerdict = ekl.verifySignedReceipt(signed, jwks, {
      execution_id: CALL.execution_id,
      provider_agent_id: CALL.provider_agent_id,
      requester_agent_id: CALL.requester_agent_id,
      capability_id: CALL.capability_id,
      input_fingerprint: report.input_fingerprint,
      own_agent_id: CALL.requester_agent_id,
      network_issuer: NETWORK_ISSUER,
      sent_at: SENT_AT,
      received_at: RECEIVED_AT,
    })
    report.network_receipt = {
      accepted: sigVerdict.accepted,
      not_passed: notPassed(sigVerdict),
      // SHA-256 of the compact JWS: what the agent reports for a network-signed receipt
      receipt_digest: sigVerdict.receipt_digest,
    }
  } catch (e) {
    // a refusal is data for the report, not a crash: the code says which rule was broken
    if (!ekl.isEklError(e)) throw e
    report.refused = { code: e.code, message: e.message }
  }
  return report
}

/** JSON as Python's json.dumps(obj, indent=2, sort_keys=True) writes it (ASCII-only output). */
/** @param {unknown} value */
export function pythonJson(value) {
  /** @type {(v: unknown) => unknown} */
  const sort = (v) =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sort(x)]))
        : v
  return JSON.stringify(sort(value), null, 2).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(pythonJson(main()))
}

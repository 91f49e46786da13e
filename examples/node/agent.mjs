// Agent-side evidence with ekl-core (EKP 1.2), the Node twin of examples/python/agent.py.
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
//    (Step 3 follows as the receipt and JWS operations land in the core.)
//
// Run: node examples/node/agent.mjs   (after `npm ci && npm run build` in node/; prints one JSON
// object, byte for byte what the Python example prints)
import * as ekl from 'ekl-core'

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
    report.upstream_fingerprint = ekl.upstreamFingerprint(TOOLS_LIST, ['search_listings'])
  } catch (e) {
    // a refusal is data for the report, not a crash: the code says which rule was broken
    if (!ekl.isEklError(e)) throw e
    report.refused = { code: e.code, message: e.message }
  }
  return report
}

/** JSON as Python's json.dumps(obj, indent=2, sort_keys=True) writes it (ASCII-only output). */
export function pythonJson(value) {
  const sort = (v) =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])]))
        : v
  return JSON.stringify(sort(value), null, 2).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(pythonJson(main()))
}

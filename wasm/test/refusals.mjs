// The refusal cases of the wasm package, shared by the Node test and the Chromium test: every
// refusal path of every operation, each followed by a good call on the same instance.
const SALT = '00112233445566778899aabbccddeeff'.repeat(2);
const GOOD = '46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c';
const SCALL = { execution_id: 'e', provider_agent_id: 'p', requester_agent_id: 'r', capability_id: 'c',
  input_fingerprint: 'f', own_agent_id: 'o', network_issuer: 'n', sent_at: 1, received_at: 2 };
/** A valid key set (the first key of vectors/receipt-jws.json). */
const NET_JWKS = { keys: [{ alg: 'ES256', crv: 'P-256', kid: 'net-2026-05', kty: 'EC', use: 'sig',
  x: 'pxYa-MHmaHcF1wTfsPWYgfCQS7hi4WapSiomnDaHna8', y: 'BoJM1m4cjR-d1ahZHIH3SVl4l-DEJETxd2hNTXxPVXg' }] };
const CALL = { execution_id: 'a', collaboration_id: 'b', capability_id: 'c', requester_agent_id: 'd', provider_agent_id: 'e' };

/** [what, call, expected code]: one per refusal path of every operation. */
export function badCalls(api) {
  const JWKS = () => new api.Jwks(NET_JWKS);
  const bytes = (hex) => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
  const deep = '['.repeat(10_000_000);
  const cases = [
    ['canonicalize: syntax', () => api.canonicalize('{"a":1,}'), 'INVALID_JSON'],
    ['canonicalize: invalid UTF-8', () => api.canonicalize(bytes('5b22ff225d')), 'INVALID_UTF8'],
    ['canonicalize: truncated UTF-8 at the end', () => api.canonicalize(bytes('5b2261225de282')), 'INVALID_UTF8'],
    ['canonicalize: duplicate', () => api.canonicalize('{"a":1,"\\u0061":2}'), 'DUPLICATE_KEY'],
    ['canonicalize: 1e400', () => api.canonicalize('[1e400]'), 'NON_FINITE_NUMBER'],
    ['canonicalize: 2^53+1', () => api.canonicalize('[9007199254740993]'), 'INTEGER_OUT_OF_RANGE'],
    ['canonicalize: lone surrogate escape', () => api.canonicalize('["\\ud800"]'), 'LONE_SURROGATE'],
    ['canonicalize: 10 MB of [', () => api.canonicalize(deep), 'INPUT_TOO_DEEP'],
    ['canonicalize: size', () => api.canonicalize('[1,2]', { maxBytes: 3 }), 'BODY_TOO_LARGE'],
    ['canonicalize: bad maxBytes', () => api.canonicalize('[]', { maxBytes: -1 }), 'INVALID_ARGUMENT'],
    ['canonicalize: not text', () => api.canonicalize(42), 'INVALID_ARGUMENT'],
    ['canonicalize: empty', () => api.canonicalize(''), 'INVALID_JSON'],
    ['canonicalize: BOM', () => api.canonicalize(bytes('efbbbf5b5d')), 'INVALID_JSON'],
    ['canonicalizeValue: NaN', () => api.canonicalizeValue([NaN]), 'NON_FINITE_NUMBER'],
    ['canonicalizeValue: cyclic', () => { const a = {}; a.a = a; return api.canonicalizeValue(a); }, 'CYCLIC_VALUE'],
    ['canonicalizeValue: JsonText duplicate', () => api.canonicalizeValue(new api.JsonText('{"a":1,"a":1}')), 'DUPLICATE_KEY'],
    ['sha256Hex: number', () => api.sha256Hex(1), 'INVALID_ARGUMENT'],
    ['sha256Hex: lone surrogate', () => api.sha256Hex('\ud800'), 'LONE_SURROGATE'],
    ['commitment: bad salt', () => api.commitment({}, { salt: SALT.toUpperCase() }), 'INVALID_SALT'],
    ['commitment: duplicate', () => api.commitment(new api.JsonText('{"a":1,"a":2}')), 'DUPLICATE_KEY'],
    ['inputCommitment: 256 KB', () => api.inputCommitment(['x'.repeat(262144)]), 'BODY_TOO_LARGE'],
    ['termsHash: not an object', () => api.termsHash([1]), 'INVALID_SHAPE'],
    ['valueDigest: short salt', () => api.valueDigest({}, { salt: '0011' }), 'INVALID_SALT'],
    ['valueDigest: duplicate', () => api.valueDigest(new api.JsonText('{"a":1,"a":2}')), 'DUPLICATE_KEY'],
    ['fingerprint: short salt', () => api.fingerprint('0011', {}), 'INVALID_SALT'],
    ['fingerprint: deep JsonText', () => api.fingerprint(SALT, new api.JsonText(deep)), 'INPUT_TOO_DEEP'],
    ['outputFingerprint: no body', () => api.outputFingerprint(SALT, { isError: false }), 'INVALID_SHAPE'],
    ['outputFingerprint: not an object', () => api.outputFingerprint(SALT, []), 'INVALID_SHAPE'],
    ['selectResultBody: content not an array', () => api.selectResultBody({ content: 1 }), 'INVALID_SHAPE'],
    ['upstreamFingerprint: no tools', () => api.upstreamFingerprint({ nextCursor: null }), 'INVALID_SHAPE'],
    ['upstreamFingerprint: offered not an array', () => api.upstreamFingerprint({ tools: [] }, { offered: 'a' }), 'INVALID_ARGUMENT'],
    ['upstreamFingerprint: a nameless tool', () => api.upstreamFingerprint({ tools: [{}] }), 'INVALID_SHAPE'],
    ['upstreamProjection: no tools', () => api.upstreamProjection({ nextCursor: null }), 'INVALID_SHAPE'],
    ['upstreamProjection: offered not an array', () => api.upstreamProjection({ tools: [] }, { offered: 'a' }), 'INVALID_ARGUMENT'],
    ['upstreamProjection: two tools of one name', () => api.upstreamProjection([{ name: 'a' }, { name: 'a' }]), 'INVALID_SHAPE'],
    ['proofKey: lone surrogate', () => api.proofKey('\udc00'), 'LONE_SURROGATE'],
    ['proofKey: not a string', () => api.proofKey(null), 'INVALID_ARGUMENT'],
    ['challengeProofV2: bad key', () => api.challengeProofV2('xyz', 'c', 'e'), 'INVALID_HEX'],
    ['challengeProofV2: upper-case key', () => api.challengeProofV2('AB'.repeat(32), 'c', 'e'), 'INVALID_HEX'],
    ['enrollAuthorityV2: short key', () => api.enrollAuthorityV2('ab', 'e', 'n', 'p'), 'INVALID_HEX'],
    ['challengeProofV1: not a string', () => api.challengeProofV1('a', 1, 'e'), 'INVALID_ARGUMENT'],
    ['enrollAuthorityV1: lone surrogate', () => api.enrollAuthorityV1('a', 'b', '\ud800', 'e'), 'LONE_SURROGATE'],
    ['verifySignature: not a string', () => api.verifySignature('a', 'b', 'c', undefined), 'INVALID_ARGUMENT'],
    ['checkVerifySignature: lone surrogate', () => api.checkVerifySignature('a', 'b', 'c', 'd', '\ud800'), 'LONE_SURROGATE'],
  ];
  if (api.verifyReceipt) {
    cases.push(
      ['receiptKey: lone surrogate', () => api.receiptKey('\ud800', 'k'), 'LONE_SURROGATE'],
      ['authTag: no key_id', () => api.authTag([1], 's'), 'INVALID_RECEIPT'],
      ['receiptDigest: not an object', () => api.receiptDigest('x'), 'INVALID_RECEIPT'],
      ['signReceipt: not an object', () => api.signReceipt(7, 's'), 'INVALID_RECEIPT'],
      ['issueMacReceipt: a call without its ids', () => api.issueMacReceipt({ execution_id: 'e' }, { q: 1 }, { a: 2 }, 'succeeded', 1, 1, 's'), 'INVALID_ARGUMENT'],
      ['verifyReceipt: call without execution_id', () => api.verifyReceipt({}, 's', {}), 'INVALID_ARGUMENT'],
      ['verifyReceipt: a camelCase call member', () => api.verifyReceipt({}, 's', { ...CALL, executionId: 'a' }), 'INVALID_ARGUMENT'],
      ['verifyReceipt: key without secret', () => api.verifyReceipt({}, [{ key_id: 'a' }], CALL), 'INVALID_ARGUMENT'],
      ['verifyReceipt: bad valid_from', () => api.verifyReceipt({}, [{ key_id: 'a', secret: 's', valid_from: 'x' }], CALL), 'INVALID_TIMESTAMP'],
      ['verifyReceipt: duplicate key', () => api.verifyReceipt(new api.JsonText('{"a":1,"a":2}'), 's', CALL), 'DUPLICATE_KEY'],
      ['verifyReceipts: items not an array', () => api.verifyReceipts('s', 5), 'INVALID_ARGUMENT'],
      ['verifyReceipts: jobs 0', () => api.verifyReceipts([], 's', { jobs: 0 }), 'INVALID_ARGUMENT'],
      ['verifyReceiptLines: lines not text', () => api.verifyReceiptLines(5), 'INVALID_ARGUMENT'],
      ['verifyReceiptLines: bad key ring', () => api.verifyReceiptLines('', { keys: [] }), 'INVALID_ARGUMENT'],
      ['summarizeReceiptLines: lines not text', () => api.summarizeReceiptLines(5), 'INVALID_ARGUMENT'],
      ['summarizeReceiptLines: jobs 0', () => api.summarizeReceiptLines('', { jobs: 0 }), 'INVALID_ARGUMENT'],
      ['verifyArchive: lines not text', () => api.verifyArchive(5), 'INVALID_ARGUMENT'],
      ['verifyArchive: first line 0', () => api.verifyArchive('', { firstLine: 0 }), 'INVALID_ARGUMENT'],
    );
  }
  if (api.verifyChallengeProof) {
    cases.push(
      ['verifyChallengeProof: bad key', () => api.verifyChallengeProof('c', 'e', { proofKey: 'zz', proof: 'p' }), 'INVALID_HEX'],
      ['verifyChallengeProof: nothing sent', () => api.verifyChallengeProof('c', 'e', { proofKey: '00'.repeat(32) }), 'PROOF_INVALID'],
      ['verifyEnrollAuthority: announced v3', () => api.verifyEnrollAuthority('v3', 'k', 'e', 'n', 'p', { authority: 'a', authorityVersion: 1 }), 'INVALID_ARGUMENT'],
      ['verifyEnrollAuthority: version 7', () => api.verifyEnrollAuthority('v1', 'k', 'e', 'n', 'p', { authority: 'a', authorityVersion: 7 }), 'ENROLLMENT_AUTH_REQUIRED'],
      ['screeningRules: not an object', () => api.screeningRules([]), 'INVALID_SHAPE'],
      ['screen: rules without version', () => api.screen({}, { rules: {} }), 'CLAIM_MISSING'],
      ['screeningFold: not a string', () => api.screeningFold(1), 'INVALID_ARGUMENT'],
      ['mcpWindow: a batch', () => api.mcpWindow({ method: 'tools/list', match: {}, awaited: 1, answered: false, received: 0 }, 'received', { message: '[{"jsonrpc":"2.0","id":1,"result":{}}]' }), 'MCP_INVALID_MESSAGE'],
      ['mcpListingPage: a repeated cursor', () => api.mcpListingPage({ listing: { pages: 1, tools: 0, bytes: 0, cursors: ['c'] }, result: { tools: [], nextCursor: 'c' } }), 'MCP_BAD_CURSOR'],
    );
  }
  if (api.verifyReceiptJws) {
    cases.push(
      ['Jwks: empty key set', () => new api.Jwks({ keys: [] }), 'INVALID_JWKS'],
      ['Jwks: a private key', () => new api.Jwks({ keys: [{ kty: 'EC', crv: 'P-256', kid: 'k', x: 'AA', y: 'AA', d: 'AA' }] }), 'INVALID_JWKS'],
      ['verifyJws: malformed token', () => api.verifyJws('x', 'ekl-receipt+jwt', JWKS(), { now: 1 }), 'JWS_MALFORMED'],
      ['verifyJws: unknown typ', () => api.verifyJws('a.b.c', 'jwt', JWKS(), { now: 1 }), 'INVALID_ARGUMENT'],
      ['verifyReceiptJws: no call', () => api.verifyReceiptJws('x', JWKS(), {}), 'INVALID_ARGUMENT'],
      ['verifyReceiptJws: bad base64url', () => api.verifyReceiptJws('a+.b.c', JWKS(), SCALL), 'INVALID_BASE64URL'],
      ['verifySignedReceipt: not an object', () => api.verifySignedReceipt([], JWKS(), SCALL), 'INVALID_RECEIPT'],
      ['verifyScreeningRules: milliseconds', () => api.verifyScreeningRules('a.b.c', JWKS(), 'i', { now: 1780000000000 }), 'INVALID_ARGUMENT'],
      ['verifyScreeningRules: malformed', () => api.verifyScreeningRules('a.b', JWKS(), 'i', { now: 1 }), 'JWS_MALFORMED'],
      ['signingKey: short seed', () => api.signingKey('00', 'k'), 'INVALID_KEY'],
      ['signingKey: empty kid', () => api.signingKey('11'.repeat(32), ''), 'INVALID_KEY'],
      ['signingKeyFromJwk: x without y', () => api.signingKeyFromJwk({ kty: 'EC', crv: 'P-256', kid: 'k', d: 'AQ', x: 'AA' }), 'INVALID_KEY'],
      ['signingKeyFromPem: not PEM', () => api.signingKeyFromPem('not a key', 'k'), 'INVALID_KEY'],
      ['publicJwk: not a key', () => api.publicJwk('k'), 'INVALID_ARGUMENT'],
      ['formatTimestamp: year 10000', () => api.formatTimestamp(253402300800), 'INVALID_ARGUMENT'],
      ['formatTimestamp: before year 0', () => api.formatTimestamp(-62167219201), 'INVALID_TIMESTAMP'],
      ['operations: no argument taken', () => { if (api.operations().length < 40) throw new api.EklError('INTERNAL_ERROR', 'short'); throw new api.EklError('INVALID_ARGUMENT', 'ok'); }, 'INVALID_ARGUMENT'],
      ['verifyExecutionGrant: not a token', () => api.verifyExecutionGrant('x', { keys: [] }, 'i', 'p'), 'INVALID_JWKS'],
      ['verifyRelationshipAssertion: malformed', () => api.verifyRelationshipAssertion('a.b', JWKS(), 'i', 'https://p.example/token', { now: 1 }), 'JWS_MALFORMED'],
      ['verifyPlatformCall: not a purpose', () => api.verifyPlatformCall('a.b.c', JWKS(), 'i', 'admin', { now: 1 }), 'INVALID_ARGUMENT'],
      ['verifyRevocationFeed: milliseconds', () => api.verifyRevocationFeed('a.b.c', JWKS(), 'i', 'p', { now: 1780000000000 }), 'INVALID_ARGUMENT'],
      ['verifyAccessToken: bad base64url', () => api.verifyAccessToken('a+.b.c', JWKS(), 'i', 'p', { now: 1 }), 'INVALID_BASE64URL'],
      ['newSalt: an argument', () => api.newSalt(32), 'INVALID_ARGUMENT'],
      ['newSeed: an argument', () => api.newSeed(32), 'INVALID_ARGUMENT'],
      ['newSigningKey: an empty kid', () => api.newSigningKey(''), 'INVALID_KEY'],
      ['RemoteJwks: not a URL', () => new api.RemoteJwks('file:///x'), 'INVALID_ARGUMENT'],
      ['RemoteJwksPolicy: not http', () => new api.RemoteJwksPolicy('file:///x', { scheme: 'file', host: '' }), 'INVALID_ARGUMENT'],
      ['RemoteJwksPolicy: cooldown a string', () => new api.RemoteJwksPolicy('https://n.example/j', { scheme: 'https', host: 'n.example', cooldown: '30' }), 'INVALID_ARGUMENT'],
      ['RemoteJwksPolicy: a body that is not JSON', () => new api.RemoteJwksPolicy('https://n.example/j', { scheme: 'https', host: 'n.example' }).body(1, '<html>'), 'JWKS_UNAVAILABLE'],
      ['RemoteJwksPolicy: an unknown cause', () => new api.RemoteJwksPolicy('https://n.example/j', { scheme: 'https', host: 'n.example' }).failed(1, 'tick'), 'INVALID_ARGUMENT'],
      ['RemoteJwksPolicy: a method on another object', () => api.RemoteJwksPolicy.prototype.need.call({}, 1), 'INVALID_ARGUMENT'],
      ['jwksFromSeed: short seed', () => api.jwksFromSeed('00', ['k']), 'INVALID_KEY'],
      ['jwksFromSeed: equal kids', () => api.jwksFromSeed('11'.repeat(32), ['k', 'k']), 'INVALID_KEY'],
      ['jwksFromSeed: kids not an array', () => api.jwksFromSeed('11'.repeat(32), 'k'), 'INVALID_ARGUMENT'],
      ['signJws: unknown typ', () => api.signJws('jwt', {}, api.signingKey('11'.repeat(32), 'k')), 'INVALID_ARGUMENT'],
      ['issueReceipt: no issued_at', () => api.issueReceipt({}, api.signingKey('11'.repeat(32), 'k'), 'i', 'a'), 'INVALID_RECEIPT'],
      ['issueRelationshipAssertion: no caps', () => api.issueRelationshipAssertion({ iss: 'i', aud: 'a', iat: 1, exp: 61, sub: 's', jti: 'j', org: 'o', auth_profile: 'ekl-auth-1.1', con: 'c', rel_ver: 1, dsc_ver: 1 }, api.signingKey('11'.repeat(32), 'k')), 'CLAIM_MISSING'],
      ['issuePlatformCall: 61 s', () => api.issuePlatformCall({ iss: 'i', iat: 1, exp: 62, jti: 'j', purpose: 'deliver' }, api.signingKey('11'.repeat(32), 'k')), 'LIFETIME_TOO_LONG'],
      ['issueExecutionGrant: another aud form', () => api.issueExecutionGrant({ iss: 'i', aud: 'agt_p', iat: 1, exp: 61 }, api.signingKey('11'.repeat(32), 'k')), 'AUDIENCE_MISMATCH'],
      ['issueRevocationFeed: no aud', () => api.issueRevocationFeed({ iss: 'i', iat: 1 }, api.signingKey('11'.repeat(32), 'k')), 'CLAIM_MISSING'],
      ['issueAccessToken: 901 s', () => api.issueAccessToken({ iss: 'i', aud: 'ekl:agent:p', iat: 1, exp: 902 }, api.signingKey('11'.repeat(32), 'k')), 'LIFETIME_TOO_LONG'],
      ['replayKey: unknown kind', () => api.replayKey('access_token', 'i', 'a', 'j'), 'INVALID_ARGUMENT'],
      ['replayAdmit: expired', () => api.replayAdmit('platform_call', 'i', 'a', 'j', 1800000000, 1800000060, 1800000120000), 'TOKEN_EXPIRED'],
      ['replayAdmit: negative now', () => api.replayAdmit('platform_call', 'i', 'a', 'j', 0, 60, -1), 'INVALID_ARGUMENT'],
      ['replayAnswer: a reuse', () => api.replayAnswer(api.replayAdmit('platform_call', 'i', 'a', 'j', 1800000000, 1800000060, 1800000000000), { added: false }), 'CREDENTIAL_REPLAY'],
      ['replayAnswer: not an admission', () => api.replayAnswer({ key: 'k' }), 'INVALID_ARGUMENT'],
      ['replayRestore: skew 301', () => api.replayRestore(1800000000000, { skew: 301 }), 'INVALID_ARGUMENT'],
    );
  }
  return cases;
}

export function checkRefusals(api) {
  const problems = [];
  for (const [what, call, code] of badCalls(api)) {
    try {
      call();
      problems.push(`${what}: accepted`);
    } catch (e) {
      if (!api.isEklError(e) || e.code !== code) problems.push(`${what}: ${e && e.name} ${e && e.code} ${e && e.message}`);
    }
    try {
      const got = api.fingerprint(SALT, { area_ref: 'loc:ca:dublin', min_beds: 3 });
      if (got !== GOOD) problems.push(`${what}: the next good call gave ${got}`);
    } catch (e) {
      problems.push(`${what}: the next good call threw ${e}`);
    }
  }
  return problems;
}


#!/usr/bin/env node
// The conformance protocol (docs/conformance-protocol.md) over the Node package `ekl-core`:
// one JSON request per line on stdin, one JSON answer per line on stdout.
//
//   ekl conformance -- node examples/conformance/node_adapter.mjs
//
// The package is loaded by name when installed, else from this repository's node/ folder
// (EKL_NODE_PACKAGE=path overrides both).
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
function load() {
  if (process.env.EKL_NODE_PACKAGE) return require(path.resolve(process.env.EKL_NODE_PACKAGE));
  try {
    return require('ekl-core');
  } catch {
    const here = path.dirname(fileURLToPath(import.meta.url));
    return require(path.join(here, '..', '..', 'node'));
  }
}
const ekl = load();

/** The JSON text of a request member: `name` (a string) or `name_hex` (bytes). */
function jsonText(req, name) {
  if (typeof req[name] === 'string') return new ekl.JsonText(req[name]);
  if (typeof req[`${name}_hex`] === 'string') return new ekl.JsonText(Buffer.from(req[`${name}_hex`], 'hex'));
  throw new Error(`BAD_REQUEST: no ${name}`);
}

function text(bytes) {
  return Buffer.from(bytes).toString('utf8');
}

const OPS = {
  canonicalize: (r) => text(ekl.canonicalize(jsonText(r, 'input').text, { maxBytes: r.max_bytes ?? null })),
  digest: (r) => ekl.sha256Hex(ekl.canonicalize(jsonText(r, 'input').text)),
  sha256: (r) => ekl.sha256Hex(typeof r.input === 'string' ? Buffer.from(r.input, 'utf8') : Buffer.from(r.input_hex, 'hex')),
  commitment: (r) =>
    text(ekl.canonicalizeValue(ekl.commitment(jsonText(r, 'input'), { salt: r.salt ?? null, saltId: r.salt_id ?? null }))),
  fingerprint: (r) => ekl.fingerprint(r.salt, jsonText(r, 'input')),
  output_fingerprint: (r) => ekl.outputFingerprint(r.salt, jsonText(r, 'input')),
  upstream_fingerprint: (r) => ekl.upstreamFingerprint(jsonText(r, 'input'), r.offered ?? null),
  proof_key: (r) => ekl.proofKey(r.agent_key),
  challenge_proof_v1: (r) => ekl.challengeProofV1(r.credential, r.challenge, r.endpoint),
  challenge_proof_v2: (r) => ekl.challengeProofV2(ekl.proofKey(r.agent_key), r.challenge, r.endpoint),
  enroll_authority_v1: (r) => ekl.enrollAuthorityV1(r.agent_key, r.enrollment_id, r.nonce, r.endpoint),
  enroll_authority_v2: (r) => ekl.enrollAuthorityV2(ekl.proofKey(r.agent_key), r.enrollment_id, r.nonce, r.endpoint),
  verify_signature: (r) => ekl.verifySignature(r.secret, r.agent_id, r.enrollment_id, r.challenge),
  receipt_auth_tag: (r) => ekl.authTag(jsonText(r, 'input'), r.secret),
  receipt_digest: (r) => ekl.receiptDigest(jsonText(r, 'input')),
  jws_verify: (r) => {
    const v = ekl.verifyJws(r.token, {
      typ: r.typ,
      jwks: new ekl.Jwks(new ekl.JsonText(r.jwks)),
      now: r.now,
      issuer: r.iss ?? null,
      audience: r.aud ?? null,
      requireExp: r.require_exp ?? null,
    });
    return text(ekl.canonicalizeValue(v.claims));
  },
  screen: (r) => {
    const rules = r.rules !== undefined || r.rules_hex !== undefined ? jsonText(r, 'rules') : null;
    return text(ekl.canonicalizeValue(ekl.screen(rules, jsonText(r, 'input'))));
  },
};

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return { id: null, error: 'BAD_REQUEST' };
  }
  const op = OPS[req.op];
  if (!op) return { id: req.id, error: 'UNSUPPORTED_OP' };
  try {
    return { id: req.id, ok: op(req) };
  } catch (e) {
    if (ekl.isEklError(e)) return { id: req.id, error: e.code };
    return { id: req.id, error: `ADAPTER_ERROR: ${e && e.message}` };
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (line.trim() === '') return;
  process.stdout.write(`${JSON.stringify(answer(line))}\n`);
});

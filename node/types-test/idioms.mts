// Issue 44.3, at compile time (tsc -p tsconfig.json, 40-node.sh): the type names of the README's
// TypeScript quick start exist, a commitment given a salt is a SaltedCommitment, `status` is the
// union of the six statuses, issueMacReceipt's object form, the verdict's helpers.
import {
  commitment,
  inputCommitment,
  issueMacReceipt,
  verifyReceipt,
  verifyReceipts,
  EklError,
  type Check,
  type Commitment,
  type ExecutionStatus,
  type IssueMacReceiptOptions,
  type IssuedReceipt,
  type KeyRingEntry,
  type ReceiptCall,
  type ReceiptKeySpec,
  type SaltedCommitment,
  type Verdict,
} from 'ekl-evidence'

const salt = 'ab'.repeat(32)
const salted: SaltedCommitment = commitment({ a: 1 }, { salt })
const saltedInput: SaltedCommitment = inputCommitment({ a: 1 }, { salt, saltId: 's1' })
const plain: Commitment = commitment({ a: 1 })
// @ts-expect-error: without a salt, the commitment may be unsalted
const notSalted: SaltedCommitment = commitment({ a: 1 })
declare const maybe: string | undefined
// a salt that may be absent: the general signature, a Commitment
const either: Commitment = commitment({ a: 1 }, { salt: maybe ?? null })
const s: string = salted.salt

const statuses: ExecutionStatus[] = ['accepted', 'running', 'succeeded', 'failed_before_effect', 'cancelled', 'outcome_unknown']
// @ts-expect-error: not a status of §4
const wrong: ExecutionStatus = 'done'

const call: ReceiptCall = {
  execution_id: 'ex', collaboration_id: 'col', capability_id: 'cap', requester_agent_id: 'a', provider_agent_id: 'b',
  execution_kind: 'trial', connection_id: 'con', capability_version: '1', terms_hash: 't',
}
const options: IssueMacReceiptOptions = { status: 'succeeded', relVerAtAdmission: 1, dscVer: 1, secret: 's', keyId: 'rk-1', issuedAt: new Date() }
const byName: IssuedReceipt = issueMacReceipt(call, { q: 1 }, { a: 2 }, options)
const positional: IssuedReceipt = issueMacReceipt(call, { q: 1 }, { a: 2 }, 'succeeded', 1, 1, 's')
// @ts-expect-error: the object form needs the secret
issueMacReceipt(call, { q: 1 }, { a: 2 }, { status: 'succeeded', relVerAtAdmission: 1, dscVer: 1 })
// @ts-expect-error: a status outside the union, positional form
issueMacReceipt(call, { q: 1 }, { a: 2 }, 'done', 1, 1, 's')
// @ts-expect-error: a status outside the union, object form
issueMacReceipt(call, { q: 1 }, { a: 2 }, { status: 'done', relVerAtAdmission: 1, dscVer: 1, secret: 's' })
const st: ExecutionStatus = byName.status

const ring: KeyRingEntry[] = [{ key_id: 'rk-1', secret: 's', valid_from: new Date(0) }]
const legacy: ReceiptKeySpec = ring[0] ?? { key_id: 'rk-1', secret: 's', valid_from: '2026-01-01T00:00:00Z' }
const verdict: Verdict = verifyReceipt(byName, ring, call, { outputCommitment: commitment({ a: 2 }, { salt: byName.output_commitment.salt }) })
const failed: string[] = verdict.failed()
const disputed: boolean = verdict.disputed
const check: Check | undefined = verdict.check('auth_tag')
// a verdict is still a value argument (its helpers are not members of its JSON form)
const again: Commitment = commitment(verdict)
for (const v of verifyReceipts([{ receipt: positional, call }], 's')) {
  if (!(v instanceof EklError)) void [v.failed(), v.disputed, v.check('status')?.outcome]
}

void [saltedInput, plain, notSalted, either, s, statuses, wrong, st, legacy, failed, disputed, check, again]

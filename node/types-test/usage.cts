// The CommonJS entry's declarations, for `tsc --noEmit`.
import ekl = require('ekl-evidence')

const out: Buffer = ekl.canonicalizeValue({ b: [1, 2], a: 'x' })
const cm: ekl.Commitment = ekl.commitment({ a: 1 })
let code: ekl.EklErrorCode | undefined
try {
  ekl.canonicalize('[NaN]')
} catch (e) {
  if (ekl.isEklError(e)) code = e.code
}
void [out, cm, code]

// ekl-evidence/replay (Node only)
import replay = require('ekl-evidence/replay')
const memGuard = new replay.ReplayGuard(new replay.MemoryStore({ maxEntries: 1000 }), { skew: 60 })
const done: Promise<void> = memGuard.consumeAssertion('iss', 'https://p.example/token', 'jti', { iat: 1, exp: 2 })
const key: string = replay.replayKey('platform_call', 'iss', 'aud', 'jti')
void [done, key, replay.RESTORE_WINDOW]

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

// ESM declarations: the same API as index.d.ts, plus the default export of index.mjs.
export * from './index.js'
import * as api from './index.js'
export default api

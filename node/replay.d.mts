// ESM declarations of ekl-evidence/replay: the same API as replay.d.ts, plus the default export.
export * from './replay.js'
import * as replay from './replay.js'
export default replay

// ekl-evidence/replay for ES modules: the same module instance as the CommonJS replay.js.
import { createRequire } from 'node:module'

const replay = createRequire(import.meta.url)('./replay.js')

export const {
  ReplayGuard,
  MemoryStore,
  SqliteStore,
  RedisStore,
  replayKey,
  SKEW,
  ASSERTION_MAX_LIFETIME,
  PLATFORM_CALL_MAX_LIFETIME,
  RESTORE_WINDOW,
} = replay

export default replay

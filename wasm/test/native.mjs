// Replays the runner's records through the native `ekl` CLI (target/release/ekl), so that the wasm
// result set can be compared with the native one case by case. Records whose operation the CLI
// does not offer (op 'none') are compared with the file's expected values only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

export function nativeResult(ekl, call) {
  let args;
  switch (call.op) {
    case 'canon':
      args = ['canon', ...(call.max_bytes == null ? [] : ['--max-bytes', String(call.max_bytes)])];
      break;
    case 'fingerprint':
    case 'output-fingerprint':
      args = [call.op, '--salt', call.salt];
      break;
    case 'upstream-fingerprint':
      args = ['upstream-fingerprint', ...(call.offered == null ? [] : ['--offered', call.offered.join(',')])];
      break;
    default:
      return undefined;
  }
  const run = spawnSync(ekl, [...args, '-'], { input: call.input, maxBuffer: 64 << 20 });
  if (run.status === 0) {
    if (call.op === 'canon') {
      const out = run.stdout;
      return `ok:sha256:${createHash('sha256').update(out).digest('hex')}:${out.length}`;
    }
    return `ok:${run.stdout.toString('utf8').trim()}`;
  }
  const m = /^ekl: ([A-Z0-9_]+): /.exec(run.stderr.toString('utf8'));
  if (run.status === 2 && m) return `err:${m[1]}`;
  throw new Error(`ekl ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
}

// Paths and loaders shared by the Node tests of the wasm package.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repo = join(wasmDir, '..');
export const dist = join(wasmDir, 'dist');
export const require = createRequire(import.meta.url);
export const ekl = join(repo, 'target', 'release', 'ekl');

/** The CommonJS build (the package's `require` entry). */
export function loadCjs() {
  return require(join(dist, 'index.cjs'));
}

/** Every file of vectors/ (but check/, the scripts) as {name: path relative to vectors/, text}. */
export function vectorFiles() {
  const dir = join(repo, 'vectors');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .filter((n) => !n.startsWith('check') && statSync(join(dir, n)).isFile())
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
}

export function operations() {
  return JSON.parse(readFileSync(join(repo, 'docs', 'operations.json'), 'utf8')).operations;
}

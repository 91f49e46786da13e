// Writes the CommonJS sources of the package (node/js/errors.js, convert.js, remote.js, shared with
// the Node package, and wasm/js/api.js) as .cjs and .mjs copies into dist/cjs and dist/esm. The
// sources keep to two forms the transform understands (semicolons optional):
//   const { a, b } = require('./x.js')   and   module.exports = { a, b }
// Anything else that looks like a module statement fails the build, so the copies never drift.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

const [outDir, ...sources] = process.argv.slice(2);
mkdirSync(join(outDir, 'cjs'), { recursive: true });
mkdirSync(join(outDir, 'esm'), { recursive: true });
const REQ = /^const (\{[^}]*\}) = require\('\.\/([\w-]+)\.js'\);?$/gm;
const EXP = /^module\.exports = (\{[^}]*\});?$/gm;
for (const src of sources) {
  const text = readFileSync(src, 'utf8');
  const name = basename(src, '.js');
  const rest = text.replace(REQ, '').replace(EXP, '');
  if (/\brequire\(|module\.exports|\bexports\.\w+\s*=/.test(rest)) {
    throw new Error(`${src}: a module statement the ESM transform does not understand`);
  }
  if ((text.match(EXP) || []).length !== 1) throw new Error(`${src}: needs exactly one module.exports = {...}`);
  const header = `// Generated from ${src} by wasm/scripts/esm.mjs: do not edit.\n`;
  const cjs = text.replace(REQ, (_, names, mod) => `const ${names} = require('./${mod}.cjs');`);
  const esm = text
    .replace(/^'use strict';?\n/m, '')
    .replace(REQ, (_, names, mod) => `import ${names} from './${mod}.mjs';`)
    .replace(EXP, (_, names) => `export ${names};`);
  writeFileSync(join(outDir, 'cjs', `${name}.cjs`), header + cjs);
  writeFileSync(join(outDir, 'esm', `${name}.mjs`), header + esm);
}

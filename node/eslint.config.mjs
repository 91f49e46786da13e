// ESLint (flat config) for the JS shared by the Node package and the browser build (node/js/*.js:
// CommonJS, copied into ES modules by wasm/scripts/esm.mjs). eslint:recommended, and the globals
// listed by hand: only those common to browsers and Node >= 20, so `no-undef` refuses a Node-only
// API (Buffer is the one exception, read behind a typeof check of atob in js/remote.js).
// Run by scripts/test/40-node.sh (npx eslint); docs/decisions.md H-entry "lint".
import js from '@eslint/js'

const ro = 'readonly'
export default [
  js.configs.recommended,
  {
    files: ['js/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'commonjs',
      globals: {
        require: ro, module: ro,
        globalThis: ro, TextEncoder: ro, TextDecoder: ro, URL: ro, AbortController: ro,
        setTimeout: ro, clearTimeout: ro, performance: ro, fetch: ro, atob: ro, Buffer: ro,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
]

'use strict';
// The low-level wasm binding for Node, in the interface of the shared API layer: what the Node
// package's loader takes as its fallback (`node/index.js` tries `./wasm/binding.js`).
const { wasmBinding } = require('./cjs/binding.cjs');

module.exports = wasmBinding(require('./node/ekl_wasm.js'));

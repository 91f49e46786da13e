'use strict';
// The low-level wasm binding for Node, in the interface of the shared API layer: what the Node
// package's loader takes as its fallback (`node/index.js` tries `./wasm/binding.js`). After a trap
// the glue is required again for a fresh instance (as in index.cjs).
const { wasmBinding } = require('./cjs/binding.cjs');

const glue = require.resolve('./node/ekl_wasm.js');
const reload = () => {
  delete require.cache[glue];
  return require(glue);
};

module.exports = wasmBinding(require(glue), reload);

'use strict';
// CommonJS entry for Node (`require('ekl-evidence') in Node's wasm fallback`): the wasm-bindgen --target nodejs build, loaded
// synchronously, under the API layer shared with the Node package. After a trap the binding
// replaces the instance: the glue is required again (a new module: its own instance, memory views
// and FinalizationRegistry; the old handles keep freeing into the old instance).
const { wasmBinding } = require('./cjs/binding.cjs');
const { makeApi } = require('./cjs/api.cjs');

const glue = require.resolve('./node/ekl_wasm.js');
const reload = () => {
  delete require.cache[glue];
  return require(glue);
};

module.exports = makeApi(wasmBinding(require(glue), reload), { backend: 'wasm' });

'use strict';
// CommonJS entry for Node (`require('ekl-wasm')`): the wasm-bindgen --target nodejs build, loaded
// synchronously, under the API layer shared with the Node package.
const { wasmBinding } = require('./cjs/binding.cjs');
const { makeApi } = require('./cjs/api.cjs');

module.exports = makeApi(wasmBinding(require('./node/ekl_wasm.js')), { backend: 'wasm' });

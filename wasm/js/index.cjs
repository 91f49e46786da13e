'use strict';
// CommonJS entry for Node (`require('ekl-wasm')`): the wasm-bindgen --target nodejs build, loaded
// synchronously, under the shared API layer.
const raw = require('./node/ekl_wasm.js');
const { makeApi } = require('./cjs/api.cjs');

module.exports = makeApi(raw);

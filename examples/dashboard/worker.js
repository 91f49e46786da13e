// The dashboard's Web Worker (a module worker): loads ekl-wasm and verifies chunks of receipt items.
// Messages in:  {type:'split', text}                        → {type:'split', items} | {type:'error'}
//               {type:'context', settings, jwksText}        → {type:'context'} | {type:'error'}
//               {type:'verify', id, offset, items}          → {type:'results', id, offset, results}
import * as api from './vendor/ekl-wasm/index.web.mjs';
import { splitItems, makeContext, verifyItem } from './verify.js';

let ctx = null;

self.onmessage = (event) => {
  const msg = event.data;
  try {
    if (msg.type === 'split') {
      self.postMessage({ type: 'split', items: splitItems(msg.text) });
    } else if (msg.type === 'context') {
      ctx = makeContext(api, msg.settings, msg.jwksText);
      self.postMessage({ type: 'context' });
    } else if (msg.type === 'verify') {
      const results = msg.items.map((text) => verifyItem(api, text, ctx));
      self.postMessage({ type: 'results', id: msg.id, offset: msg.offset, results });
    }
  } catch (e) {
    self.postMessage({ type: 'error', id: msg.id, message: e && e.message ? e.message : String(e) });
  }
};
self.postMessage({ type: 'ready' });

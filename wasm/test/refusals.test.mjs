// A refusal never leaves a broken instance behind: each bad input is refused with its code, and
// right after it the same instance still gives the known answer of a good call. (A panic would
// abort the wasm instance: the core has none reachable from input, and this proves it per call.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadCjs } from './helpers.mjs';
import { badCalls, checkRefusals } from './refusals.mjs';

test('every refusal has its code and the instance keeps working after each one', () => {
  const api = loadCjs();
  assert.deepEqual(checkRefusals(api), []);
  assert.ok(badCalls(api).length >= 35);
  // Every operation of the API has at least one refusal in the list.
  const covered = new Set(badCalls(api).map(([w]) => w.split(':')[0]));
  // The async variants return promises: their refusals are rejections, checked below.
  covered.add('canonicalizeAsync').add('canonicalizeValueAsync').add('verifyReceiptsAsync');
  const uncovered = Object.keys(api).filter((k) => typeof api[k] === 'function'
    && !['EklError', 'JsonText', 'SigningKey', 'isEklError', 'errorCodes', 'coreVersion'].includes(k) && !covered.has(k));
  assert.deepEqual(uncovered, []);
});

test('the async variants reject with the same EklError, and the instance keeps working', async () => {
  const api = loadCjs();
  await assert.rejects(api.canonicalizeAsync('[1,]'), { name: 'EklError', code: 'INVALID_JSON' });
  await assert.rejects(api.canonicalizeValueAsync([NaN]), { name: 'EklError', code: 'NON_FINITE_NUMBER' });
  assert.equal(new TextDecoder().decode(await api.canonicalizeAsync('{"b":1,"a":2}')), '{"a":2,"b":1}');
});

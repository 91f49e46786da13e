// The demo's headless check: serves the page, opens it with a deep link into the sample set
// (#sample&item=17: load the sample, then open receipt 17 in the inspector) in Chromium, waits for
// the verification and prints what a person sees: the summary, the problems by check, and the
// failing check of the open receipt with its expected and received values.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, CSP } from './serve.mjs';
import { checkLabel } from './checks.js';

const here = dirname(fileURLToPath(import.meta.url));
const { withChromium } = await import(join(here, '..', '..', 'wasm', 'test', 'browser.mjs'));
const server = await serve({ root: here, port: 0, csp: CSP });
try {
  await withChromium(async (page) => {
    await page.goto(`${server.url}#sample&item=17`);
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 120_000 });
    const text = (id) => page.textContent(id);
    if ((await page.evaluate(() => document.body.dataset.state)) !== 'done') throw new Error(await text('#state-receipts'));
    const byCheck = await page.$$eval('#by-check button', (bs) => bs.map((b) => b.textContent.trim()));
    console.log(`sample: ${await text('#count-total')} receipts checked, ${await text('#count-verified')} verified, `
      + `${await text('#count-failed')} failed, ${await text('#count-errors')} unreadable ${await text('#timing')}`);
    console.log(`problems by check: ${byCheck.join(', ')}`);
    await page.waitForFunction(() => document.body.dataset.inspector === '17', null, { timeout: 30_000 });
    const failing = await page.$$eval('#insp-body tr[data-outcome="fail"], #insp-body tr[data-outcome="mismatch"]', (rows) => rows.map((r) => ({
      name: r.dataset.check, expected: r.querySelector('.expected').textContent, received: r.querySelector('.received').textContent,
    })));
    console.log(`inspector, ${await text('#insp-title')} (${new URL(page.url()).hash}):`);
    for (const f of failing) console.log(`  ${checkLabel(f.name)}: expected ${f.expected}; received ${f.received}`);
  });
} finally {
  server.close();
}

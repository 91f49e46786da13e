// The demo's headless check: serves the page, opens it with #sample in Chromium, waits for the
// verification and prints the summary (the figures a person sees on the page).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { withChromium } = await import(join(here, '..', '..', 'wasm', 'test', 'browser.mjs'));
const server = await serve({ root: here, port: 0 });
try {
  await withChromium(async (page) => {
    await page.goto(`${server.url}#sample`);
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 120_000 });
    const text = (id) => page.textContent(id);
    if ((await page.evaluate(() => document.body.dataset.state)) !== 'done') throw new Error(await text('#alert'));
    const byCheck = await page.$$eval('#by-check button', (bs) => bs.map((b) => b.textContent.trim()));
    console.log(`sample: ${await text('#count-total')} receipts, ${await text('#count-verified')} verified, `
      + `${await text('#count-failed')} failed, ${await text('#count-errors')} unreadable ${await text('#timing')}`);
    console.log(`failed by check: ${byCheck.join(', ')}`);
  });
} finally {
  server.close();
}

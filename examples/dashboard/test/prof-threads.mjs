// Profiling helper (not a test): runs the dashboard on a receipts file in headless Chromium and
// prints the CPU time of every Chromium thread that worked during the run (the verification
// workers and the coordinator are `renderer:DedicatedWorker`, the page's main thread
// `renderer:chromium`), per item, with the time to the last verdict and the load average.
//   node examples/dashboard/test/prof-threads.mjs FILE ITEMS
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { withDashboard, settled, expectRun, dash, chromiumThreads } from './harness.mjs';

const [file, itemsArg] = process.argv.slice(2);
const items = Number(itemsArg);

await withDashboard(async ({ page, url }) => {
  await page.goto(url);
  await page.setInputFiles('#file-settings', join(dash, 'sample', 'settings.json'));
  await page.setInputFiles('#file-jwks', join(dash, 'sample', 'jwks.json'));
  await page.waitForFunction(() => document.getElementById('card-jwks').dataset.state === 'ok');
  await expectRun(page);
  const before = chromiumThreads();
  const load = loadavg()[0];
  await page.setInputFiles('#file-receipts', file);
  await settled(page, 900_000);
  const pageMs = Number(await page.evaluate(() => document.body.dataset.verifyMs));
  const used = [];
  for (const [k, v] of chromiumThreads()) {
    const d = v.cpu - (before.get(k)?.cpu || 0);
    if (d >= 0.05) used.push([v.name, d]);
  }
  used.sort((a, b) => b[1] - a[1]);
  const total = used.reduce((s, [, d]) => s + d, 0);
  console.log(`items ${items}, to the last verdict ${(pageMs / 1000).toFixed(2)} s, load ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);
  console.log(`CPU of all Chromium threads: ${total.toFixed(2)} s = ${(total / items * 1e6).toFixed(0)} µs per item`);
  for (const [name, d] of used) console.log(`  ${name.padEnd(40)} ${d.toFixed(2)} s  ${(d / items * 1e6).toFixed(0)} µs/item`);
});

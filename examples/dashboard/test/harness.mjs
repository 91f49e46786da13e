// The dashboard's browser harness: Debian's headless Chromium driven by playwright-core (the launch
// flags of TOOLCHAIN.md), a fresh browser per test, with
//   * every request the page or its workers make recorded (the static server's log and the routes),
//   * Content-Security-Policy violations, page errors and console errors collected,
//   * an axe-core scan (`axe(page, state)`) and screenshots at 1280×800 and 390×844 (`shoot`),
//   * the peak memory of all Chromium processes (proportional set size, from /proc) sampled while
//     a function runs (`peakMemory`), and the main thread's longest pause (`pauses`).
import { readFileSync, mkdirSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { serve, CSP } from '../serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const dash = resolve(here, '..');
export const repo = resolve(dash, '..', '..');
export const out = join(repo, 'target', 'dashboard');
export const shots = join(out, 'shots');
const require = createRequire(join(repo, 'wasm', 'package.json'));
const { chromium } = require('playwright-core');
const AXE = readFileSync(join(dash, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export const CHROMIUM = process.env.EKL_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** Local time of the tests: not UTC, so that local and UTC times differ on the page. */
export const TIMEZONE = 'Europe/Berlin';

/** Every file the page may fetch: the files of examples/dashboard (no other host, no other path). */
function ownFiles() {
  const files = new Set();
  const walk = (dir, prefix) => {
    for (const name of readdirSync(dir)) {
      if (prefix === '' && ['test', 'node_modules'].includes(name)) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, `${prefix}${name}/`);
      else files.add(`/${prefix}${name}`);
    }
  };
  walk(dash, '');
  files.add('/');
  return files;
}

/**
 * Runs `f({page, context, browser, url, log})` with the dashboard served on a free port in a fresh
 * headless Chromium. `log` = {requests (server), routed (browser), violations, errors, dialogs}.
 */
export async function withDashboard(f, { viewport = DESKTOP, clipboard = false } = {}) {
  const requests = [];
  const server = await serve({ root: dash, port: 0, requests, csp: CSP });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const log = { requests, routed: [], violations: [], errors: [], dialogs: [] };
  try {
    const context = await browser.newContext({ viewport, timezoneId: TIMEZONE, locale: 'en-GB', acceptDownloads: true });
    if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    // Every request of the page and its workers: answered only when it is one of the page's files.
    const own = ownFiles();
    await context.route('**/*', (route) => {
      const u = new URL(route.request().url());
      log.routed.push(u.href);
      const ok = u.origin === new URL(server.url).origin && own.has(decodeURIComponent(u.pathname));
      return ok ? route.continue() : route.abort('blockedbyclient');
    });
    await context.addInitScript(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => log.errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') log.errors.push(m.text()); });
    page.on('dialog', (d) => { log.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    return await f({ page, context, browser, url: server.url, log, server, own });
  } finally {
    await browser.close();
    server.close();
  }
}

/** The requests that were not for the page's own files (none are allowed). */
export function foreignRequests(log, url, own) {
  const origin = new URL(url).origin;
  const bad = log.routed.filter((h) => {
    const u = new URL(h);
    return u.origin !== origin || !own.has(decodeURIComponent(u.pathname));
  });
  for (const r of log.requests) {
    const path = decodeURIComponent(new URL(r.url, 'http://x').pathname);
    if (!own.has(path)) bad.push(`server: ${r.method} ${r.url}`);
  }
  return bad;
}

/** The CSP violations the page reported. */
export async function violations(page) {
  return page.evaluate(() => window.__violations.slice());
}

/** An axe-core scan of the page as it is: {violations: [...], passes}. */
export async function axe(page) {
  // Evaluated through the DevTools protocol: the page's CSP forbids inline script, and rightly so.
  const installed = await page.evaluate(() => typeof window.axe === 'object');
  if (!installed) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return {
      violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((x) => x.target.join(' ')).slice(0, 5) })),
      passes: r.passes.length,
    };
  });
}

/**
 * Screenshots of the page at 1280×800 and 390×844 (viewport and full page), as test artifacts.
 * Throws when the page scrolls sideways at either size.
 */
export async function shoot(page, name) {
  mkdirSync(shots, { recursive: true });
  const before = page.viewportSize();
  const files = [];
  for (const [tag, size] of [['1280x800', DESKTOP], ['390x844', PHONE]]) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (wide[0] > wide[1]) throw new Error(`${name}: the page is ${wide[0]} px wide at ${tag}`);
    const file = join(shots, `${name}-${tag}.png`);
    await page.screenshot({ path: file });
    await page.screenshot({ path: join(shots, `${name}-${tag}-full.png`), fullPage: true });
    files.push(file);
  }
  await page.setViewportSize(before);
  return files;
}

/** Waits until the page has finished checking (done, cancelled or error); returns the state. */
export async function settled(page, timeout = 120_000) {
  await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(document.body.dataset.state), null, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

/** Marks the page as busy again, so that `settled` waits for the next run. */
export async function expectRun(page) {
  await page.evaluate(() => { document.body.dataset.state = 'waiting'; });
}

/**
 * Starts recording the main thread's pauses: long tasks (a PerformanceObserver) and the longest
 * delay of a 20 ms timer chain (how long an input would have waited). Neither adds rendering work;
 * a requestAnimationFrame loop would (the page would render every frame, and on a loaded machine
 * those frames become long tasks of their own).
 */
export async function startPauses(page) {
  await page.evaluate(() => {
    const p = { longTasks: [], lag: 0, ticks: 0, stop: false };
    window.__pauses = p;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) p.longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
    let due = performance.now() + 20;
    const tick = () => {
      const now = performance.now();
      p.lag = Math.max(p.lag, now - due);
      p.ticks++;
      due = now + 20;
      if (!p.stop) setTimeout(tick, 20);
    };
    setTimeout(tick, 20);
  });
}

/** Stops recording; {longestTask, longTasks, longestLag, ticks}. */
export async function stopPauses(page) {
  return page.evaluate(() => {
    const p = window.__pauses;
    p.stop = true;
    return { longestTask: Math.max(0, ...p.longTasks), longTasks: p.longTasks, longestLag: Math.round(p.lag), ticks: p.ticks };
  });
}

/** The process ids of every Chromium process of `browser` (browser, renderers, GPU, utilities). */
async function chromiumPids(browser) {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return processInfo.map((p) => p.id);
  } finally {
    await session.detach().catch(() => {});
  }
}

/**
 * The memory of processes from /proc/PID/status (cheap counters: reading smaps would take the
 * processes' memory-map lock and could itself pause the page): the sum of their anonymous resident
 * memory (the heaps: V8's, WebAssembly's, the renderer's; shared libraries not counted) and the sum
 * of their resident high-water marks (VmHWM: an upper bound of the peak, sampling or not).
 */
function memory(pids) {
  let anon = 0;
  let hwm = 0;
  for (const pid of pids) {
    try {
      const t = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (name) => Number((new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(t) || [0, 0])[1]) * 1024;
      anon += kb('RssAnon');
      hwm += kb('VmHWM');
    } catch { /* the process ended */ }
  }
  return { anon, hwm };
}

/**
 * Runs `f()` while sampling the anonymous resident memory of all Chromium processes every 100 ms:
 * {result, peak, before, highWater}. The processes are listed once before (the page's workers are
 * threads of its renderer process), so that sampling asks nothing of the browser while the page works.
 */
export async function peakMemory(browser, f) {
  const pids = await chromiumPids(browser);
  const before = memory(pids).anon;
  let peak = before;
  const timer = setInterval(() => { peak = Math.max(peak, memory(pids).anon); }, 100);
  try {
    const result = await f();
    const end = memory(pids);
    peak = Math.max(peak, end.anon);
    return { result, peak, before, highWater: end.hwm };
  } finally {
    clearInterval(timer);
  }
}

/** A DataTransfer holding files, in the page (for real drop events). */
export async function dataTransfer(page, files) {
  return page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const { name, text, b64 } of list) {
      const bytes = b64 ? Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(text);
      dt.items.add(new File([bytes], name, { type: 'application/json' }));
    }
    return dt;
  }, files);
}

/** Drops files on the element `selector` with the events a browser fires (dragenter, dragover, drop). */
export async function drop(page, selector, files) {
  const dt = await dataTransfer(page, files);
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer: dt });
  const prevented = await page.evaluate(({ sel, dt: d }) => {
    const e = new DragEvent('dragover', { dataTransfer: d, bubbles: true, cancelable: true });
    document.querySelector(sel).dispatchEvent(e);
    return e.defaultPrevented;
  }, { sel: selector, dt });
  const dropped = await page.evaluate(({ sel, dt: d }) => {
    const e = new DragEvent('drop', { dataTransfer: d, bubbles: true, cancelable: true });
    document.querySelector(sel).dispatchEvent(e);
    return e.defaultPrevented;
  }, { sel: selector, dt });
  return { dragoverPrevented: prevented, dropPrevented: dropped };
}

/**
 * The CPU time (seconds) of every thread of every Chromium process now, by `pid/tid`:
 * {name: 'renderer:DedicatedWorker' | 'renderer:chromium' | ..., cpu} from /proc/PID/task/TID/stat.
 * The difference of two snapshots says which threads did the work of a run (the verification
 * workers, the coordinator, the page's main thread, the compositor, the browser process).
 */
export function chromiumThreads() {
  const out = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let comm = '';
    let cmd = '';
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (!/chrom/i.test(comm)) continue;
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch { continue; }
    const type = (/--type=([a-z-]+)/.exec(cmd) || [null, 'browser'])[1];
    let tids = [];
    try { tids = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        out.set(`${pid}/${tid}`, { name: `${type}:${name}`, cpu: (Number(rest[11]) + Number(rest[12])) / 100 });
      } catch { /* the thread ended */ }
    }
  }
  return out;
}

/** CPU seconds per thread name between two `chromiumThreads()` snapshots, largest first. */
export function cpuBetween(before, after) {
  const by = new Map();
  for (const [k, v] of after) {
    const d = v.cpu - (before.get(k)?.cpu || 0);
    if (d > 0) by.set(v.name, (by.get(v.name) || 0) + d);
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

export { existsSync };

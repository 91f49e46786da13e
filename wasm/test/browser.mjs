// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, with the launch flags of
// TOOLCHAIN.md and a fresh profile directory per run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { require } from './helpers.mjs';

export const CHROMIUM = process.env.EKL_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Runs `f(page, context)` in a fresh headless Chromium; always closes it and removes the profile. */
export async function withChromium(f, { viewport = { width: 1280, height: 900 } } = {}) {
  const { chromium } = require('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'ekl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport, acceptDownloads: true,
  });
  const errors = [];
  try {
    const page = context.pages()[0] || await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    return await f(page, context, errors);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

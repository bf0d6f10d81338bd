// `node scripts/measure-first-machine.mjs`: how many clicks and seconds a new renter needs from
// the landing page to a running machine chosen by comparing two offers (issue 42). It drives
// Debian's Chromium (scripts/chromium.mjs) through the production build on a fresh embedded
// database with the demo data, as a newcomer's `npm start` serves it: sign in with a new
// e-mail address (the code the server prints), open the marketplace, filter to 80 GB GPUs,
// sort by price per GPU-hour, pick the two cheapest offers, compare them, rent the first for
// one hour, buy credits through the built-in PayPal sandbox (a new account has $0.00), come
// back to the dialog, confirm, and wait on My Dashboard until the rental says Running.
// Prints the clicks (a press, a choice in a list or a tick), the fields typed in, and the
// seconds: the whole walk, and without the demo host's provisioning delay
// (DEMO_PROVISIONING_DELAY_MS, 20 s unless set). Not part of `npm test`: nothing is asserted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildIfStale } from './build-if-stale.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { freePort } from './free-port.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

const PROVISIONING_MS = Number(process.env.DEMO_PROVISIONING_DELAY_MS ?? 20_000);

buildIfStale();
const port = await freePort();
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-first-machine-'));
let printed = '';
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
  env: withServerEnv({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    DEMO_PROVISIONING_DELAY_MS: String(PROVISIONING_MS),
  }),
  stdio: ['ignore', 'pipe', 'inherit'],
});
server.stdout.on('data', (chunk) => {
  printed += chunk.toString();
});

async function until(what, check, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let clicks = 0;
let typed = 0;
const click = async (locator) => {
  clicks += 1;
  await locator.click();
};
const tick = async (locator) => {
  clicks += 1;
  await locator.check();
};
const choose = async (locator, value) => {
  clicks += 1;
  await locator.selectOption(value);
};
const type = async (locator, text) => {
  typed += 1;
  await locator.fill(text);
};

let failed = false;
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  await until('the server', () =>
    fetch(`${base}/api/health`).then(
      (res) => res.ok,
      () => false,
    ),
  );
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(60_000);
  const email = `renter-${Date.now()}@example.com`;
  const at = Date.now();
  await page.goto(`${base}/`);
  await click(page.getByRole('link', { name: 'Sign In' }).first());
  await type(page.getByLabel('Email address'), email);
  await click(page.getByRole('button', { name: 'Send Login Code' }));
  const code = await until('the sign-in code', () => {
    const found = [...printed.matchAll(/Subject: Your RentGPU sign-in code: (\d{6})/g)].at(-1);
    return found?.[1];
  });
  await type(page.getByLabel(/6-digit code sent to/), code);
  await click(page.getByRole('button', { name: 'Verify & Sign In' }));
  await page.getByRole('link', { name: 'Marketplace' }).first().waitFor();
  await click(page.getByRole('link', { name: 'Marketplace' }).first());
  await page.getByTestId('listing-card').first().waitFor();
  await choose(page.getByRole('combobox', { name: 'Minimum GPU memory' }), '80');
  await choose(page.getByRole('combobox', { name: 'Sort by' }), 'gpu-price-asc');
  await page.waitForURL(/sort=gpu-price-asc/);
  await page.getByTestId('listing-card').first().waitFor();
  const rentable = page
    .getByTestId('listing-card')
    .filter({ has: page.getByRole('button', { name: 'Rent Now', disabled: false }) });
  const picked = [
    await rentable.nth(0).getAttribute('aria-label'),
    await rentable.nth(1).getAttribute('aria-label'),
  ];
  await tick(rentable.nth(0).getByRole('checkbox', { name: 'Compare' }));
  await tick(rentable.nth(1).getByRole('checkbox', { name: 'Compare' }));
  await click(page.getByRole('link', { name: 'Compare (2)' }));
  await page.getByTestId('compare-table').waitFor();
  await click(page.getByRole('button', { name: /^Rent / }).first());
  const dialog = page.getByRole('dialog', { name: /^Rent / });
  await type(dialog.getByLabel('Duration (hours)'), '1');
  await click(dialog.getByRole('link', { name: 'Add Credits' }));
  await click(
    page.getByTestId('paypal-sandbox').getByRole('button', { name: 'Pay with PayPal Sandbox' }),
  );
  await click(page.getByRole('button', { name: 'Approve' }));
  const back = page.getByRole('dialog', { name: /^Rent / });
  await back.getByRole('button', { name: 'Confirm Rental', disabled: false }).waitFor();
  await click(back.getByRole('button', { name: 'Confirm Rental' }));
  await back.waitFor({ state: 'hidden' });
  const rented = Date.now();
  await click(page.getByRole('link', { name: 'Dashboard' }).first());
  await page
    .getByTestId('active-rental')
    .getByText('Running', { exact: true })
    .waitFor({ timeout: PROVISIONING_MS + 120_000 });
  const running = Date.now();
  const seconds = (ms) => (ms / 1000).toFixed(1);
  console.log(`compared: ${picked.join(' | ')}`);
  console.log(`clicks ${clicks}, fields typed ${typed}`);
  console.log(`landing → rental confirmed: ${seconds(rented - at)} s`);
  console.log(
    `landing → Running on My Dashboard: ${seconds(running - at)} s (the demo host's provisioning delay ${seconds(PROVISIONING_MS)} s included)`,
  );
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  await browser.close();
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

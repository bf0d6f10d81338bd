// The pages `npm run lighthouse` and `scripts/profile-pages.mjs` measure, the production server
// they run against (a fresh embedded database) and how each page's address and session are had
// before the runs: a Demo Login, as a visitor's first click gives one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

export const ALL_PAGES = [
  { name: 'landing', path: '/', signedIn: false },
  { name: 'marketplace', path: '/marketplace', signedIn: true },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'vm-dashboard', path: '/vm-dashboard', signedIn: true },
  // The two cheapest H100 offers by price per GPU-hour, as a renter compares them.
  { name: 'compare', path: '/compare?ids=', signedIn: true, compare: 'H100' },
  // A rental's invoice and its month's, in a demo account of their own that rented a GPU of its
  // sandbox provider for an hour and stopped it (as e2e/invoices.spec.ts does): the other pages
  // stay those of a visitor who has rented nothing.
  { name: 'invoice', path: '/invoices/', signedIn: true, invoice: 'instance' },
  { name: 'invoice-month', path: '/invoices/month/', signedIn: true, invoice: 'month' },
];

/** The pages LIGHTHOUSE_PAGES names (comma-separated), or every page. */
export function chosenPages(names = process.env.LIGHTHOUSE_PAGES) {
  const only = names?.split(',');
  return only ? ALL_PAGES.filter((page) => only.includes(page.name)) : ALL_PAGES;
}

async function waitUntilUp(base, server) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${base}/`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    'the server did not answer within 180 s (under load the embedded database starts slowly)',
  );
}

/** The production server (dist/) on a free port and a fresh data directory; stop() ends both. */
export async function startServer() {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-lighthouse-'));
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
    env: withServerEnv({
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(base, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop };
}

/** A Demo Login, as the landing page's button does; returns "name=value" of the session cookie. */
export async function demoSessionCookie(base) {
  const res = await fetch(`${base}/api/login`, { method: 'POST' });
  if (!res.ok) throw new Error(`Demo Login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error('Demo Login set no cookie');
  return cookie;
}

async function getJson(base, cookie, url, init = {}) {
  const res = await fetch(`${base}${url}`, {
    ...init,
    headers: { Cookie: cookie, 'Content-Type': 'application/json', ...init.headers },
  });
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The ids of the two cheapest offers of `model` per GPU-hour, as the marketplace lists them. */
async function twoOffers(base, cookie, model) {
  const listings = await getJson(
    base,
    cookie,
    `/api/gpu-listings?model=${model}&sort=gpu-price-asc&limit=2`,
  );
  const ids = listings.map((listing) => listing.id);
  if (ids.length < 2) throw new Error(`fewer than two ${model} offers to compare`);
  return ids.join(',');
}

/**
 * A demo account that rented one of its sandbox provider's GPUs for an hour and stopped it:
 * its session cookie, the rental's id and the UTC month it falls in.
 */
async function accountWithInvoice(base) {
  const cookie = await demoSessionCookie(base);
  const user = await getJson(base, cookie, '/api/auth/user');
  const provider = await getJson(base, cookie, `/api/providers/user/${user.id}`);
  const own = await getJson(base, cookie, `/api/gpu-listings?providerId=${provider.id}&limit=100`);
  const listing = own.find((l) => l.hostStatus === 'demo' && l.availableCount > 0);
  if (!listing) throw new Error('the demo account has no listing of its own to rent');
  const rental = await getJson(base, cookie, '/api/rentals', {
    method: 'POST',
    body: JSON.stringify({
      gpuListingId: listing.id,
      providerId: listing.providerId,
      durationHours: 1,
      hourlyRate: listing.hourlyRate,
      totalCost: listing.hourlyRate,
    }),
  });
  await getJson(base, cookie, `/api/rentals/${rental.id}/stop`, { method: 'PATCH' });
  return { cookie, id: rental.id, month: new Date().toISOString().slice(0, 7) };
}

/**
 * Every page's address and the session it is opened with (null: signed out), looked up before
 * any run: a request between Lighthouse runs would go out on a kept-alive socket the server has
 * closed meanwhile ("fetch failed").
 */
export async function pageTargets(base, pages) {
  const cookie = await demoSessionCookie(base);
  const withInvoice = pages.some((page) => page.invoice) ? await accountWithInvoice(base) : null;
  const targets = new Map();
  for (const page of pages) {
    let url = `${base}${page.path}`;
    let session = page.signedIn ? cookie : null;
    if (page.compare) url += await twoOffers(base, cookie, page.compare);
    if (page.invoice && withInvoice) {
      url += page.invoice === 'month' ? withInvoice.month : withInvoice.id;
      session = withInvoice.cookie;
    }
    targets.set(page, { url, cookie: session });
  }
  return targets;
}

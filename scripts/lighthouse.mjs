// `npm run lighthouse`: Lighthouse (mobile, simulated throttling) on the pages a person loads
// first, against the production build on a fresh embedded database. Signed-in pages get the
// session cookie of a Demo Login through --extra-headers. Each page runs RUNS times (3 unless
// LIGHTHOUSE_RUNS says otherwise) and the median of each figure is printed, then the landing
// page's JavaScript (scripts/measure-landing-js.mjs). Not part of `npm test`: scores depend
// on the machine's load, so nothing here asserts a number.
//   node scripts/lighthouse.mjs [--keep-reports DIR]
//   LIGHTHOUSE_PAGES=marketplace,compare LIGHTHOUSE_RUNS=5 node scripts/lighthouse.mjs
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { freePort } from './free-port.mjs';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const ALL_PAGES = [
  { name: 'landing', path: '/', signedIn: false },
  { name: 'marketplace', path: '/marketplace', signedIn: true },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'vm-dashboard', path: '/vm-dashboard', signedIn: true },
  // The two cheapest H100 offers by price per GPU-hour, as a renter compares them.
  { name: 'compare', path: '/compare?ids=', signedIn: true, compare: 'H100' },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',');
const PAGES = only ? ALL_PAGES.filter((page) => only.includes(page.name)) : ALL_PAGES;
const keepIndex = process.argv.indexOf('--keep-reports');
const keepDir = keepIndex > 0 ? path.resolve(process.argv[keepIndex + 1] ?? 'lighthouse') : null;

async function waitUntilUp(base, server) {
  const deadline = Date.now() + 60_000;
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
  throw new Error('the server did not answer within 60 s');
}

/** A Demo Login, as the landing page's button does; returns "name=value" of the session cookie. */
async function demoSessionCookie(base) {
  const res = await fetch(`${base}/api/login`, { method: 'POST' });
  if (!res.ok) throw new Error(`Demo Login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error('Demo Login set no cookie');
  return cookie;
}

/** The ids of the two cheapest offers of `model` per GPU-hour, as the marketplace lists them. */
async function twoOffers(base, cookie, model) {
  const res = await fetch(`${base}/api/gpu-listings?model=${model}&sort=gpu-price-asc&limit=2`, {
    headers: { Cookie: cookie },
  });
  const ids = (await res.json()).map((listing) => listing.id);
  if (ids.length < 2) throw new Error(`fewer than two ${model} offers to compare`);
  return ids.join(',');
}

function runLighthouse(url, cookie, reportPath) {
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--only-categories=performance',
    '--output=json',
    `--output-path=${reportPath}`,
    `--chrome-flags=${chromiumLaunchOptions.args.join(' ')}`,
  ];
  if (cookie) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
  execFileSync('npx', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CHROME_PATH: chromiumLaunchOptions.executablePath },
  });
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  if (report.runtimeError) throw new Error(`${url}: ${report.runtimeError.message}`);
  return report;
}

/**
 * One run's figures. Under load Chromium now and then records no navigation start
 * (NO_NAVSTART), or fails to start; such a run is tried again, twice at most.
 */
function measure(url, cookie, reportPath) {
  let report;
  for (let attempt = 1; !report; attempt += 1) {
    try {
      report = runLighthouse(url, cookie, reportPath);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`  retrying: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
      execFileSync('sleep', ['5']);
    }
  }
  const audit = (id) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((report.categories.performance.score ?? 0) * 100),
    cls: audit('cumulative-layout-shift'),
    tbt: audit('total-blocking-time'),
    lcp: audit('largest-contentful-paint'),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

buildIfStale();
const port = await freePort();
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rentgpu-lighthouse-'));
const reportDir = keepDir ?? mkdtempSync(path.join(os.tmpdir(), 'rentgpu-lighthouse-reports-'));
mkdirSync(reportDir, { recursive: true });
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/server/main.js'], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

let failed = false;
try {
  await waitUntilUp(base, server);
  const cookie = await demoSessionCookie(base);
  console.log(`Lighthouse ${LIGHTHOUSE.split('@')[1]}, mobile, ${RUNS} runs a page (medians)`);
  console.log('page           perf   CLS     TBT ms   LCP ms   (each run: perf)');
  // Every page's address first: a request between Lighthouse runs would go out on a kept-alive
  // socket the server has closed meanwhile ("fetch failed").
  const urls = new Map();
  for (const page of PAGES) {
    urls.set(
      page,
      `${base}${page.path}${page.compare ? await twoOffers(base, cookie, page.compare) : ''}`,
    );
  }
  for (const page of PAGES) {
    const runs = [];
    const url = urls.get(page);
    for (let i = 0; i < RUNS; i += 1) {
      const reportPath = path.join(reportDir, `${page.name}-${i + 1}.json`);
      runs.push(measure(url, page.signedIn ? cookie : null, reportPath));
    }
    const pick = (key) => median(runs.map((run) => run[key]));
    console.log(
      `${page.name.padEnd(14)} ${String(pick('performance')).padStart(4)}   ${pick('cls').toFixed(3)}  ${String(Math.round(pick('tbt'))).padStart(7)}  ${String(Math.round(pick('lcp'))).padStart(7)}   (${runs.map((run) => run.performance).join(', ')})`,
    );
  }
  console.log('\nLanding page JavaScript (scripts/measure-landing-js.mjs):');
  execFileSync(process.execPath, ['scripts/measure-landing-js.mjs', base], { stdio: 'inherit' });
  if (keepDir) console.log(`\nReports: ${keepDir}`);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  if (!keepDir) rmSync(reportDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

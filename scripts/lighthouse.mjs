// `npm run lighthouse`: Lighthouse (mobile, simulated throttling) on the pages a person loads
// first, against the production build on a fresh embedded database. Signed-in pages get the
// session cookie of a Demo Login through --extra-headers. Each page runs RUNS times (3 unless
// LIGHTHOUSE_RUNS says otherwise) and the median of each figure is printed, then the landing
// page's JavaScript (scripts/measure-landing-js.mjs). Not part of `npm test`: scores depend
// on the machine's load, so nothing here asserts a number.
//   node scripts/lighthouse.mjs [--keep-reports DIR]
//   LIGHTHOUSE_PAGES=marketplace,compare LIGHTHOUSE_RUNS=5 node scripts/lighthouse.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { chosenPages, pageTargets, startServer } from './measured-pages.mjs';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGES = chosenPages();
const keepIndex = process.argv.indexOf('--keep-reports');
const keepDir = keepIndex > 0 ? path.resolve(process.argv[keepIndex + 1] ?? 'lighthouse') : null;

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
const reportDir = keepDir ?? mkdtempSync(path.join(os.tmpdir(), 'rentgpu-lighthouse-reports-'));
mkdirSync(reportDir, { recursive: true });
const server = await startServer();

let failed = false;
try {
  const targets = await pageTargets(server.base, PAGES);
  console.log(`Lighthouse ${LIGHTHOUSE.split('@')[1]}, mobile, ${RUNS} runs a page (medians)`);
  console.log('page           perf   CLS     TBT ms   LCP ms   (each run: perf)');
  for (const page of PAGES) {
    const runs = [];
    const { url, cookie } = targets.get(page);
    for (let i = 0; i < RUNS; i += 1) {
      const reportPath = path.join(reportDir, `${page.name}-${i + 1}.json`);
      runs.push(measure(url, cookie, reportPath));
    }
    const pick = (key) => median(runs.map((run) => run[key]));
    console.log(
      `${page.name.padEnd(14)} ${String(pick('performance')).padStart(4)}   ${pick('cls').toFixed(3)}  ${String(Math.round(pick('tbt'))).padStart(7)}  ${String(Math.round(pick('lcp'))).padStart(7)}   (${runs.map((run) => run.performance).join(', ')})`,
    );
  }
  console.log('\nLanding page JavaScript (scripts/measure-landing-js.mjs):');
  execFileSync(process.execPath, ['scripts/measure-landing-js.mjs', server.base], {
    stdio: 'inherit',
  });
  if (keepDir) console.log(`\nReports: ${keepDir}`);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  await server.stop();
  if (!keepDir) rmSync(reportDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

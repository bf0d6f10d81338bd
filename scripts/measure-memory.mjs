// The server's resident memory after start and one demo visitor's tour (issue 43):
//   npm run measure:memory [-- --wait 45] [--snapshot] [--data-dir DIR] [--entry dist/x/main.js]
// Starts the production server (dist/, built first when stale, with the flags `npm start`
// uses) on a fresh DATA_DIR and a free port, signs in as a demo visitor, walks the main pages
// and their API calls, rents and stops a machine, waits, then prints what /proc says the
// process holds and the process's own breakdown (V8 heap, external, array buffers: the
// embedded database's WebAssembly memory is one). --snapshot also writes a heap snapshot.
// A measurement, never a test: the figures vary with the machine and the Node version.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { freePort } from './free-port.mjs';
import { SERVER_NODE_FLAGS, withServerEnv } from './server-node-flags.mjs';

const args = process.argv.slice(2);
const waitSeconds = Number(args[args.indexOf('--wait') + 1]) || 45;
const snapshot = args.includes('--snapshot');
// Another build of the server to compare with (e.g. one of a previous commit, built aside).
const entry = args.includes('--entry') ? args[args.indexOf('--entry') + 1] : 'dist/server/main.js';

buildIfStale({ log: (line) => console.log(line) });
// --data-dir DIR: a data directory kept for the next run (a second start: no initdb, no seeding).
const keptDir = args.includes('--data-dir') ? args[args.indexOf('--data-dir') + 1] : null;
const dataDir = keptDir ?? mkdtempSync(path.join(os.tmpdir(), 'rentgpu-memory-'));
const reportFile = path.join(dataDir, 'memory-report.json');
rmSync(reportFile, { force: true });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const probe = path.resolve('scripts/measure-memory-probe.mjs');
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', probe, entry], {
  env: withServerEnv({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    MEASURE_MEMORY_REPORT: reportFile,
    ...(snapshot ? { MEASURE_MEMORY_SNAPSHOT_DIR: process.cwd() } : {}),
  }),
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stopped = new Promise((resolve) => server.once('exit', resolve));

try {
  const began = performance.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error('the server exited before it answered');
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`up after ${Math.round(performance.now() - began)} ms; after start:`);
  printProc(server.pid);

  const requests = await tour();
  console.log(`tour: ${requests} requests; waiting ${waitSeconds} s`);
  await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
  console.log(`${waitSeconds} s after the tour:`);
  printProc(server.pid);
  printMappings(server.pid);
  await printReport();
  const du = spawnSync('du', ['-sm', path.join(dataDir, 'pglite')], { encoding: 'utf8' });
  if (du.status === 0) console.log(`  the database's files: ${du.stdout.split('\t')[0]} MiB`);
} finally {
  server.kill('SIGTERM');
  await stopped;
  if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
}

/** A demo visitor: Demo Login, the main pages and what they ask for, one rental started and stopped. */
async function tour() {
  let count = 0;
  let cookie = '';
  const call = async (method, url, body) => {
    count += 1;
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        cookie,
        origin: base,
        'accept-encoding': 'br, gzip',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
    return text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  };

  // The landing page, its scripts and styles, as a first visit fetches them.
  const landing = await call('GET', '/');
  for (const asset of landing.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
    await call('GET', asset[1]);
  }
  await call('GET', '/api/marketplace/stats');

  // Demo Login (the landing page's button posts here).
  count += 1;
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { origin: base } });
  if (!login.ok) throw new Error(`POST /api/login: ${login.status}`);
  cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const me = await call('GET', '/api/auth/user');

  const pages = [
    '/marketplace',
    '/dashboard',
    '/vm-dashboard',
    '/deploy',
    '/payments',
    '/compare',
    '/documentation',
    '/api-reference',
    '/provider',
    '/settings',
    '/profile',
  ];
  for (const page of pages) await call('GET', page);
  const apis = [
    '/api/gpu-listings',
    '/api/gpu-listings?page=2',
    '/api/marketplace/stats',
    `/api/rentals/user/${me.id}`,
    '/api/kvm/instances',
    '/api/kvm/templates',
    '/api/kvm/gpus',
    '/api/kvm/billing/summary',
    '/api/deploy/gpus',
    '/api/payments/summary',
    '/api/payments/history',
    '/api/payments/limits',
    '/api/receipts',
    '/api/ssh-keys',
    '/api/auth/api-keys',
    '/api/webhook-endpoints',
    `/api/providers/user/${me.id}`,
    '/api/provider-applications/mine',
    '/api/v1/openapi.json',
  ];
  for (const url of apis) await call('GET', url);

  // Rent the cheapest machine for an hour and stop it, as the marketplace's Rent dialog does.
  const listings = await call('GET', '/api/gpu-listings');
  const rows = Array.isArray(listings) ? listings : (listings.listings ?? listings.items ?? []);
  const listing = rows.find((row) => row.isAvailable !== false && row.providerId);
  if (listing) {
    const rate = Number(listing.pricePerHour ?? listing.hourlyRate);
    const rental = await call('POST', '/api/rentals', {
      gpuListingId: listing.id,
      providerId: listing.providerId,
      durationHours: 1,
      hourlyRate: rate.toFixed(2),
      totalCost: rate.toFixed(2),
    });
    await call('GET', `/api/rentals/user/${me.id}`);
    await call('PATCH', `/api/rentals/${rental.id}/stop`);
  } else {
    console.log('(no listing to rent: the tour skips the rental)');
  }
  for (const url of ['/api/payments/history', '/api/receipts']) await call('GET', url);
  return count;
}

function printProc(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1]);
  const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;
  console.log(
    `  VmRSS ${mib(field('VmRSS'))} (RssAnon ${mib(field('RssAnon'))}, RssFile ${mib(field('RssFile'))}, RssShmem ${mib(field('RssShmem'))}); peak VmHWM ${mib(field('VmHWM'))}`,
  );
}

/**
 * The largest resident mappings (/proc/<pid>/smaps): the embedded database's WebAssembly memory
 * is the one reserved at over 4 GiB (its guard region), V8's heap lies in its own cage.
 */
function printMappings(pid) {
  const mappings = [];
  let current = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = line.match(/^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/);
    if (head) {
      current = {
        size: (Number.parseInt(head[2], 16) - Number.parseInt(head[1], 16)) / 1024,
        name: head[3] || '[anonymous]',
        rss: 0,
      };
      mappings.push(current);
    } else if (current && line.startsWith('Rss:')) {
      current.rss = Number(line.split(/\s+/)[1]);
    }
  }
  const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;
  const top = mappings.sort((a, b) => b.rss - a.rss).slice(0, 10);
  console.log(
    `  largest resident mappings: ${top.map((m) => `${mib(m.rss)} of ${mib(m.size)} ${path.basename(m.name)}`).join('; ')}`,
  );
}

/** The probe (scripts/measure-memory-probe.mjs) writes the process's own figures on SIGUSR2. */
async function printReport() {
  server.kill('SIGUSR2');
  for (let i = 0; i < 600; i++) {
    try {
      const report = JSON.parse(readFileSync(reportFile, 'utf8'));
      const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
      const m = report.memoryUsage;
      console.log(
        `  process.memoryUsage(): rss ${mib(m.rss)}, heapTotal ${mib(m.heapTotal)}, heapUsed ${mib(m.heapUsed)}, external ${mib(m.external)} (of which arrayBuffers ${mib(m.arrayBuffers)})`,
      );
      console.log(
        `  V8 spaces (size/used): ${report.spaces.map((s) => `${s.name} ${mib(s.size)}/${mib(s.used)}`).join(', ')}`,
      );
      if (report.snapshot) console.log(`  heap snapshot: ${report.snapshot}`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  console.log('  (no report from the server process)');
}

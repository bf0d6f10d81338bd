// What a page's first seconds cost the main thread, and why: each page of scripts/measured-pages.mjs
// is opened in Chromium with the CPU slowed 4x (Lighthouse's mobile figure) and, for PROFILE_SECONDS
// (10 unless told), its JavaScript CPU profile is recorded, its React commits counted (a stand-in
// for React DevTools' hook, which production React reports every commit to), its long tasks
// listed and its requests to /api counted. Prints per page: commits, long tasks, API requests by
// path, and the functions with the most self time. Not part of `npm test`; the figures depend on
// the machine's load, so compare pages and runs side by side.
//   node scripts/profile-pages.mjs            (LIGHTHOUSE_PAGES=marketplace,vm-dashboard to narrow)
import { chromium } from '@playwright/test';
import { buildIfStale } from './build-if-stale.mjs';
import { chromiumLaunchOptions } from './chromium.mjs';
import { chosenPages, pageTargets, startServer } from './measured-pages.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const TOP = Number(process.env.PROFILE_TOP ?? 15);

/** Runs in the page before its scripts: counts React commits and records long tasks. */
function instrument() {
  const record = { commits: [], longTasks: [] };
  window.__profile = record;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      const id = this.renderers.size + 1;
      this.renderers.set(id, renderer);
      return id;
    },
    onCommitFiberRoot() {
      record.commits.push(Math.round(performance.now()));
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      record.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
    }
  }).observe({ type: 'longtask', buffered: true });
}

/** Self time (ms) per function of a CPU profile, heaviest first. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const node = byId.get(profile.samples[i]);
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? url.split('/').pop() : '';
    const key = `${functionName || '(anonymous)'} ${file}${file ? `:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + ms);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]);
}

/** The renderer main thread's time by the trace event kinds DevTools shows, heaviest first. */
function mainThreadKinds(events) {
  // The page's renderer main thread: of the threads so named, the one with the most events.
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const count = (t) => events.filter((e) => e.pid === t.pid && e.tid === t.tid).length;
  const main = mains.sort((a, b) => count(b) - count(a))[0];
  const kinds = new Map();
  const KINDS = {
    EvaluateScript: 'script',
    'v8.evaluateModule': 'script',
    FunctionCall: 'script',
    TimerFire: 'script',
    EventDispatch: 'script',
    FireAnimationFrame: 'script',
    RunMicrotasks: 'script',
    'v8.compile': 'compile',
    'v8.compileModule': 'compile',
    UpdateLayoutTree: 'style',
    Layout: 'layout',
    PrePaint: 'paint',
    Paint: 'paint',
    Layerize: 'paint',
    ParseHTML: 'parse',
    ParseAuthorStyleSheet: 'parse',
    MinorGC: 'gc',
    MajorGC: 'gc',
  };
  // Only events not inside another counted one, so that nothing is counted twice.
  const counted = events
    .filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid && KINDS[e.name])
    .sort((a, b) => a.ts - b.ts);
  let end = 0;
  for (const e of counted) {
    if (e.ts < end) continue;
    end = e.ts + (e.dur ?? 0);
    const kind = KINDS[e.name];
    kinds.set(kind, (kinds.get(kind) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...kinds.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, ms]) => `${kind} ${Math.round(ms)}`)
    .join(', ');
}

buildIfStale();
const pages = chosenPages();
const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const targets = await pageTargets(server.base, pages);
  for (const page of pages) {
    const { url, cookie } = targets.get(page);
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    if (cookie) {
      const [name, value] = cookie.split('=');
      await context.addCookies([{ name, value, url: server.base }]);
    }
    await context.addInitScript(instrument);
    const tab = await context.newPage();
    const api = new Map();
    tab.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) api.set(pathname, (api.get(pathname) ?? 0) + 1);
    });
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    await tab.goto(url, { waitUntil: 'load' });
    await tab.waitForTimeout(SECONDS * 1000);
    const { profile } = await cdp.send('Profiler.stop');
    await cdp.send('Tracing.end');
    await traced;
    const record = await tab.evaluate(() => window.__profile);
    const total = selfTimes(profile);
    const busy = total
      .filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)'))
      .reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`\n== ${page.name} (${url.replace(server.base, '')}), ${SECONDS} s at 4x CPU`);
    console.log(`JavaScript and GC: ${Math.round(busy)} ms`);
    console.log(`React commits: ${record.commits.length} at ms ${record.commits.join(', ')}`);
    console.log(
      `long tasks: ${record.longTasks.length}, ${record.longTasks.reduce((s, [, d]) => s + d, 0)} ms: ${record.longTasks.map(([at, d]) => `${d}@${at}`).join(', ')}`,
    );
    console.log(
      `API requests: ${[...api.entries()].map(([p, n]) => `${p} x${n}`).join(', ') || 'none'}`,
    );
    console.log(`main thread by kind (ms): ${mainThreadKinds(events)}`);
    for (const [key, ms] of total.slice(0, TOP))
      console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${key}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

// Screenshots of pages in each theme, at desktop and phone width, for looking at what we
// build: node scripts/screenshots.mjs [baseURL] [outDir] [paths...]. Signs in as demo when
// a path starts with "+".
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';

const [base = 'http://localhost:5000', out = 'test-results/screenshots', ...paths] =
  process.argv.slice(2);
const targets = paths.length ? paths : ['/', '+/'];
mkdirSync(out, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
for (const theme of ['dark', 'light', 'pastel']) {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    const context = await browser.newContext({ viewport });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    for (const target of targets) {
      const signedIn = target.startsWith('+');
      const path = signedIn ? target.slice(1) : target;
      if (signedIn) await page.request.post(`${base}/api/login`);
      await page.goto(base + path);
      await page.waitForLoadState('networkidle');
      if (signedIn) await page.request.patch(`${base}/api/user/theme`, { data: { theme } });
      if (signedIn) await page.reload({ waitUntil: 'networkidle' });
      const name = `${out}/${theme}-${label}${signedIn ? '-signed-in' : ''}${path.replaceAll('/', '_') || '_'}.png`;
      await page.screenshot({ path: name, fullPage: true });
      console.log(name);
    }
    await context.close();
  }
}
await browser.close();

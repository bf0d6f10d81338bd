// The JavaScript a signed-out visitor's browser loads for the landing page, gzipped:
// node scripts/measure-landing-js.mjs [baseURL]
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.mjs';

const base = process.argv[2] ?? 'http://localhost:5000';
const browser = await chromium.launch(chromiumLaunchOptions);
const page = await (await browser.newContext()).newPage();
const scripts = [];
page.on('response', async (res) => {
  if (res.request().resourceType() === 'script')
    scripts.push({ url: res.url(), body: await res.body() });
});
await page.goto(base);
await page.waitForLoadState('networkidle');
await page.getByRole('heading', { level: 1 }).waitFor();
let raw = 0;
let gz = 0;
for (const { url, body } of scripts) {
  const size = gzipSync(body, { level: 9 }).length;
  raw += body.length;
  gz += size;
  console.log(
    `${(size / 1024).toFixed(1).padStart(7)} KB gz  ${(body.length / 1024).toFixed(1).padStart(7)} KB  ${new URL(url).pathname}`,
  );
}
console.log(
  `${(gz / 1024).toFixed(1).padStart(7)} KB gz  ${(raw / 1024).toFixed(1).padStart(7)} KB  total (${scripts.length} files)`,
);
await browser.close();

import type { Browser, Page } from '@playwright/test';
import { PUBLIC_PATHS } from '../web/app/public-paths';
import { SIGNED_IN_PATHS } from '../web/app/signed-in-paths';
import { NONE_IN_ANY_THEME, seriousViolations, seriousViolationsInEveryTheme } from './axe';
import { CONTENT_PAGES } from './content-routes';
import { demoVisitorListings, expect, test } from './fixtures';
import { currentTheme } from './themes';

/**
 * Every route of the app (web/app/public-paths.ts, web/app/signed-in-paths.ts), signed out and
 * signed in as a demo visitor who has a booked rental, an ended one, a stopped VM and a running
 * deploy: no serious or critical axe violation (WCAG 2.1 A and AA) at 1280 px in any theme, and
 * at 390 px none in the theme it opens in and no page wider than the phone (issue 26, part 3).
 * This is the suite's one scan of each page in every theme; the other accessibility specs scan
 * what a plain visit does not show (opened dialogs, menus, tabs, forms with their messages).
 */
test.describe.configure({ timeout: 120_000 });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const BLOG_POST = CONTENT_PAGES[1].path;

/** A route's pattern with its parameters filled in (the compare view with two listings). */
function concrete(pattern: string, vmId: number, compareIds: number[] = []): string {
  if (pattern === '/compare') return `/compare?ids=${compareIds.join(',')}`;
  return pattern
    .replace('/blog/:slug', BLOG_POST)
    .replace(':month', new Date().toISOString().slice(0, 7))
    .replace(':id', String(vmId));
}

/** Waits until the page has settled: its main heading shown, nothing loading, fonts ready. */
async function settle(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** How wide the page is at a 390 px viewport (the phone check of issue 26, part 3). */
async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Prints one line per page and check that e2e runs can be collected into the closing note. */
function report(route: string, what: string, value: unknown) {
  console.log(`every-route ${route} ${what} ${JSON.stringify(value)}`);
}

/** Pages whose tabs each show more: also checked, tab by tab, at 390 px. */
const TABS: Record<string, string[]> = {
  '/profile': ['Account', 'Activity'],
  '/settings': ['Notifications', 'Security', 'API Keys', 'Webhooks', 'Billing'],
};

/**
 * How much of a route is checked: `full`, every theme at 1280 px and axe at 390 px too; `once`,
 * a public page signed in (the same page signed-out visitors get, checked in full there, under
 * the signed-in top bar that every signed-in page checks in full): axe in one theme at 1280 px
 * and the width at 390 px.
 */
type Depth = 'full' | 'once';

async function checkRoute(page: Page, path: string, signedIn: boolean, depth: Depth = 'full') {
  await page.setViewportSize(DESKTOP);
  await page.goto(path);
  await settle(page);
  const found =
    depth === 'full'
      ? await seriousViolationsInEveryTheme(page, { signedIn })
      : {
          [await currentTheme(page)]: await seriousViolations(page, {
            theme: await currentTheme(page),
          }),
        };
  for (const [theme, violations] of Object.entries(found)) {
    report(
      path,
      `axe-${theme}`,
      violations.map((v) => `${v.id}:${v.nodes.length}`),
    );
  }

  await page.setViewportSize(PHONE);
  await page.goto(path);
  await settle(page);
  const width = await pageWidth(page);
  report(path, 'width-390', width);
  const theme = await currentTheme(page);
  const phone = depth === 'full' ? await seriousViolations(page, { theme }) : [];
  report(
    path,
    `axe-390-${theme}`,
    phone.map((v) => `${v.id}:${v.nodes.length}`),
  );

  const tabs: Record<string, { width: number; violations: unknown[] }> = {};
  for (const tab of signedIn ? (TABS[path] ?? []) : []) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForLoadState('networkidle');
    const violations = await seriousViolations(page, { theme });
    tabs[tab] = { width: await pageWidth(page), violations };
    report(`${path}|${tab}`, 'width-390', tabs[tab].width);
    report(`${path}|${tab}`, `axe-390-${theme}`, violations);
  }

  expect(found, `${path} at 1280 px`).toEqual(
    depth === 'full' ? NONE_IN_ANY_THEME : { [Object.keys(found)[0] ?? 'dark']: [] },
  );
  expect(phone, `${path} at 390 px (${theme})`).toEqual([]);
  expect(width, `${path}: the page's width at a 390 px viewport`).toBeLessThanOrEqual(PHONE.width);
  for (const [tab, seen] of Object.entries(tabs)) {
    expect(seen.violations, `${path}, ${tab}, at 390 px`).toEqual([]);
    expect(seen.width, `${path}, ${tab}: the width at 390 px`).toBeLessThanOrEqual(PHONE.width);
  }
}

/** /terms and /privacy only redirect to the legal pages (e2e/content-pages.spec.ts). */
const PAGES = PUBLIC_PATHS.filter((p) => p !== '/terms' && p !== '/privacy');

test.describe('signed out', () => {
  for (const pattern of ['/', ...PAGES]) {
    const path = concrete(pattern, 0);
    test(`${path}, signed out, in every theme and at 390 px`, async ({ page }) => {
      await checkRoute(page, path, false);
    });
  }
});

interface Vm {
  vm_id: number;
  state: string;
}

/**
 * A demo visitor with an API key and one of each kind of instance: a booked rental running,
 * one stopped (history), a VM made and stopped on the VM dashboard, and a deploy running.
 * Returns the session, the VM's id and two of its listings for the compare view.
 */
async function visitorWithInstances(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const { request } = context;
  const headers = { Origin: baseURL };
  const own = await demoVisitorListings(request);
  const key = await request.post('/api/auth/api-keys', {
    headers,
    data: { name: 'Training pipeline on the shared cluster' },
  });
  expect(key.status(), await key.text()).toBe(201);
  // Rented twice from one of its own listings (no other test takes a unit meanwhile); the VM
  // and the deploy take its two A6000s.
  const listing = own.find((l) => l.model !== 'A6000' && l.availableCount > 1);
  if (!listing) throw new Error('no sandbox listing of its own to rent twice');
  const rent = () =>
    request.post('/api/rentals', {
      headers,
      data: {
        gpuListingId: listing.id,
        providerId: listing.providerId,
        durationHours: 2,
        hourlyRate: listing.hourlyRate,
        totalCost: (Number(listing.hourlyRate) * 2).toFixed(2),
      },
    });
  const first = await rent();
  expect(first.status(), await first.text()).toBe(201);
  const ended = await rent();
  expect(ended.status(), await ended.text()).toBe(201);
  const { id: endedId } = (await ended.json()) as { id: number };
  expect((await request.patch(`/api/rentals/${endedId}/stop`, { headers })).ok()).toBeTruthy();

  const made = await request.post('/api/kvm/instances', {
    headers,
    data: { gpu_type: 'A6000' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { vm_id: vmId } = (await made.json()) as Vm;
  const deployed = await request.post('/api/deploy', {
    headers,
    data: { gpu_type: 'A6000', template: 'cuda-dev', storage_gb: 20 },
  });
  expect(deployed.status(), await deployed.text()).toBe(201);
  const vmState = async () => {
    const vms = (await (await request.get('/api/kvm/instances')).json()) as Vm[];
    return vms.find((vm) => vm.vm_id === vmId)?.state;
  };
  await expect.poll(vmState, { timeout: 20_000 }).toBe('running');
  expect((await request.post(`/api/kvm/instances/${vmId}/stop`, { headers })).ok()).toBeTruthy();
  await expect.poll(vmState, { timeout: 20_000 }).toBe('stopped');
  const { cookies } = await context.storageState();
  await context.close();
  return { cookies, vmId, compareIds: own.slice(0, 2).map((l) => l.id) };
}

test.describe('signed in', () => {
  let visitor: Awaited<ReturnType<typeof visitorWithInstances>>;
  test.beforeAll(async ({ browser }, testInfo) => {
    const baseURL = testInfo.project.use.baseURL;
    if (!baseURL) throw new Error('no baseURL');
    visitor = await visitorWithInstances(browser, baseURL);
  });

  for (const pattern of ['/', ...SIGNED_IN_PATHS]) {
    test(`${pattern}, signed in, in every theme and at 390 px`, async ({ page }) => {
      await page.context().addCookies(visitor.cookies);
      await checkRoute(page, concrete(pattern, visitor.vmId, visitor.compareIds), true);
    });
  }
  for (const pattern of PAGES) {
    test(`${pattern}, signed in, once at 1280 px and its width at 390 px`, async ({ page }) => {
      await page.context().addCookies(visitor.cookies);
      await checkRoute(page, concrete(pattern, visitor.vmId), true, 'once');
    });
  }
});

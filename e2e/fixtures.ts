import { readFileSync } from 'node:fs';
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { E2E_SERVER_LOG, TEST_SESSION_SECRET } from '../playwright.config';
import type { RentalView } from '../shared/contracts/rentals';

/** A fresh address per test, so each test makes its own user. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

interface CodeSource {
  subject?: string;
  logPath?: string;
  /** How many codes for the address the log held before this one was asked for. */
  after?: number;
}

function codesInLog(email: string, subject: string, logPath: string): string[] {
  const pattern = new RegExp(
    `To: ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nSubject: ${subject}: (\\d{6})`,
    'g',
  );
  return [...readFileSync(logPath, 'utf8').matchAll(pattern)].map((m) => m[1] ?? '');
}

/** How many sign-in (or, with its subject, e-mail change) codes the log holds for an address. */
export function countCodesInServerLog(email: string, source: CodeSource = {}): number {
  const { subject = 'Your RentGPU sign-in code', logPath = E2E_SERVER_LOG } = source;
  return codesInLog(email, subject, logPath).length;
}

/**
 * Reads the newest sign-in (or, with its subject, e-mail change) code the server printed for
 * an address; with `after`, waits for a code newer than those already there (an address
 * signed into before, such as the seeded admin, has older codes in the log).
 */
export async function readCodeFromServerLog(
  email: string,
  { subject = 'Your RentGPU sign-in code', logPath = E2E_SERVER_LOG, after = 0 }: CodeSource = {},
): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const codes = codesInLog(email, subject, logPath);
    const last = codes.at(-1);
    if (last && codes.length > after) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no new code (${subject}) for ${email} in ${logPath}`);
}

/**
 * Signs an address in the way the API tests' `signIn` does: the e2e server writes the account and
 * its session for a request carrying TEST_SESSION_SECRET (set by playwright.config.ts), with no
 * e-mail round trip. The e-mailed code itself is tested by sign-in.spec.ts and email-change.spec.ts.
 */
export async function signInByApi(request: APIRequestContext, email: string): Promise<void> {
  const signedIn = await request.post('/api/test/session', {
    data: { email },
    headers: { 'x-test-session-secret': TEST_SESSION_SECRET },
  });
  expect(signedIn.status(), `sign-in of ${email}`).toBe(200);
}

/**
 * Signs in as a new demo visitor (POST /api/login on `request`, as Demo Login does): an account
 * of its own with credits and a sandbox provider on the demo host. Returns the user's id.
 */
export async function demoLogin(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/login');
  expect(login.ok(), await login.text()).toBeTruthy();
  const { user } = (await login.json()) as { user: { id: string } };
  return user.id;
}

/**
 * On the sign-in form: asks for a code for `email` and types in the one the server printed
 * (newer than any it printed for the address before). Verify & Sign In is left to the test.
 */
export async function enterEmailedCode(page: Page, email: string): Promise<void> {
  const before = countCodesInServerLog(email);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  await page
    .getByLabel(/6-digit code sent to/)
    .fill(await readCodeFromServerLog(email, { after: before }));
}

export const test = base.extend<{ signedInPage: Page; email: string }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from the pattern.
  email: async ({}, use) => {
    await use(uniqueEmail());
  },
  signedInPage: async ({ page, email }, use) => {
    await signInByApi(page.request, email);
    await use(page);
  },
});

export { expect };

/** Opens the VM dashboard (signed in) and its create form, and returns the form. */
export async function openVmCreateForm(page: Page): Promise<Locator> {
  await page.goto('/vm-dashboard');
  await expect(page.getByRole('heading', { name: 'VM Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  return page.getByRole('form', { name: 'Create New Instance' });
}

/** Each text, matched whole, is visible in `scope`: checked in this order. */
export async function expectTexts(scope: Page | Locator, ...texts: string[]): Promise<void> {
  for (const text of texts) await expect(scope.getByText(text, { exact: true })).toBeVisible();
}

/** Requests to `url` are answered `ms` late, so what the page shows meanwhile can be seen. */
export async function delayAnswers(page: Page, url: string, ms: number): Promise<void> {
  await page.route(url, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/**
 * Requests to `url` wait, as on a slow network, until the returned function is called; then
 * they (and any later ones) go through.
 */
export async function holdAnswers(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** A toast by its title, inside the toast region (Radix also announces it off-screen). */
export function toastWith(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

/** A toast with this title and, inside the toast region, this description (or a part of it). */
export async function expectToast(page: Page, title: string, description: string): Promise<void> {
  await expect(toastWith(page, title)).toBeVisible();
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText(description),
  ).toBeVisible();
}

/**
 * Rents one hour of a listing at its rate through the API (POST /api/rentals), as the rent
 * dialog does; expects 201 and returns the rental.
 */
export async function rentOneHour(
  request: APIRequestContext,
  listing: Pick<Listing, 'id' | 'providerId' | 'hourlyRate'>,
): Promise<RentalView> {
  const res = await request.post('/api/rentals', {
    data: {
      gpuListingId: listing.id,
      providerId: listing.providerId,
      durationHours: 1,
      hourlyRate: listing.hourlyRate,
      totalCost: listing.hourlyRate,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as RentalView;
}

/** What the browser tests read of a marketplace listing (GET /api/gpu-listings). */
export interface Listing {
  id: number;
  providerId: number;
  hourlyRate: string;
  availableCount: number;
  hostStatus: string;
}

/**
 * A demo visitor signs in (POST /api/login on `request`) and gets its own sandbox listings on
 * the demo host: what it may rent without racing another test for a unit (every other demo
 * listing is shared by all tests, and the page that shows a free unit may be a second old).
 */
export async function demoVisitorListings(
  request: APIRequestContext,
): Promise<(Listing & { model: string })[]> {
  return ownDemoListings(request, await demoLogin(request));
}

/** The sandbox listings of the demo visitor `userId`, signed in on `request` (as above). */
export async function ownDemoListings(
  request: APIRequestContext,
  userId: string,
): Promise<(Listing & { model: string })[]> {
  const provider = await request.get(`/api/providers/user/${userId}`);
  expect(provider.ok(), await provider.text()).toBeTruthy();
  const { id } = (await provider.json()) as { id: number };
  const own = await request.get(`/api/gpu-listings?providerId=${id}&limit=100`);
  expect(own.ok(), await own.text()).toBeTruthy();
  return ((await own.json()) as (Listing & { model: string })[]).filter(
    (l) => l.hostStatus === 'demo',
  );
}

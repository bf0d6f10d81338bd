import type { APIRequestContext, Page, Route } from '@playwright/test';
import type { GpuListingView } from '../shared/contracts/listings';
import type { RentalView } from '../shared/contracts/rentals';
import { demoLogin, expect, rentOneHour, signInByApi, test, uniqueEmail } from './fixtures';

/*
 * Each Demo Login makes a demo account of its own with its own 'Demo Compute Co.' (docs/
 * decisions/010-a-demo-account-per-visitor.md), so tests here do not share it. They still make
 * listings at a location of their own and remove them afterwards.
 */

function uniqueLocation(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}, Norway`;
}

async function myProviderId(request: APIRequestContext): Promise<number> {
  const user = (await (await request.get('/api/auth/user')).json()) as { id: string };
  const res = await request.get(`/api/providers/user/${user.id}`);
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { id: number }).id;
}

async function createListingByApi(
  request: APIRequestContext,
  location: string,
): Promise<GpuListingView> {
  const res = await request.post('/api/gpu-listings', {
    data: {
      providerId: await myProviderId(request),
      model: 'RTX 4080',
      memory: '16GB',
      location,
      hourlyRate: '1.20',
      availableCount: 3,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as GpuListingView;
}

async function listingsAt(request: APIRequestContext, location: string) {
  const res = await request.get(`/api/gpu-listings?model=${encodeURIComponent(location)}`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as GpuListingView[];
}

/** The demo provider's own listings, maintenance included (the marketplace search omits those). */
async function myListings(request: APIRequestContext): Promise<GpuListingView[]> {
  const providerId = await myProviderId(request);
  const res = await request.get(`/api/gpu-listings?providerId=${providerId}&limit=100`);
  expect(res.ok()).toBeTruthy();
  return (await res.json()) as GpuListingView[];
}

/**
 * Rents units of the demo provider's own A6000 (2 units, at first both free): a visitor's
 * demo provider is rented by that visitor only (docs/decisions/010-a-demo-account-per-visitor.md).
 */
async function rentOwnA6000(request: APIRequestContext, units: number): Promise<void> {
  const a6000 = (await myListings(request)).find(
    (l) => l.model === 'A6000' && l.location === 'San Francisco, USA',
  );
  if (!a6000) throw new Error('the demo provider has no A6000');
  for (let i = 0; i < units; i += 1) await rentOneHour(request, a6000);
}

async function removeAllAt(request: APIRequestContext, location: string): Promise<void> {
  for (const listing of await myListings(request)) {
    if (listing.location === location) await request.delete(`/api/gpu-listings/${listing.id}`);
  }
}

/** A toast's title or text; exact, so Radix's screen-reader announcement does not also match. */
const toastText = (page: Page, text: string) => page.getByText(text, { exact: true });

const listingItem = (page: Page, text: string) =>
  page.getByTestId('provider-listing').filter({ hasText: text });

/** The demo provider's seeded listings, all in San Francisco (the first one of a model). */
const seededItem = (page: Page, model: string) =>
  listingItem(page, model).filter({ hasText: 'San Francisco, USA' }).first();

test('a provider adds a GPU listing through the dialog and finds it in the marketplace', async ({
  page,
}) => {
  const location = uniqueLocation('Addtown');
  await demoLogin(page.request);
  try {
    await page.goto('/provider');
    await expect(page.getByText('Your demo provider', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Add New GPU Listing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New GPU Listing' });
    await expect(dialog).toBeVisible();

    // The spec's defaults.
    await expect(dialog.getByLabel('Bandwidth')).toHaveValue('1 Gbps');
    await expect(dialog.getByLabel('PCIe Lanes')).toHaveValue('16x');
    await expect(dialog.getByLabel('Cooling')).toHaveValue('Air Cooled');
    await expect(dialog.getByLabel('Available Count')).toHaveValue('1');

    await dialog.getByRole('button', { name: 'Add GPU Listing' }).click();
    await expect(toastText(page, 'Missing Information')).toBeVisible();
    await expect(toastText(page, 'Please fill in all required fields.')).toBeVisible();
    await expect(dialog).toBeVisible();

    await dialog.getByLabel('GPU Model').selectOption('A40');
    await expect(dialog.getByLabel('Memory')).toHaveValue('48GB');
    await expect(dialog.getByLabel('CUDA Cores')).toHaveValue('10752');
    await dialog.getByLabel('Location').fill(location);
    await dialog.getByLabel('Bandwidth').selectOption('25 Gbps');
    await dialog.getByLabel('Hourly Rate (USD)').fill('2.35');
    await expect(dialog.getByTestId('daily-rate')).toHaveText('$56.40');
    await expect(dialog.getByTestId('monthly-rate')).toHaveText('$1,692.00');
    await dialog.getByLabel('Available Count').fill('2');
    await dialog.getByLabel('PCIe Lanes').selectOption('8x');
    await dialog.getByLabel('Power Consumption').fill('310W');
    await dialog.getByLabel('Cooling').selectOption('Liquid Cooled');
    await dialog.getByLabel('Additional Specs').fill('2x AMD EPYC, 256 GB RAM');
    await dialog.getByRole('button', { name: 'Add GPU Listing' }).click();

    await expect(toastText(page, 'GPU Added Successfully!')).toBeVisible();
    // On no host yet it is saved but not in the marketplace, and the toast says so.
    await expect(
      toastText(
        page,
        'Your GPU listing is saved. It appears in the marketplace once its host is connected and ready.',
      ),
    ).toBeVisible();
    await expect(dialog).toBeHidden();
    const item = listingItem(page, location);
    await expect(item).toContainText('A40');
    await expect(item).toContainText('$2.35/hr');
    await expect(item).toContainText('$56.40/day');
    // Listed on no host yet: it says so, and renters cannot take it until a host runs it.
    await expect(item.getByTestId('availability')).toHaveText('No host connected');
    await expect(item.getByTestId('availability')).toHaveClass(/text-muted-foreground/);

    const [listing, ...others] = await listingsAt(page.request, location);
    expect(others).toEqual([]);
    expect(listing).toMatchObject({
      model: 'A40',
      memory: '48GB',
      cudaCores: 10752,
      location,
      bandwidth: '25 Gbps',
      hourlyRate: '2.35',
      dailyRate: '56.40',
      status: 'available',
      availableCount: 2,
      totalCount: 2,
      isDemoHost: false,
      hostStatus: 'none',
      hostId: null,
      provider: { companyName: 'Your demo provider' },
    });
    expect(JSON.parse(listing?.specifications ?? '{}')).toEqual({
      bandwidth: '25 Gbps',
      pcieLanes: '8x',
      powerConsumption: '310W',
      cooling: 'Liquid Cooled',
      additionalSpecs: '2x AMD EPYC, 256 GB RAM',
    });
  } finally {
    await removeAllAt(page.request, location);
  }
});

test('a provider edits a listing’s price and sees the server refuse a total below its rentals', async ({
  page,
}) => {
  const location = uniqueLocation('Edittown');
  await demoLogin(page.request);
  try {
    const created = await createListingByApi(page.request, location);
    await rentOwnA6000(page.request, 2);
    await page.goto('/provider');
    const item = listingItem(page, location);
    await expect(item).toContainText('$1.20/hr');
    await item.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit GPU Listing' });
    await expect(dialog.getByLabel('Hourly Rate (USD)')).toHaveValue('1.20');
    await dialog.getByLabel('Hourly Rate (USD)').fill('3.15');
    await dialog.getByLabel('Status').selectOption('maintenance');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();

    await expect(toastText(page, 'Listing Updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(item).toContainText('$3.15/hr');
    await expect(item).toContainText('$75.60/day');
    await expect(item).toContainText('Maintenance');
    // In maintenance the listing leaves the marketplace; its provider still reads it.
    expect(await listingsAt(page.request, location)).toEqual([]);
    expect((await myListings(page.request)).find((l) => l.id === created.id)).toMatchObject({
      hourlyRate: '3.15',
      dailyRate: '75.60',
      status: 'maintenance',
    });

    // The A6000 rented out above: the server refuses a total below its 2 rentals.
    const rented = seededItem(page, 'A6000');
    await rented.getByRole('button', { name: 'Edit' }).click();
    await expect(dialog.getByText('2 rented right now')).toBeVisible();
    await dialog.getByLabel('Total Count').fill('1');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    const refusal = 'This listing has 2 active rentals; the total count cannot go below that.';
    await expect(dialog.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    await expect(toastText(page, 'Failed to Update Listing')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await removeAllAt(page.request, location);
  }
});

test('a provider removes a listing after confirming; a rented one is refused', async ({ page }) => {
  const location = uniqueLocation('Removeville');
  await demoLogin(page.request);
  try {
    await createListingByApi(page.request, location);
    await rentOwnA6000(page.request, 1);
    await page.goto('/provider');
    const item = listingItem(page, location);
    await item.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove GPU Listing' });
    await expect(dialog).toContainText(location);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(item).toBeVisible();

    await item.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove Listing' }).click();
    await expect(toastText(page, 'Listing Removed')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(item).toHaveCount(0);
    expect(await listingsAt(page.request, location)).toEqual([]);

    // A listing with active rentals stays, and the server says why.
    const rented = seededItem(page, 'A6000');
    await rented.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove Listing' }).click();
    await expect(
      dialog.getByRole('alert').filter({ hasText: 'This listing has active rentals.' }),
    ).toBeVisible();
    await expect(toastText(page, 'Failed to Remove Listing')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rented).toBeVisible();
  } finally {
    await removeAllAt(page.request, location);
  }
});

test('the KVM Agent Setup Guide shows the steps, requirements and configuration', async ({
  page,
  baseURL,
}) => {
  await demoLogin(page.request);
  await page.goto('/provider');
  const item = seededItem(page, 'RTX 4090');
  await item.getByRole('button', { name: 'Setup Guide' }).click();
  const dialog = page.getByRole('dialog', { name: 'KVM Agent Setup Guide' });
  await expect(dialog).toBeVisible();
  const tabs = dialog.getByRole('tab');
  await expect(tabs).toHaveText(['Quick Start', 'Requirements', 'Configuration']);
  await expect(dialog.getByRole('tab', { name: 'Quick Start' })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // The downloads are the server's real routes, as attachments.
  const installer = dialog.getByRole('link', { name: 'Installer script' });
  const agent = dialog.getByRole('link', { name: 'Agent script' });
  await expect(installer).toHaveAttribute('href', '/api/providers/agent/download');
  await expect(agent).toHaveAttribute('href', '/api/providers/agent/download-script');
  for (const href of ['/api/providers/agent/download', '/api/providers/agent/download-script']) {
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-disposition']).toMatch(/^attachment; filename=/);
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
  }
  await expect(dialog).not.toContainText('nothing to download');
  await expect(dialog).toContainText('Add a host first');
  await expect(dialog).toContainText(
    `curl -fsSL -o rentgpu-install.sh '${baseURL}/api/providers/agent/download' && sudo bash rentgpu-install.sh --server '${baseURL}' --allow-http --token-stdin <<< '<token>'`,
  );

  await dialog.getByRole('tab', { name: 'Requirements' }).click();
  const requirements = dialog.getByRole('tabpanel');
  for (const text of [
    'Ubuntu 22.04+',
    'kernel 5.15+',
    '32GB RAM minimum',
    '500GB+ SSD',
    '1 Gbps',
    'ports 22 and 5900-5999',
  ]) {
    await expect(requirements).toContainText(text);
  }

  await dialog.getByRole('tab', { name: 'Configuration' }).click();
  const config = dialog.getByRole('tabpanel');
  await expect(config).toContainText(`Server URLRENTGPU_SERVER_URL${baseURL}`);
  await expect(config).toContainText(`${baseURL}/api/v1/agents`);
  await expect(config).toContainText('Heartbeat intervalAGENT_HEARTBEAT_INTERVAL_MS30 s');
  await expect(config).toContainText('Update intervalAGENT_UPDATE_INTERVAL_MS60 s');
  await expect(config).toContainText('AGENT_ENROLL_TOKEN');
  await expect(config).toContainText('/var/lib/rentgpu-agent');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a signed-in user without a provider profile is invited to apply', async ({ page }) => {
  await signInByApi(page.request, uniqueEmail('not-provider'));
  await page.goto('/provider');
  await expect(page.getByRole('heading', { name: 'Provider Dashboard', level: 1 })).toBeVisible();
  const apply = page.getByRole('main').getByRole('link', { name: 'Apply to become a provider' });
  await expect(apply).toHaveAttribute('href', '/provider-signup');
  await expect(page.getByRole('button', { name: 'Add New GPU Listing' })).toHaveCount(0);
  await apply.click();
  await expect(page).toHaveURL(/\/provider-signup$/);
});

// ---------------------------------------------------------------------------------------
// What the page makes of given answers: stats, labels, pages of listings, errors. The
// answers are fixed here, so the figures do not move with the seeded data.

const PROVIDER = {
  id: 424242,
  userId: null,
  companyName: 'Fixture GPUs Ltd.',
  location: 'Oslo, Norway',
  isVerified: true,
  reputation: '4.9',
  createdAt: '2025-01-01T00:00:00.000Z',
};

function fixtureListing(id: number, over: Partial<GpuListingView>): GpuListingView {
  return {
    id,
    providerId: PROVIDER.id,
    model: 'RTX 4090',
    memory: '24GB',
    cudaCores: 16384,
    tensorCores: 512,
    location: 'Oslo, Norway',
    bandwidth: '10 Gbps',
    hourlyRate: '1.00',
    dailyRate: '24.00',
    status: 'available',
    availableCount: 5,
    totalCount: 5,
    specifications: '{}',
    isDemoHost: false,
    hostStatus: 'online',
    hostId: null,
    kinds: ['vm', 'container'],
    hostUptimePercent: null,
    gpuShare: null,
    gpuCount: 1,
    gpuMemoryGb: 24,
    pricePerGpuHour: '1.00',
    diskGb: null,
    driverVersion: null,
    cudaVersion: null,
    reliability: { uptimePercent: null, windowDays: 30, observedDays: 0 },
    provider: {
      id: PROVIDER.id,
      companyName: PROVIDER.companyName,
      location: PROVIDER.location,
      isVerified: true,
      reputation: '4.9',
    },
    ...over,
  };
}

function fixtureRental(id: number, over: Partial<RentalView>): RentalView {
  const start = new Date(Date.now() - (2 * 60 + 5) * 60_000).toISOString();
  return {
    id,
    gpuListingId: 1,
    providerId: PROVIDER.id,
    durationHours: 10,
    hourlyRate: '1.00',
    totalCost: '10.00',
    storageFee: '2.50',
    status: 'active',
    phase: 'ready',
    computeChargeNote: null,
    state: 'running',
    provisioningStep: null,
    startTime: start,
    endsAt: start,
    endTime: null,
    readyAt: start,
    provisioningDeadline: start,
    sshHost: null,
    sshPort: null,
    sshUsername: 'ubuntu',
    sshHostKeyFingerprint: null,
    webConsole: null,
    usedCost: null,
    refund: null,
    providerEarnings: null,
    billingPlan: 'booked',
    earnings: null,
    settledBy: null,
    isDemoHost: false,
    gpuListing: { model: 'RTX 4090', location: 'Oslo, Norway' },
    provider: { companyName: PROVIDER.companyName },
    ...over,
  };
}

const json = (route: Route, body: unknown, headers: Record<string, string> = {}) =>
  route.fulfill({
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(body),
    headers,
  });

async function serveFixtureProvider(page: Page, rentals: RentalView[] | 'fail') {
  await page.route('**/api/providers/user/*', (route) => json(route, PROVIDER));
  const mine = (url: URL) =>
    url.pathname === '/api/gpu-listings' && url.searchParams.get('providerId') === `${PROVIDER.id}`;
  await page.route(mine, (route) => {
    const second = new URL(route.request().url()).searchParams.get('cursor') === 'page-2';
    return second
      ? json(route, [
          fixtureListing(3, {
            model: 'H100',
            memory: '80GB',
            status: 'maintenance',
            availableCount: 2,
            totalCount: 2,
          }),
        ])
      : json(
          route,
          [
            fixtureListing(1, { availableCount: 3, totalCount: 4, isDemoHost: true }),
            fixtureListing(2, { model: 'A6000', memory: '48GB', availableCount: 0, totalCount: 2 }),
          ],
          { 'x-next-cursor': 'page-2' },
        );
  });
  await page.route(`**/api/rentals/provider/${PROVIDER.id}`, (route) =>
    rentals === 'fail'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'INTERNAL', message: 'Something broke.' } }),
        })
      : json(route, rentals),
  );
}

test('stats, labels and every page of listings come from the provider’s data', async ({ page }) => {
  await signInByApi(page.request, uniqueEmail('fixture-provider'));
  await serveFixtureProvider(page, [
    fixtureRental(1, {}),
    fixtureRental(2, { phase: 'provisioning', readyAt: null }),
    fixtureRental(3, {
      status: 'completed',
      phase: 'ended',
      endTime: new Date().toISOString(),
      providerEarnings: '12.34',
    }),
    fixtureRental(4, {
      status: 'completed',
      phase: 'ended',
      endTime: new Date().toISOString(),
      providerEarnings: '7.66',
    }),
  ]);
  await page.goto('/provider');

  // The first paragraph of a stats card is its figure.
  const stat = (name: string) => page.getByTestId(`stat-${name}`).locator('p').first();
  await expect(stat('total-gpus')).toHaveText('8');
  // The H100 in maintenance has 2 free units, but they cannot be rented.
  await expect(stat('available')).toHaveText('3');
  await expect(stat('active-rentals')).toHaveText('2');
  await expect(stat('total-revenue')).toHaveText('$20.00');

  const items = page.getByTestId('provider-listing');
  await expect(items).toHaveCount(3);
  const first = items.filter({ hasText: 'RTX 4090' });
  await expect(first.getByTestId('availability')).toHaveText('Available');
  await expect(first.getByTestId('availability')).toHaveClass(/text-success-text/);
  await expect(first).toContainText('Demo host');
  const rented = items.filter({ hasText: 'A6000' });
  await expect(rented.getByTestId('availability')).toHaveText('Rented');
  await expect(rented.getByTestId('availability')).toHaveClass(/text-warning-text/);
  await expect(items.filter({ hasText: 'H100' })).toContainText('Maintenance');

  const active = page.getByTestId('provider-rental');
  await expect(active).toHaveCount(2);
  await expect(active.nth(0)).toContainText('Running');
  await expect(active.nth(0)).toContainText('2h 5m');
  await expect(active.nth(0)).toContainText('$1.00/hr');
  await expect(active.nth(1)).toContainText('Provisioning');
  await expect(page.getByText('Ended rentals and earnings')).toBeVisible();
  await expect(page.getByText('$12.34')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a failed load is shown with the server’s reason and a retry', async ({ page }) => {
  await signInByApi(page.request, uniqueEmail('fixture-failure'));
  await serveFixtureProvider(page, 'fail');
  await page.goto('/provider');
  const alert = page.getByRole('alert').filter({ hasText: 'Could not load your rentals.' });
  await expect(alert).toContainText('Something broke.');
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(page.getByTestId('provider-listing')).toHaveCount(3);
});

test('the dashboard and its dialogs fit a 390 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await demoLogin(page.request);
  await page.goto('/provider');
  await expect(page.getByTestId('provider-listing').first()).toBeVisible();
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Add New GPU Listing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New GPU Listing' });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 999) <= 390).toBe(true);
  expect(await overflow()).toBeLessThanOrEqual(0);
});

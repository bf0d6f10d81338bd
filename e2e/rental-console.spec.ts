import type { Page } from '@playwright/test';
import { demoVisitorListings, expect, rentOneHour, test, toastWith } from './fixtures';

/**
 * The web console of a booked rental, and the console page at any width. The e2e world has
 * only the demo host (no machine behind it): the rental's console is seen answered by the
 * server as a VM's on the demo host is (e2e/web-console.spec.ts); the session itself, on a
 * real SSH server, is server/modules/instances/console/rental-console.test.ts.
 */

const DEMO_HOST_NO_CONSOLE =
  'Disconnected: There is no console here: this instance runs on a demo host, a simulation for trying RentGPU with no machine behind it. Instances on a real provider’s host have a web console.';

/** The page scrolls sideways: its content is wider than the window. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test('a rental rented in the marketplace opens the web console from My Dashboard, as a VM does', async ({
  page,
}) => {
  // Sign-in, a rent, a second tab and a stop: more steps than most tests.
  test.slow();
  await page.goto('/');
  await page.getByRole('button', { name: 'Demo Login' }).click();
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  // The visitor's own sandbox listings: free units no other test takes.
  await page.getByRole('searchbox', { name: /Search GPUs/ }).fill('Your demo provider');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const card = page.getByRole('group', { name: /from Your demo provider$/ }).first();
  await card.getByRole('button', { name: 'Rent Now' }).click();
  const dialog = page.getByRole('dialog', { name: /^Rent / });
  await dialog.getByLabel('Duration (hours)').fill('1');
  await dialog.getByRole('button', { name: 'Confirm Rental' }).click();
  await expect(toastWith(page, 'GPU Rented Successfully!')).toBeVisible();

  await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
  const rental = page.getByTestId('active-rental').first();
  // The demo host makes it ready after 1.5 s; then it has the VM cards' console link.
  await expect(rental.getByTestId('ssh-host')).toBeVisible({ timeout: 15_000 });
  const link = rental.getByRole('link', { name: 'Open Web Console' });
  await expect(link).toHaveAttribute('href', /^\/vm-dashboard\/console\/\d+$/);
  const id = (await link.getAttribute('href'))?.split('/').at(-1);

  const [consolePage] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(consolePage.getByRole('heading', { name: 'Web Console', level: 1 })).toBeVisible();
  await expect(consolePage.getByText(`Instance #${id}`)).toBeVisible();
  await expect(consolePage.getByTestId('console-terminal').locator('.xterm')).toBeVisible();
  // The server took it as the renter's running instance: its answer is the demo host's, not
  // "not found" nor "no web console key".
  await expect(consolePage.getByTestId('console-state')).toHaveText(DEMO_HOST_NO_CONSOLE);

  // Once the rental ends, its card (now a history line) offers no console.
  await rental.getByRole('button', { name: 'Stop' }).click();
  await page
    .getByRole('dialog', { name: 'Stop instance' })
    .getByRole('button', { name: 'Stop Instance' })
    .click();
  await expect(toastWith(page, 'Instance Stopped')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open Web Console' })).toHaveCount(0);
  await consolePage.getByRole('button', { name: 'Reconnect' }).click();
  await expect(consolePage.getByTestId('console-state')).toHaveText(
    /^Disconnected: The instance is (terminating|terminated), not running\.$/,
  );
});

test('the console opened wide follows the window down to a phone: no sideways scroll', async ({
  page,
}) => {
  const listings = await demoVisitorListings(page.request);
  const listing = listings.find((l) => l.availableCount > 0);
  if (!listing) throw new Error('no sandbox listing of its own to rent');
  const { id } = await rentOneHour(page.request, listing);

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/vm-dashboard/console/${id}`);
  const terminal = page.getByTestId('console-terminal');
  const screen = terminal.locator('.xterm-screen');
  await expect(screen).toBeVisible();
  // Wide: the terminal takes the page's width (well beyond a phone's).
  await expect.poll(async () => (await screen.boundingBox())?.width ?? 0).toBeGreaterThan(1000);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(async () => (await terminal.boundingBox())?.width ?? Infinity)
    .toBeLessThanOrEqual(390);
  await expect
    .poll(async () => (await screen.boundingBox())?.width ?? Infinity)
    .toBeLessThanOrEqual(390);
  expect(await scrollsSideways(page), 'the page scrolls sideways at 390 px').toBe(false);

  // And back: it grows with the window again.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(async () => (await screen.boundingBox())?.width ?? 0).toBeGreaterThan(1000);
  expect(await scrollsSideways(page)).toBe(false);
});

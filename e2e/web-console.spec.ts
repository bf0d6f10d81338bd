import type { Page } from '@playwright/test';
import { demoVisitorListings, expect, rentOneHour, test } from './fixtures';

/**
 * The web console page (opened from the VM dashboard). The e2e world has no real VM, so it
 * is seen refusing with the server's reason; the terminal itself is tested against a real
 * SSH server in server/modules/instances/console.test.ts.
 */
/**
 * A demo visitor's rental on the demo host, rented and stopped through the API, once its
 * instance is terminated: the stop ends the rental at once, the demo host's next pass (the
 * worker, every second) converges it. Returns its id.
 */
async function terminatedRental(page: Page): Promise<number> {
  // A demo visitor's account: credits and sandbox listings of its own on the demo host.
  const listings = await demoVisitorListings(page.request);
  const listing = listings.find((l) => l.availableCount > 0);
  if (!listing) throw new Error('no sandbox listing of its own to rent');
  const { id } = await rentOneHour(page.request, listing);
  expect((await page.request.patch(`/api/rentals/${id}/stop`)).ok()).toBeTruthy();
  await expect(async () => {
    const res = await page.request.get(`/api/kvm/instances/${id}/console`);
    expect(res.status()).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'The instance is terminated, not running.',
    );
  }).toPass({ timeout: 15_000 });
  return id;
}

test('the console of an instance that is not running shows the terminal and why it is disconnected', async ({
  page,
}) => {
  const id = await terminatedRental(page);
  await page.goto(`/vm-dashboard/console/${id}`);
  await expect(page.getByRole('heading', { name: 'Web Console', level: 1 })).toBeVisible();
  await expect(page.getByText(`Instance #${id}`)).toBeVisible();
  await expect(page).toHaveTitle('Web Console · RentGPU');
  // The terminal is there (xterm's input), filling the page's width.
  await expect(page.getByTestId('console-terminal').locator('.xterm')).toBeVisible();
  const state = page.getByTestId('console-state');
  await expect(state).toHaveText('Disconnected: The instance is terminated, not running.');

  // Reconnect asks again and lands on the same reason.
  const asked = page.waitForResponse(
    (res) => res.url().endsWith(`/api/kvm/instances/${id}/console`) && res.status() === 409,
  );
  await page.getByRole('button', { name: 'Reconnect' }).click();
  await asked;
  await expect(state).toHaveText('Disconnected: The instance is terminated, not running.');
});

test('a console refused while the instance is on its way somewhere asks again by itself', async ({
  page,
}) => {
  const id = await terminatedRental(page);
  const path = `/api/kvm/instances/${id}/console`;

  // The page's first ask finds it terminating (the server's own answer, as it reads before the
  // demo host's pass); every later ask reaches the server.
  const real = await page.request.get(path);
  const body = (await real.json()) as { error: { message: string; details: { state: string } } };
  const terminating = {
    ...body,
    error: {
      ...body.error,
      message: 'The instance is terminating, not running.',
      details: { ...body.error.details, state: 'terminating' },
    },
  };
  let asked = 0;
  await page.route(`**${path}`, async (route) => {
    asked += 1;
    if (asked === 1) await route.fulfill({ status: 409, json: terminating });
    else await route.continue();
  });
  await page.goto(`/vm-dashboard/console/${id}`);
  const state = page.getByTestId('console-state');
  await expect(state).toHaveText('Disconnected: The instance is terminating, not running.');
  // No Reconnect: the page asks again and shows where the instance ended, then stops asking.
  await expect(state).toHaveText('Disconnected: The instance is terminated, not running.', {
    timeout: 10_000,
  });
  const settled = asked;
  await page.waitForTimeout(4_000);
  expect(asked, 'asks after an ended state').toBe(settled);
});

test("someone else's or an unknown instance is not found; a malformed id is the 404 page", async ({
  signedInPage: page,
}) => {
  await page.goto('/vm-dashboard/console/2147483647');
  await expect(page.getByTestId('console-state')).toHaveText('Disconnected: Instance not found.');
  await page.goto('/vm-dashboard/console/abc');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

test('the console of a running instance on a demo host says there is no console there', async ({
  page,
}) => {
  expect((await page.request.post('/api/login')).ok()).toBeTruthy();
  const made = await page.request.post('/api/kvm/instances', { data: { gpu_type: 'A6000' } });
  expect(made.status()).toBe(201);
  const { vm_id: id } = (await made.json()) as { vm_id: number };
  // The demo host makes it ready after 1.5 s.
  await expect(async () => {
    const vms = (await (await page.request.get('/api/kvm/instances')).json()) as {
      vm_id: number;
      status: string;
    }[];
    expect(vms.find((v) => v.vm_id === id)?.status).toBe('running');
  }).toPass({ timeout: 15_000 });

  await page.goto(`/vm-dashboard/console/${id}`);
  const state = page.getByTestId('console-state');
  await expect(state).toHaveText(
    'Disconnected: There is no console here: this instance runs on a demo host, a simulation for trying RentGPU with no machine behind it. Instances on a real provider’s host have a web console.',
  );
  await expect(page.locator('body')).not.toContainText(/ENOTFOUND|ECONNREFUSED|getaddrinfo/);
});

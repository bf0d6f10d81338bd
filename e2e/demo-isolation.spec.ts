import type { Browser, Page } from '@playwright/test';
import { expect, test, toastWith } from './fixtures';

/** A visitor of their own: a fresh browser context that presses Demo Login. */
async function demoVisitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Demo Login' }).click();
  // Demo Login makes the account, then the page reloads: allow a slow machine.
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByTestId('credit-balance')).toHaveText('$100.00');
  return page;
}

test('two Demo Login visitors each get an account of their own and never see each other', async ({
  browser,
}) => {
  test.setTimeout(90_000); // two browsers, each signing in and loading the app
  const first = await demoVisitor(browser);
  const second = await demoVisitor(browser);
  try {
    // The first visitor renames themselves.
    await first.goto('/profile');
    await first.getByRole('button', { name: 'Edit' }).click();
    await first.getByLabel('First Name').fill('Grace');
    await first.getByLabel('Last Name').fill('Hopper');
    await first.getByRole('button', { name: 'Save Changes' }).click();
    await expect(first.getByText('Profile Updated', { exact: true })).toBeVisible();
    await expect(
      first.getByRole('button', { name: 'Account menu for Grace Hopper' }),
    ).toBeVisible();

    // ... and rents a GPU of their own demo provider, which only they see.
    await first.goto('/');
    await first.getByRole('searchbox', { name: /Search GPUs/ }).fill('RTX 3090');
    await first.getByRole('button', { name: 'Apply Filters' }).click();
    const card = first
      // Beside the public seeded "Demo Compute Co.", the visitor's own says it is theirs.
      .getByRole('group', { name: 'RTX 3090 from Your demo provider' });
    await card.getByRole('button', { name: 'Rent Now' }).click();
    const dialog = first.getByRole('dialog', { name: 'Rent RTX 3090' });
    await dialog.getByLabel('Duration (hours)').fill('2');
    await dialog.getByRole('button', { name: 'Confirm Rental' }).click();
    await expect(toastWith(first, 'GPU Rented Successfully!')).toBeVisible();
    // 2 h at $0.85 and the $2.50 storage add-on.
    await expect(first.getByTestId('credit-balance')).toHaveText('$95.80');

    // The second visitor still is "Demo User" with the whole $100.00 and no rentals.
    await second.reload();
    await expect(second.getByTestId('credit-balance')).toHaveText('$100.00');
    await expect(second.getByRole('button', { name: 'Account menu for Demo User' })).toBeVisible();
    await second.goto('/dashboard');
    await expect(second.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    await expect(second.getByTestId('active-rental')).toHaveCount(0);
    await second.goto('/profile');
    await expect(second.getByRole('heading', { name: 'Demo User' })).toBeVisible();
    await expect(second.getByText('Grace Hopper')).toHaveCount(0);
  } finally {
    await first.context().close();
    await second.context().close();
  }
});

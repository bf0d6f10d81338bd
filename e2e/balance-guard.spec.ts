import type { Locator, Page } from '@playwright/test';
import { seriousViolations, type Theme } from './axe';
import { expect as baseExpect, demoLogin, type Listing, openVmCreateForm, test } from './fixtures';
import { transitionsEnded } from './themes';

// Walks through the marketplace, Add Credits and back: waits get more room than usual.
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * No overrun (issue 42, part 3): the rent dialog, Create Instance and Instant Deploy show the
 * balance beside the total, and a total the balance cannot pay disables the button with the
 * reason as its description and an Add Credits that comes back to the same dialog. This spec
 * runs on the server with the built-in PayPal sandbox (playwright.config.ts), so a purchase
 * is the one a newcomer makes.
 */

const confirmButton = (dialog: Locator) => dialog.getByRole('button', { name: 'Confirm Rental' });

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/balance-guard-${name}.png` });
}

/** No wider than the window; axe finds nothing serious in any theme; pictures in light and dark. */
async function lookAt(page: Page, name: string, include: string) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
  // The theme is the root's class (the theme menu is behind an open dialog): set in place.
  const themes: Theme[] = ['dark', 'light', 'pastel'];
  for (const theme of themes) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('dark', 'light', 'pastel');
      document.documentElement.classList.add(t);
    }, theme);
    await transitionsEnded(page);
    expect(await seriousViolations(page, { theme, include }), `${name} ${theme}`).toEqual([]);
    if (theme === 'pastel') continue;
    await page.screenshot({
      path: `test-results/screens/balance-guard-${name}-${width}-${theme}.png`,
      fullPage: true,
    });
  }
}

test('a $0.00 account cannot confirm a rental; Add Credits buys credits and comes back to the same dialog', async ({
  signedInPage: page,
}) => {
  // A purchase and two pages: a long walk, so three times the usual budget.
  test.slow();
  await page.goto('/marketplace');
  await expect(page.getByTestId('credit-balance')).toHaveText('$0.00');
  const rentNow = page.getByRole('button', { name: 'Rent Now' }).and(page.locator(':enabled'));
  await rentNow.first().click();
  const dialog = page.getByRole('dialog', { name: /^Rent / });
  await expect(dialog).toBeVisible();
  const title = (await dialog.getByRole('heading').first().textContent()) ?? '';
  await dialog.getByLabel('Duration (hours)').fill('3');
  const total = dialog.getByTestId('rent-total');
  await expect(total).toHaveText(/^\$\d+\.\d\d$/);
  const totalText = (await total.textContent()) ?? '';
  await expect(dialog.getByTestId('launch-balance')).toHaveText('$0.00');
  const reason = `Your balance of $0.00 does not cover this total of ${totalText}. Add at least ${totalText} in credits to rent it.`;
  await expect(dialog.getByText(reason, { exact: true })).toBeVisible();
  await expect(confirmButton(dialog)).toBeDisabled();
  await expect(confirmButton(dialog)).toHaveAccessibleDescription(reason);
  // The spec's notice is still there beside it.
  await expect(dialog).toContainText(
    'Provisioning takes 2-3 minutes and billing starts immediately.',
  );
  await screenshot(page, 'rent-refused');

  await dialog.getByRole('link', { name: 'Add Credits' }).click();
  await expect(page).toHaveURL(/\/payments\?return=/);
  await expect(page.getByTestId('payments-return')).toContainText(
    'Once your payment is complete, you go back to where you were',
  );
  const sandbox = page.getByTestId('paypal-sandbox');
  await sandbox.getByRole('button', { name: 'Pay with PayPal Sandbox' }).click();
  const checkout = page.getByRole('dialog', {
    name: 'Sandbox checkout — no real money is charged',
  });
  // The default Standard package: $50.00 in sandbox money and a $7.00 bonus.
  await expect(checkout).toContainText('Credits added$57.00');
  await checkout.getByRole('button', { name: 'Approve' }).click();
  // (Its 'Payment Successful' toast shows behind the reopened dialog, which hides the rest of
  // the page from assistive technology while it is open.)

  // Back on the marketplace, in the same dialog with the same hours, and now it can be paid.
  await expect(page).toHaveURL(/\/marketplace$/);
  const back = page.getByRole('dialog', { name: title });
  await expect(back).toBeVisible();
  await expect(back.getByLabel('Duration (hours)')).toHaveValue('3');
  await expect(back.getByTestId('rent-total')).toHaveText(totalText);
  await expect(back.getByTestId('launch-balance')).toHaveText('$57.00');
  await expect(back.getByTestId('launch-refusal')).toHaveCount(0);
  await expect(confirmButton(back)).toBeEnabled();
  await screenshot(page, 'rent-after-credits');
});

test('the demo account’s $100 cannot rent 24 hours of a GPU dearer than that', async ({ page }) => {
  await demoLogin(page.request);
  const res = await page.request.get('/api/gpu-listings?sort=price-desc&limit=100');
  expect(res.ok(), await res.text()).toBeTruthy();
  const listings = (await res.json()) as (Listing & { model: string; status: string })[];
  const dear = listings.find(
    (l) =>
      Number(l.hourlyRate) * 24 + 2.5 > 100 &&
      Number(l.hourlyRate) + 2.5 <= 100 &&
      l.status === 'available' &&
      l.availableCount > 0 &&
      !['offline', 'none', 'not_ready'].includes(l.hostStatus),
  );
  if (!dear) throw new Error('no rentable listing dearer than $100 a day');
  // The dialog opens from the address, as Add Credits comes back to it.
  await page.goto(`/marketplace?rent=${dear.id}&hours=24`);
  const dialog = page.getByRole('dialog', { name: `Rent ${dear.model}` });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/marketplace$/);
  await expect(dialog.getByLabel('Duration (hours)')).toHaveValue('24');
  await expect(dialog.getByTestId('launch-balance')).toHaveText('$100.00');
  const total = (Number(dear.hourlyRate) * 24 + 2.5).toFixed(2);
  await expect(dialog.getByTestId('rent-total')).toHaveText(`$${total}`);
  await expect(confirmButton(dialog)).toBeDisabled();
  await expect(confirmButton(dialog)).toHaveAccessibleDescription(
    new RegExp(
      `^Your balance of \\$100\\.00 does not cover this total of \\$${total.replace('.', '\\.')}\\.`,
    ),
  );
  // One hour fits: the button comes back.
  await dialog.getByLabel('Duration (hours)').fill('1');
  await expect(confirmButton(dialog)).toBeEnabled();
  await expect(dialog.getByTestId('launch-refusal')).toHaveCount(0);
});

test('Create Instance refuses a $0.00 account its first hour, with the reason', async ({
  signedInPage: page,
}) => {
  const form = await openVmCreateForm(page);
  const firstHour = form.getByTestId('vm-first-hour');
  await expect(firstHour).toHaveText(/^\$\d+\.\d\d$/);
  const hour = (await firstHour.textContent()) ?? '';
  await expect(form.getByTestId('launch-balance')).toHaveText('$0.00');
  const button = form.getByRole('button', { name: 'Create Instance' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(
    `Your balance of $0.00 does not cover the first hour (${hour}): a pay-as-you-go instance starts only when your balance holds its first hour. Add at least ${hour} in credits to launch it.`,
  );
  // Add Credits carries the form's choices back to the dashboard.
  const href = (await form.getByRole('link', { name: 'Add Credits' }).getAttribute('href')) ?? '';
  const back = new URL(href, 'http://x').searchParams.get('return') ?? '';
  expect(back).toMatch(/^\/vm-dashboard\?create=/);
  await page.goto(back);
  const reopened = page.getByRole('form', { name: 'Create New Instance' });
  await expect(reopened).toBeVisible();
  await expect(reopened.getByTestId('vm-first-hour')).toHaveText(hour);
  await expect(page).toHaveURL(/\/vm-dashboard$/);
  await screenshot(page, 'create-refused');
});

test('Instant Deploy refuses a $0.00 account its first hour, with the reason', async ({
  signedInPage: page,
}) => {
  await page.goto('/deploy');
  await expect(page.getByRole('heading', { name: 'Instant GPU Deployment' })).toBeVisible();
  await page.getByTestId('template-card').first().click();
  const gpu = page.getByTestId('gpu-option').and(page.locator(':not([aria-disabled="true"])'));
  await gpu.first().click();
  await expect(page.getByTestId('launch-balance')).toHaveText('$0.00');
  const button = page.getByRole('button', { name: 'Deploy Instantly' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(
    /^Your balance of \$0\.00 does not cover the first hour \(\$\d+\.\d\d\): a pay-as-you-go instance starts only when your balance holds its first hour\./,
  );
  const refusal = page.getByTestId('launch-refusal');
  const href =
    (await refusal.getByRole('link', { name: 'Add Credits' }).getAttribute('href')) ?? '';
  const back = new URL(href, 'http://x').searchParams.get('return') ?? '';
  expect(back).toMatch(/^\/deploy\?kind=vm&storage=50&template=[\w.-]+&gpu=/);
  await screenshot(page, 'deploy-refused');
});

test('the refusals fit a phone and a wide screen, with no serious axe violations in any theme', async ({
  signedInPage: page,
}) => {
  // Three screens, two widths, three axe scans and two pictures each: five minutes at most.
  test.setTimeout(300_000);
  const res = await page.request.get('/api/gpu-listings?limit=100');
  const listing = ((await res.json()) as (Listing & { status: string })[]).find(
    (l) => l.status === 'available' && l.availableCount > 0 && l.hostStatus !== 'offline',
  );
  if (!listing) throw new Error('no rentable listing');
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/marketplace?rent=${listing.id}&hours=3`);
    await expect(page.getByRole('dialog').getByTestId('launch-refusal')).toBeVisible();
    await lookAt(page, 'rent', '[role="dialog"]');
    await page.keyboard.press('Escape');
    const form = await openVmCreateForm(page);
    await expect(form.getByTestId('launch-refusal')).toBeVisible();
    await lookAt(page, 'create', 'form[aria-label="Create New Instance"]');
    await page.goto('/deploy');
    await page.getByTestId('template-card').first().click();
    await page.getByTestId('gpu-option').first().click();
    await expect(page.getByTestId('launch-refusal')).toBeVisible();
    await lookAt(page, 'deploy', '[aria-labelledby="deploy-config-heading"]');
  }
});

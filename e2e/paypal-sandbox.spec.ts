import { E2E_SANDBOX_SERVER_LOG } from '../playwright.config';
import { seriousViolations } from './axe';
import {
  expect as baseExpect,
  readCodeFromServerLog,
  test,
  toastWith,
  uniqueEmail,
} from './fixtures';

// Long walks through several pages on a second server: waits get more room than usual.
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * A newcomer's machine: no PayPal credentials, not production. This project's server
 * (scripts/e2e-server.mjs with E2E_PAYPAL=local-sandbox) runs the built-in PayPal sandbox, so
 * Add Credits creates the order at the in-process Orders v2 stand-in, the buyer approves it
 * in the app's sandbox checkout, and the capture credits the wallet through the ledger.
 */
test('a new e-mail user adds sandbox credits from $0.00 and rents a GPU', async ({ page }) => {
  // Sign-in, a purchase and a rental: a long walk, so three times the usual budget.
  test.slow();
  const email = uniqueEmail('sandbox');
  await page.goto('/');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'OTP sent to' })).toBeVisible();
  await page
    .getByLabel(/6-digit code sent to/)
    .fill(await readCodeFromServerLog(email, { logPath: E2E_SANDBOX_SERVER_LOG }));
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('$0.00');

  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Add Credits', level: 1 })).toBeVisible();
  await expect(page.getByTestId('payments-balance')).toHaveText('$0.00');
  const sandbox = page.getByTestId('paypal-sandbox');
  await expect(sandbox).toContainText('PayPal Sandbox');
  await expect(sandbox).toContainText('No real money is charged');
  // No PayPal script is loaded: the sandbox needs nothing from paypal.com.
  await expect(page.locator('script[src*="paypal"]')).toHaveCount(0);

  // Cancelling the sandbox checkout changes nothing.
  await sandbox.getByRole('button', { name: 'Pay with PayPal Sandbox' }).click();
  const checkout = page.getByRole('dialog', {
    name: 'Sandbox checkout — no real money is charged',
  });
  await expect(checkout).toBeVisible();
  await checkout.getByRole('button', { name: 'Cancel' }).click();
  await expect(toastWith(page, 'Payment Cancelled')).toBeVisible();
  await expect(checkout).toBeHidden();
  await expect(page.getByTestId('payments-balance')).toHaveText('$0.00');

  // The default Standard package: $50.00 paid in sandbox money, $7.00 bonus.
  await sandbox.getByRole('button', { name: 'Pay with PayPal Sandbox' }).click();
  await expect(checkout).toContainText('Standard package');
  await expect(checkout).toContainText('Credits added$57.00');
  await expect(checkout).toContainText('Real money charged$0.00');
  await checkout.getByRole('button', { name: 'Approve' }).click();
  await expect(toastWith(page, 'Payment Successful')).toBeVisible();
  await expect(
    page.getByText('$57.00 in credits added to your account.', { exact: true }),
  ).toBeVisible();
  await expect(checkout).toBeHidden();
  await expect(page.getByTestId('payments-balance')).toHaveText('$57.00');
  await expect(page.getByTestId('credit-balance')).toHaveText('$57.00');
  const history = page.getByRole('list', { name: 'Purchases and charges' });
  await expect(history).toContainText('PayPal purchase of $50.00 in credits');
  await expect(history).toContainText('+$7.00');

  // The card method does not point to a PayPal that is not there.
  await page.getByRole('tab', { name: 'Credit Card' }).click();
  await expect(
    page.getByText('Card payment is not configured. Please contact support for assistance.', {
      exact: true,
    }),
  ).toBeVisible();

  await page.goto('/marketplace');
  await page.getByRole('searchbox', { name: /Search GPUs/ }).fill('tokyo');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  const card = page.getByRole('group', { name: 'V100 from Sakura AI Datacenter' });
  await card.getByRole('button', { name: 'Rent Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rent V100' });
  await dialog.getByLabel('Duration (hours)').fill('3');
  await expect(dialog.getByTestId('rent-total')).toHaveText('$8.50');
  await dialog.getByRole('button', { name: 'Confirm Rental' }).click();
  await expect(toastWith(page, 'GPU Rented Successfully!')).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('$48.50');
});

for (const theme of ['dark', 'light', 'pastel'] as const) {
  test(`the sandbox and its checkout have no serious or critical violations (${theme})`, async ({
    browser,
  }) => {
    test.slow();
    const context = await browser.newContext();
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    try {
      await page.request.post('/api/login');
      await page.goto('/payments');
      const start = page.getByRole('button', { name: 'Pay with PayPal Sandbox' });
      await expect(start).toBeEnabled();
      expect(await seriousViolations(page, { theme })).toEqual([]);
      await start.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await seriousViolations(page, { theme })).toEqual([]);
    } finally {
      await context.close();
    }
  });
}

import { expect, expectTexts, test } from './fixtures';

/**
 * Add Credits with PayPal. The e2e server points the app at a fake PayPal REST API and the
 * page at a stand-in SDK (e2e/paypal-sdk-stub.js) whose button runs the page's createOrder,
 * approves the order at the fake, and calls onApprove: the rest is the real server flow.
 */
test('a package: the default Standard package is bought and credited with its bonus', async ({
  signedInPage: page,
}) => {
  await page.goto('/payments');
  await expect(page.getByRole('heading', { name: 'Add Credits', level: 1 })).toBeVisible();
  await expect(page.getByTestId('payments-balance')).toHaveText('$0.00');
  const standard = page.getByRole('radio', { name: /^Standard/ });
  await expect(standard).toHaveAttribute('aria-checked', 'true');
  await expect(standard).toContainText('Popular');
  await expect(page.getByRole('radio')).toHaveCount(5);
  const summary = page.getByTestId('payment-summary');
  await expect(summary).toContainText('Total credits$57.00');
  await expect(summary).toContainText('You pay$50.00 USD');

  await page.getByRole('radio', { name: /^Pro/ }).click();
  await expect(summary).toContainText('Total credits$120.00');
  await page.getByRole('radio', { name: /^Standard/ }).click();

  const pay = page.getByRole('button', { name: 'PayPal', exact: true });
  await expect(pay).toBeVisible();
  await pay.click();
  await expectTexts(page, 'Payment Successful', '$57.00 in credits added to your account.');
  await expect(page.getByTestId('payments-balance')).toHaveText('$57.00');
  await expect(page.getByTestId('credit-balance')).toHaveText('$57.00');
  const history = page.getByRole('list', { name: 'Purchases and charges' });
  await expect(history).toContainText('PayPal purchase of $50.00 in credits');
  await expect(history).toContainText('+$7.00');
});

test('a custom amount clears the package, gets no bonus, and is credited', async ({
  signedInPage: page,
}) => {
  await page.goto('/payments');
  const amount = page.getByLabel('Custom amount (USD)');
  await amount.fill('1001');
  await expect(
    page.getByText('Enter an amount from $1 to $1,000 (whole cents).', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'PayPal', exact: true })).toBeHidden();
  await amount.fill('12.50');
  for (const radio of await page.getByRole('radio').all()) {
    await expect(radio).toHaveAttribute('aria-checked', 'false');
  }
  const summary = page.getByTestId('payment-summary');
  await expect(summary).toContainText('Bonus+$0.00');
  await expect(summary).toContainText('Total credits$12.50');

  await page.getByRole('button', { name: 'PayPal', exact: true }).click();
  await expect(
    page.getByText('$12.50 in credits added to your account.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('$12.50');

  // Choosing a package clears the custom amount.
  await page.getByRole('radio', { name: /^Basic/ }).click();
  await expect(amount).toHaveValue('');
});

test('cancelling at PayPal changes nothing; the card method is not configured', async ({
  signedInPage: page,
}) => {
  await page.goto('/payments');
  await page.getByRole('button', { name: 'Cancel PayPal payment' }).click();
  await expectTexts(page, 'Payment Cancelled', 'PayPal payment was cancelled.');
  await expect(page.getByTestId('payments-balance')).toHaveText('$0.00');
  await page.getByRole('tab', { name: 'Credit Card' }).click();
  await expect(page.getByText(/Card payment is not configured/)).toBeVisible();
});

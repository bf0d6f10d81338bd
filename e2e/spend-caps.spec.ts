import { expect, test } from './fixtures';

test('account spend caps are set in Settings → Billing, saved, and shown after a reload', async ({
  signedInPage: page,
}) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Billing' }).click();
  const daily = page.getByLabel('Daily spend cap (USD)');
  const monthly = page.getByLabel('Monthly spend cap (USD)');
  await expect(daily).toHaveValue('');
  await daily.fill('0');
  await page.getByRole('button', { name: 'Save Spend Caps' }).click();
  await expect(page.getByText('Update Failed', { exact: true })).toBeVisible();

  await daily.fill('25.50');
  await monthly.fill('300');
  const saved = page.waitForResponse(
    (res) => res.url().endsWith('/settings') && res.request().method() === 'PATCH' && res.ok(),
  );
  await page.getByRole('button', { name: 'Save Spend Caps' }).click();
  await saved;
  await expect(page.getByText('Settings Updated', { exact: true })).toBeVisible();

  await page.reload();
  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByLabel('Daily spend cap (USD)')).toHaveValue('25.50');
  await expect(page.getByLabel('Monthly spend cap (USD)')).toHaveValue('300');
});

test('an API key gets its own spend cap, shown in its line', async ({ signedInPage: page }) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await page.getByRole('button', { name: 'Generate New Key' }).click();
  await page.getByLabel('Key name').fill('Batch jobs');
  await page.getByRole('button', { name: 'Generate Key' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Spend caps of Batch jobs' }).click();
  await page.getByLabel('Daily spend cap (USD)').fill('5');
  await page.getByRole('button', { name: 'Save Caps' }).click();
  await expect(page.getByText('Spend Caps Saved', { exact: true })).toBeVisible();
  const line = page.getByRole('listitem', { name: 'API key Batch jobs' });
  await expect(line).toContainText('Daily cap $5.00');
  await page.reload();
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await expect(line).toContainText('Daily cap $5.00');
});

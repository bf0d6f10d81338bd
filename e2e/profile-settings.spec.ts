import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, expectTexts, test } from './fixtures';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('profile edit saves, refreshes the current user, and keeps bad input in edit mode', async ({
  signedInPage: page,
}) => {
  await page.goto('/profile');
  await expect(page.getByRole('tab', { name: 'Provider' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Website').fill('not a url');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectTexts(page, 'Update Failed', 'Failed to update profile. Please try again.');
  await expect(page.getByText(/Website must be a full address/)).toBeVisible();

  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Website').fill('https://example.com/ada');
  await page.getByLabel('Bio').fill('Wrote the first program.');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile Updated', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
  await expect(page.getByText('Wrote the first program.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu for Ada Lovelace' })).toHaveText(
    'AL',
  );

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText('No rental activity yet', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Account' }).click();
  await expect(page.getByText('Standard Account', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change Password' })).toBeDisabled();
});

test('two fields side by side line up their inputs, whether or not one has a hint below', async ({
  signedInPage: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings');
  // Language has a hint; Default Region beside it has none.
  const region = await page.getByLabel('Default Region').boundingBox();
  const language = await page.getByLabel('Language').boundingBox();
  expect(region?.x).toBeLessThan(language?.x ?? 0);
  expect(region?.y).toBe(language?.y);
});

test('a setting is saved to the server and still there after a reload', async ({
  signedInPage: page,
}) => {
  await page.goto('/settings');
  const currency = page.getByLabel('Currency');
  await expect(currency).toHaveValue('USD');
  await currency.selectOption('EUR');
  await page.getByLabel('Timezone').selectOption('Asia/Tokyo');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Settings Updated', { exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Notifications' }).click();
  const marketing = page.getByRole('switch', { name: 'Marketing emails' });
  await expect(marketing).toHaveAttribute('aria-checked', 'false');
  await marketing.click();
  await expect(page.getByRole('switch', { name: 'Push notifications' })).toBeDisabled();
  const saved = page.waitForResponse(
    (res) => res.url().endsWith('/settings') && res.request().method() === 'PATCH' && res.ok(),
  );
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await saved;

  // The open tab is in the address (?tab=notifications): the reload opens it again.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Marketing emails' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await page.getByRole('tab', { name: 'General' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByLabel('Currency')).toHaveValue('EUR');
  await expect(page.getByLabel('Timezone')).toHaveValue('Asia/Tokyo');
  const me = await (await page.request.get('/api/auth/user')).json();
  expect(me).toMatchObject({ currency: 'EUR', timezone: 'Asia/Tokyo' });

  await page.getByRole('tab', { name: 'Security' }).click();
  // Two-factor is off until set up (e2e/two-factor.spec.ts).
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable' })).toBeEnabled();
  await page.getByRole('tab', { name: 'Billing' }).click();
  await expect(page.getByTestId('billing-balance')).toHaveText('$0.00');
  await expect(page.getByTestId('billing-total-spent')).toHaveText('$0.00');
});

test('an API key is generated and shown once, copied, and revoked', async ({
  signedInPage: page,
}) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await expect(page.getByText('No API keys yet.', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Generate New Key' }).click();
  await page.getByLabel('Key name').fill('Training pipeline');
  await page.getByRole('checkbox', { name: /write/i }).check();
  await page.getByRole('button', { name: 'Generate Key' }).click();
  await expect(page.getByText('API Key Generated', { exact: true })).toBeVisible();
  const key = (await page.getByTestId('new-api-key').textContent()) ?? '';
  expect(key).toMatch(/^rgpu_[A-Za-z0-9_-]{43}$/);

  await page.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByText('API key copied to clipboard.', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.getByRole('button', { name: 'Done' }).click();

  const item = page.getByRole('listitem', { name: 'API key Training pipeline' });
  await expect(item).toContainText(`${key.slice(0, 13)}…`);
  await expect(item).toContainText('Last used Never');
  await expect(item).not.toContainText(key);
  await item.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('button', { name: 'Revoke Key' }).click();
  await expectTexts(page, 'API Key Revoked', 'No API keys yet.');
  expect(await (await page.request.get('/api/auth/api-keys')).json()).toEqual([]);
});

test('an SSH public key is added with its fingerprint and deleted', async ({
  signedInPage: page,
}) => {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const field = (data: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, data.length]), data]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  const line = `ssh-ed25519 ${blob.toString('base64')} e2e@test`;

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Laptop');
  await page.getByLabel('Public key').fill('ssh-rsa AAAA');
  await page.getByRole('button', { name: 'Add SSH Key' }).click();
  await expect(
    page.getByText('The key data does not match its type.', { exact: true }),
  ).toBeVisible();
  await page.getByLabel('Public key').fill(line);
  await page.getByRole('button', { name: 'Add SSH Key' }).click();
  await expect(page.getByText('SSH Key Added', { exact: true })).toBeVisible();
  const item = page.getByRole('listitem', { name: 'SSH key Laptop' });
  await expect(item).toContainText(/SHA256:[A-Za-z0-9+/]{43}/);
  await item.getByRole('button', { name: 'Delete' }).click();
  await expectTexts(page, 'SSH Key Removed', 'No SSH keys yet.');
});

test('account data downloads as JSON; deleting the account signs out', async ({
  signedInPage: page,
  email,
}) => {
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Account Data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^rentgpu-account-\d{4}-\d{2}-\d{2}\.json$/);
  const path = await file.path();
  const data = JSON.parse(readFileSync(path, 'utf8'));
  expect(data.profile.email).toBe(email);

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete Account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await confirm.click();
  await expect(page.getByRole('button', { name: 'Demo Login' })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
});

test('the display currency setting changes the marketplace prices', async ({
  signedInPage: page,
}) => {
  await page.goto('/marketplace');
  const firstCard = page.getByTestId('listing-card').first();
  await expect(firstCard).toContainText('$');
  await page.goto('/settings');
  await page.getByLabel('Currency').selectOption('EUR');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Settings Updated', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Marketplace' }).first().click();
  await expect(firstCard).toContainText('€');
  await expect(firstCard).not.toContainText('$');
});

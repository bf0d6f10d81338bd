import { Secret, TOTP } from 'otpauth';
import { enterEmailedCode, expect, test } from './fixtures';

const PERIOD_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / PERIOD_MS);

/** What an authenticator app shows for the key, in a step later than `after` (no replay). */
async function appCode(secret: string, after: number): Promise<{ code: string; step: number }> {
  while (stepNow() <= after) await new Promise((resolve) => setTimeout(resolve, 250));
  const step = stepNow();
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30 });
  return { code: totp.generate({ timestamp: step * PERIOD_MS + 1_000 }), step };
}

test('two-factor: enable with the app, sign out, sign in with an app code, disable with a recovery code', async ({
  signedInPage: page,
  email,
}) => {
  test.setTimeout(120_000);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  // The tab is in the address, so a link or a reload opens it.
  await expect(page).toHaveURL(/\/settings\?tab=security$/);
  const badge = page.getByText('Disabled', { exact: true });
  await expect(badge).toBeVisible();
  await page.getByRole('button', { name: 'Enable' }).click();

  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // A wrong code is answered inline.
  await page.getByLabel('Code from your app').fill('000000');
  await page.getByRole('button', { name: 'Turn On' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');

  const first = await appCode(secret, stepNow() - 1);
  await page.getByLabel('Code from your app').fill(first.code);
  await page.getByRole('button', { name: 'Turn On' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('Enabled', { exact: true })).toBeVisible();

  // Sign out, then sign in: the e-mail code, then the app code.
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Demo Login' })).toBeVisible();
  await enterEmailedCode(page, email);
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  const second = page.getByLabel('Code from your authenticator app');
  await expect(second).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  await second.fill((await appCode(secret, first.step)).code);
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await expect(page.getByText('Login successful! Redirecting...')).toBeVisible();
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);

  // Disable needs a code: a recovery code will do.
  await page.goto('/settings?tab=security');
  await expect(page.getByRole('tab', { name: 'Security' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByLabel('Code from your app, or a recovery code').fill(recovery);
  await page.getByRole('button', { name: 'Turn Off' }).click();
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable' })).toBeVisible();
});

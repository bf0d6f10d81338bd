import {
  countCodesInServerLog,
  expect,
  readCodeFromServerLog,
  test,
  uniqueEmail,
} from './fixtures';

test('demo sign-in from the landing page opens the signed-in shell with balance and avatar', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Rent powerful GPUs by the hour' })).toBeVisible();
  await page.getByRole('button', { name: 'Demo Login' }).click();

  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText(/^\$\d+\.\d{2}$/);
  const avatar = page.getByRole('button', { name: 'Account menu for Demo User' });
  await expect(avatar).toHaveText('DU');

  await avatar.click();
  // A demo account of this visitor's own, not the shared seeded one.
  await expect(page.getByRole('menu')).toContainText(/demo-[0-9a-f]{16}@demo\.rentgpu\.invalid/);
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Demo Login' })).toBeVisible();
});

test('e-mail code sign-in with the code the server printed', async ({ page }) => {
  const email = uniqueEmail('otp');
  await page.goto('/');
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');

  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  const sent = page.getByRole('status').filter({ hasText: 'OTP sent to' });
  await expect(sent).toHaveText(`OTP sent to ${email}. Check the server console for the code.`);
  await expect(sent).toHaveClass(/text-success-text/);

  const code = page.getByLabel(/6-digit code sent to/);
  await code.fill('12a4');
  await expect(code).toHaveValue('124');
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid 6-digit OTP');
  await expect(page.getByRole('alert')).toHaveClass(/text-danger-text/);

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The first code is retired by this second send: wait for the newer one in the log.
  const before = countCodesInServerLog(email);
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'OTP sent to' })).toBeVisible();

  await code.fill(await readCodeFromServerLog(email, { after: before }));
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await expect(page.getByText('Login successful! Redirecting...')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  const initial = email[0]?.toUpperCase() ?? '';
  await expect(page.getByRole('button', { name: /Account menu for/ })).toHaveText(initial);
  await expect(page.getByTestId('credit-balance')).toHaveText('$0.00');
});

test('an address the server refuses reads as the form’s message, not a server field prefix', async ({
  page,
}) => {
  await page.goto('/');
  // Passes the form's own check (non-empty, contains '@') but not the server's.
  await page.getByLabel('Email address').fill('a@b');
  await page.getByRole('button', { name: 'Send Login Code' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  await expect(page.getByRole('alert')).not.toContainText('email:');
});

test('a signed-out visit to /marketplace shows the landing page', async ({ page }) => {
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'Rent powerful GPUs by the hour' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/api/login');
  for (const name of [
    'Instant Access',
    'Verified Providers',
    'Competitive Pricing',
    'Global Network',
  ]) {
    await expect(page.getByRole('heading', { name })).toBeVisible();
  }
  for (const name of ['Consumer GPUs', 'Professional GPUs', 'Multi-GPU Setups']) {
    await expect(page.getByRole('heading', { name })).toBeVisible();
  }
});

test('Sign In navigates to the landing sign-in form', async ({ page }) => {
  await page.goto('/blog');
  await page.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/#sign-in$/);
  await expect(page.getByLabel('Email address')).toBeFocused();
});

test('signed-in unknown paths show Not Found; public pages work signed out', async ({ page }) => {
  await page.goto('/documentation');
  await expect(page.getByRole('heading', { name: 'Documentation', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Demo Login' }).click();
  // The reload after demo login has happened once the balance shows.
  await expect(page.getByTestId('credit-balance')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documentation', level: 1 })).toBeVisible();
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  // Admin pages are Not Found for everyone else.
  await page.goto('/admin/provider-applications');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});

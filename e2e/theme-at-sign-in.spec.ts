import { enterEmailedCode, expect, test, uniqueEmail } from './fixtures';

test('a theme picked before sign-in is kept by the sign-in and saved as the user’s', async ({
  page,
}) => {
  const email = uniqueEmail('theme');
  await page.goto('/');
  await page.getByRole('button', { name: /Change theme/ }).click();
  await page.getByRole('menuitemradio', { name: /Light/ }).click();
  await expect(page.locator('html')).toHaveClass(/(^| )light( |$)/);

  await enterEmailedCode(page, email);
  const saved = page.waitForResponse((res) => res.url().endsWith('/api/user/theme') && res.ok());
  await page.getByRole('button', { name: 'Verify & Sign In' }).click();
  await saved;
  await expect(page.locator('html')).toHaveClass(/(^| )light( |$)/);
  expect((await (await page.request.get('/api/auth/user')).json()).theme).toBe('light');

  // From now on the saved theme is the user's again: a reload keeps it.
  await page.reload();
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/(^| )light( |$)/);
});

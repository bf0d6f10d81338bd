import { NONE_IN_ANY_THEME, seriousViolationsInEveryTheme } from './axe';
import { expect, test } from './fixtures';

// Each test signs in its own user (not the shared demo account, which other specs use). The
// pages as they open (Add Credits, Profile's Overview, Settings' General) are scanned by
// e2e/every-route.spec.ts; here, the other tabs and the edit form. Each
// view is checked in the theme it opens in and then, switched in place with the theme menu (and
// saved, so the next page opens in it), in the other two.
const everyTheme = (page: Parameters<typeof seriousViolationsInEveryTheme>[0]) =>
  seriousViolationsInEveryTheme(page, { signedIn: true });

test('Profile, each tab and the edit form, has no serious violations in any theme', async ({
  signedInPage: page,
}) => {
  test.slow(); // three views, each scanned in three themes
  await page.goto('/profile');
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  for (const tab of ['Account', 'Activity']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForLoadState('networkidle');
    expect(await everyTheme(page), `/profile ${tab}`).toEqual(NONE_IN_ANY_THEME);
  }
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  expect(await everyTheme(page), '/profile edit').toEqual(NONE_IN_ANY_THEME);
});

test('every Settings tab has no serious violations in any theme', async ({
  signedInPage: page,
}) => {
  test.setTimeout(180_000); // five tabs, each scanned in three themes
  await page.goto('/settings');
  for (const tab of ['Notifications', 'Security', 'API Keys', 'Webhooks', 'Billing']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForLoadState('networkidle');
    expect(await everyTheme(page), `/settings ${tab}`).toEqual(NONE_IN_ANY_THEME);
  }
});

import { seriousViolations } from './axe';
import { expect, signInByApi, test } from './fixtures';

for (const theme of ['dark', 'light', 'pastel'] as const) {
  // Each run signs in its own user (not the shared demo account, which other specs use).
  test(`Add Credits, Profile and every Settings tab in the ${theme} theme have no serious violations`, async ({
    browser,
    email,
  }) => {
    test.slow(); // ten axe scans across three pages
    const context = await browser.newContext();
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    try {
      await signInByApi(page.request, email);
      await page.request.patch('/api/user/theme', { data: { theme } });
      await page.goto('/payments');
      await expect(page.getByRole('button', { name: 'PayPal', exact: true })).toBeVisible();
      expect(await seriousViolations(page, { theme }), '/payments').toEqual([]);

      await page.goto('/profile');
      await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
      for (const tab of ['Overview', 'Account', 'Activity']) {
        await page.getByRole('tab', { name: tab }).click();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page, { theme }), `/profile ${tab}`).toEqual([]);
      }
      await page.getByRole('tab', { name: 'Overview' }).click();
      await page.getByRole('button', { name: 'Edit' }).click();
      expect(await seriousViolations(page, { theme }), '/profile edit').toEqual([]);

      await page.goto('/settings');
      for (const tab of ['General', 'Notifications', 'Security', 'API Keys', 'Billing']) {
        await page.getByRole('tab', { name: tab }).click();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page, { theme }), `/settings ${tab}`).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
}

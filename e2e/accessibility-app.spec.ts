import { seriousViolations } from './axe';
import { expect, test } from './fixtures';

const APP_PAGES = [
  { path: '/marketplace', heading: 'GPU Marketplace', ready: 'listing-card' },
  { path: '/dashboard', heading: 'My Dashboard', ready: 'summary-active' },
  { path: '/provider', heading: 'Provider Dashboard', ready: null },
] as const;

for (const theme of ['dark', 'light', 'pastel'] as const) {
  test.describe(`app pages in the ${theme} theme`, () => {
    test('the landing page has no serious or critical violations', async ({ browser }) => {
      const context = await browser.newContext();
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      try {
        await page.goto('/');
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await seriousViolations(page, { theme })).toEqual([]);
      } finally {
        await context.close();
      }
    });

    test('the provider application, empty and with its messages, has no serious or critical violations', async ({
      signedInPage: page,
    }) => {
      test.slow(); // axe over a long form, twice
      // A fresh user: the demo account owns a provider profile, so it is not offered the form.
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await page.goto('/provider-signup');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Become a GPU Provider' }),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Submit Provider Application' })).toBeVisible();
      expect(await seriousViolations(page, { theme }), 'empty form').toEqual([]);
      await page.getByRole('button', { name: 'Submit Provider Application' }).click();
      await expect(page.getByText('Company name must be at least 2 characters')).toBeVisible();
      expect(await seriousViolations(page, { theme }), 'form with messages').toEqual([]);
    });

    test('signed-in pages and the rent dialog have no serious or critical violations', async ({
      browser,
    }) => {
      test.slow(); // axe over every signed-in page and the rent dialog
      const context = await browser.newContext();
      await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const page = await context.newPage();
      try {
        await page.request.post('/api/login');
        for (const { path, heading, ready } of APP_PAGES) {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
          if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
          else await page.waitForLoadState('networkidle');
          expect(await seriousViolations(page, { theme }), path).toEqual([]);
        }
        await page.goto('/marketplace');
        await page.getByRole('button', { name: 'Rent Now' }).first().click();
        await expect(page.getByRole('dialog')).toBeVisible();
        expect(await seriousViolations(page, { theme }), 'rent dialog').toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
}

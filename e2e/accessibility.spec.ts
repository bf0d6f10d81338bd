import type { Browser } from '@playwright/test';
import { seriousViolations, type Theme } from './axe';
import { CONTENT_PAGES } from './content-routes';
import { expect, test } from './fixtures';

/** Opens a page in a fresh context with the theme stored, as a returning visitor has it. */
async function openInTheme(browser: Browser, theme: Theme, path: string) {
  const context = await browser.newContext();
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.locator('html')).toHaveClass(new RegExp(`(^| )${theme}( |$)`));
  return { context, page };
}

for (const theme of ['dark', 'light', 'pastel'] as const) {
  test.describe(`accessibility in the ${theme} theme`, () => {
    for (const { path, heading } of CONTENT_PAGES) {
      test(`${path} has no serious or critical violations`, async ({ browser }) => {
        // The API Reference is the longest page (every operation of the OpenAPI document).
        if (path === '/api-reference') test.slow();
        const { context, page } = await openInTheme(browser, theme, path);
        try {
          await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
          expect(await seriousViolations(page, { theme })).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }

    test('the API Reference: its opened response fields, and (dark) the page at 390 px, have no serious violations', async ({
      browser,
    }) => {
      // axe twice over the longest page, which on a busy machine takes more than a minute.
      test.setTimeout(150_000);
      const { context, page } = await openInTheme(browser, theme, '/api-reference');
      try {
        await expect(page.getByRole('heading', { level: 1, name: 'API Reference' })).toBeVisible();
        for (const summary of await page.getByText('Response fields', { exact: true }).all()) {
          await summary.click();
        }
        const opened = page.getByRole('list', { name: /^Response fields of / });
        await expect(opened.first()).toBeVisible();
        expect(await opened.count()).toBeGreaterThan(1);
        // The rest of the page is checked closed above; here only what opening adds.
        expect(
          await seriousViolations(page, {
            theme,
            include: 'ul[aria-label^="Response fields of "]',
          }),
        ).toEqual([]);
        // The phone layout is the same in every theme (colours are checked above): once.
        if (theme !== 'dark') return;
        await page.setViewportSize({ width: 390, height: 844 });
        await page.reload();
        await expect(page.getByRole('heading', { level: 1, name: 'API Reference' })).toBeVisible();
        expect(await seriousViolations(page, { theme })).toEqual([]);
      } finally {
        await context.close();
      }
    });

    test('opened help answers, documentation tabs and toasts have no serious violations', async ({
      browser,
    }) => {
      test.slow(); // axe after each opened answer, tab and toast
      const { context, page } = await openInTheme(browser, theme, '/help-center');
      try {
        await page.getByRole('searchbox', { name: 'Search help articles' }).fill('credits');
        await expect(page.getByText('How do I add credits?')).toBeVisible();
        await page.getByRole('button', { name: 'Start Live Chat' }).click();
        await expect(
          page.getByText('Live chat is not available yet', { exact: true }),
        ).toBeVisible();
        expect(await seriousViolations(page, { theme })).toEqual([]);

        await page.goto('/documentation');
        for (const tab of ['Getting Started', 'API Reference', 'For Providers', 'Support']) {
          await page.getByRole('tab', { name: tab }).click();
          await expect(page.getByRole('tab', { name: tab })).toHaveAttribute(
            'aria-selected',
            'true',
          );
          expect(await seriousViolations(page, { theme })).toEqual([]);
        }
      } finally {
        await context.close();
      }
    });
  });
}

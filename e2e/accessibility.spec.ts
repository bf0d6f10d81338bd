import { NONE_IN_ANY_THEME, seriousViolations, seriousViolationsInEveryTheme } from './axe';
import { CONTENT_PAGES } from './content-routes';
import { expect, test } from './fixtures';
import { currentTheme, switchTheme } from './themes';

// e2e/every-route.spec.ts scans every route in every theme and at 390 px (the API Reference's
// phone layout among them), the blog post it fills in for /blog/:slug too; here, what a plain
// visit does not show, and the content pages it does not visit (the other blog posts and an
// unknown slug), each loaded once and checked in the dark theme (the default) and then,
// switched in place, in light and pastel (e2e/axe.ts).
const NOT_ROUTED = CONTENT_PAGES.filter(
  ({ path }) =>
    path.startsWith('/blog/') &&
    path !== CONTENT_PAGES.find((p) => p.path.startsWith('/blog/'))?.path,
);

test('the API Reference with its response fields opened has no serious violations in any theme', async ({
  page,
}) => {
  // axe three times over the opened fields of the longest page: about 45 s alone on a
  // 2-core machine, and it ran past 150 s beside the other browser worker in a CI run.
  test.setTimeout(300_000);
  await page.goto('/api-reference');
  await expect(page.getByRole('heading', { level: 1, name: 'API Reference' })).toBeVisible();
  for (const summary of await page.getByText('Response fields', { exact: true }).all()) {
    await summary.click();
  }
  const opened = page.getByRole('list', { name: /^Response fields of / });
  await expect(opened.first()).toBeVisible();
  expect(await opened.count()).toBeGreaterThan(1);
  // The rest of the page is checked closed below; here only what opening adds.
  expect(
    await seriousViolationsInEveryTheme(page, { include: 'ul[aria-label^="Response fields of "]' }),
  ).toEqual(NONE_IN_ANY_THEME);
});

for (const { path, heading } of NOT_ROUTED) {
  test(`${path} has no serious or critical violations in any theme`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(await seriousViolationsInEveryTheme(page)).toEqual(NONE_IN_ANY_THEME);
  });
}

test('opened help answers and the toast have no serious violations in any theme', async ({
  page,
}) => {
  test.slow(); // axe after the opened answers and the toast, in each theme
  await page.goto('/help-center');
  await page.getByRole('searchbox', { name: 'Search help articles' }).fill('credits');
  await expect(page.getByText('How do I add credits?')).toBeVisible();
  for (const theme of ['dark', 'light', 'pastel'] as const) {
    if (theme !== 'dark') await switchTheme(page, theme);
    // The toast lasts 5 s: raised anew in each theme, just before its scan.
    await page.getByRole('button', { name: 'Start Live Chat' }).click();
    await expect(page.getByText('Live chat is not available yet', { exact: true })).toBeVisible();
    expect(await seriousViolations(page, { theme }), theme).toEqual([]);
    expect(await currentTheme(page), 'the theme the scan ran in').toBe(theme);
  }
});

test('the documentation tabs have no serious violations in any theme', async ({ page }) => {
  test.setTimeout(150_000); // axe after each of four tabs, in each theme
  await page.goto('/documentation');
  for (const tab of ['Getting Started', 'API Reference', 'For Providers', 'Support']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    expect(await seriousViolationsInEveryTheme(page), tab).toEqual(NONE_IN_ANY_THEME);
  }
});

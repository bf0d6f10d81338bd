import { THEMES } from '../shared/rules/theme';
import { NONE_IN_ANY_THEME, seriousViolations, seriousViolationsInEveryTheme } from './axe';
import { expect, test } from './fixtures';
import { currentTheme, switchTheme } from './themes';

// Each page is loaded once and checked in the theme it opens in and then, switched in place
// with the theme menu, in the other two (e2e/axe.ts: the themes are colours over one page).
const APP_PAGES = [
  { path: '/marketplace', heading: 'GPU Marketplace', ready: 'listing-card' },
  { path: '/dashboard', heading: 'My Dashboard', ready: 'summary-active' },
  { path: '/provider', heading: 'Provider Dashboard', ready: null },
] as const;

test('the landing page has no serious or critical violations in any theme', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await seriousViolationsInEveryTheme(page)).toEqual(NONE_IN_ANY_THEME);
});

test('the provider application, empty and with its messages, has no serious or critical violations in any theme', async ({
  signedInPage: page,
}) => {
  test.slow(); // axe over a long form, twice in each theme
  // A fresh user: the demo account owns a provider profile, so it is not offered the form.
  await page.goto('/provider-signup');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Become a GPU Provider' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Provider Application' })).toBeVisible();
  expect(await seriousViolationsInEveryTheme(page, { signedIn: true }), 'empty form').toEqual(
    NONE_IN_ANY_THEME,
  );
  await page.getByRole('button', { name: 'Submit Provider Application' }).click();
  await expect(page.getByText('Company name must be at least 2 characters')).toBeVisible();
  expect(
    await seriousViolationsInEveryTheme(page, { signedIn: true }),
    'form with messages',
  ).toEqual(NONE_IN_ANY_THEME);
});

test('signed-in pages and the rent dialog have no serious or critical violations in any theme', async ({
  page,
}) => {
  test.setTimeout(150_000); // axe over every signed-in page and the rent dialog, in each theme
  await page.request.post('/api/login');
  for (const { path, heading, ready } of APP_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    if (ready) await expect(page.getByTestId(ready).first()).toBeVisible();
    else await page.waitForLoadState('networkidle');
    expect(await seriousViolationsInEveryTheme(page, { signedIn: true }), path).toEqual(
      NONE_IN_ANY_THEME,
    );
  }
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { level: 1, name: 'GPU Marketplace' })).toBeVisible();
  // The dialog is modal (the theme menu behind it cannot be reached): opened in each theme.
  const first = await currentTheme(page);
  for (const theme of [first, ...THEMES.filter((t) => t !== first)]) {
    if (theme !== first) await switchTheme(page, theme, { signedIn: true });
    await page.getByRole('button', { name: 'Rent Now' }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page, { theme }), `rent dialog, ${theme}`).toEqual([]);
    expect(await currentTheme(page), 'the theme the scan ran in').toBe(theme);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});

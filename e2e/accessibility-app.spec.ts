import { THEMES } from '../shared/rules/theme';
import { NONE_IN_ANY_THEME, seriousViolations, seriousViolationsInEveryTheme } from './axe';
import { expect, test } from './fixtures';
import { currentTheme, switchTheme } from './themes';

// Each view is checked in the theme it opens in and then, switched in place with the theme
// menu, in the other two (e2e/axe.ts: the themes are colours over one page). The pages as a
// visit shows them are scanned by e2e/every-route.spec.ts; here, the rent dialog and a form
// with its messages.

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

test('the rent dialog has no serious or critical violations in any theme', async ({ page }) => {
  test.slow(); // axe with the dialog opened, in each theme
  await page.request.post('/api/login');
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

import { expect, type Page } from '@playwright/test';
import { THEME_LABELS, THEMES, type Theme } from '../shared/rules/theme';

const themeClass = (theme: Theme) => new RegExp(`(^| )${theme}( |$)`);

/** The theme the page shows now (the class on the root element). */
export async function currentTheme(page: Page): Promise<Theme> {
  const classes = (await page.locator('html').getAttribute('class')) ?? '';
  const shown = THEMES.filter((theme) => themeClass(theme).test(classes));
  expect(shown, `one theme class on <html> (${classes})`).toHaveLength(1);
  return shown[0] as Theme;
}

/**
 * Switches the theme in place with the top bar's theme menu, as a visitor does, and waits until
 * the page shows it. The menu is worked by keyboard, so the pointer hovers nothing the checks
 * then read; focus goes back to the document, as on a fresh load; every colour transition the
 * switch started has ended; and, signed in, the choice is saved (the server's copy is the one
 * the next page load starts from).
 */
export async function switchTheme(page: Page, theme: Theme, { signedIn = false } = {}) {
  const saved = signedIn
    ? page.waitForResponse(
        (res) => res.url().endsWith('/api/user/theme') && res.request().method() === 'PATCH',
      )
    : null;
  await page.getByRole('button', { name: /Change theme/ }).press('Enter');
  await page
    .getByRole('menuitemradio', { name: new RegExp(`^${THEME_LABELS[theme]}\\b`) })
    .press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(page.locator('html')).toHaveClass(themeClass(theme));
  if (saved) expect((await saved).ok(), `theme ${theme} saved`).toBe(true);
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  await transitionsEnded(page);
}

/**
 * Waits until every CSS transition running on the page has ended: colours read mid-transition
 * (a theme just switched) are neither theme's, and axe's contrast check would judge those.
 */
export async function transitionsEnded(page: Page) {
  await page.evaluate(async () => {
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
  });
}

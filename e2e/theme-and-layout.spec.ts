import { expect, test } from './fixtures';

test('a signed-in theme change is saved and survives a reload', async ({ signedInPage: page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/(^| )dark( |$)/);
  await page.getByRole('button', { name: /Change theme/ }).click();
  await expect(page.getByRole('menuitemradio', { name: /Clean light theme/ })).toBeVisible();
  await expect(page.getByRole('menuitemradio', { name: /Soft pastel colors/ })).toBeVisible();
  const saved = page.waitForResponse((res) => res.url().endsWith('/api/user/theme') && res.ok());
  await page.getByRole('menuitemradio', { name: /Pastel/ }).click();
  await saved;
  await expect(page.locator('html')).toHaveClass(/(^| )pastel( |$)/);

  // The server's copy wins over local storage at start.
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/(^| )pastel( |$)/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('pastel');
});

test('a signed-out theme change is kept locally; an invalid stored value falls back to dark', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Change theme/ }).click();
  await page.getByRole('menuitemradio', { name: /Light/ }).click();
  await page.reload();
  // The app has started (not only the page's own first script), so nothing of its start
  // writes the store after the test does.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Rent powerful GPUs by the hour' }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/(^| )light( |$)/);
  await page.evaluate(() => localStorage.setItem('theme', 'neon'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/(^| )dark( |$)/);
});

for (const signedIn of [false, true]) {
  test(`layout at 390 px has no horizontal scrolling (${signedIn ? 'signed in' : 'signed out'})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    if (signedIn) {
      await page.getByRole('button', { name: 'Try Demo Account' }).click();
      await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
    } else {
      await expect(
        page.getByRole('heading', { level: 1, name: 'Rent powerful GPUs by the hour' }),
      ).toBeVisible();
    }
    // The app (not only the page's first paint) has drawn its top bar before it is measured.
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'RentGPU home' }),
    ).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The top bar's row keeps inside its padding and shows the brand's name whole.
    const bar = await page.evaluate(() => {
      const row = document.querySelector('header > div') as HTMLElement;
      const inner =
        row.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(row).paddingRight);
      const last = row.lastElementChild?.lastElementChild as HTMLElement;
      const name = row.querySelector('a[aria-label="RentGPU home"] span:last-child') as HTMLElement;
      return {
        pastPadding: last.getBoundingClientRect().right - inner,
        nameCut: name.scrollWidth - name.clientWidth,
      };
    });
    expect(bar).toEqual({ pastPadding: expect.any(Number), nameCut: 0 });
    expect(bar.pastPadding).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    // Every section of the top bar, the VM Dashboard and, signed in, the avatar menu's pages.
    await expect(drawer.getByRole('navigation').getByRole('link')).toHaveText([
      'Marketplace',
      'Instant Deploy',
      'Dashboard',
      'VM Dashboard',
      'Provider',
      'Add Credits',
      'Blog',
      'Documentation',
      'Become a Provider',
      ...(signedIn ? ['Profile', 'Settings'] : []),
    ]);
    await expect(
      drawer.getByRole('link', { name: signedIn ? 'Log out' : 'Sign In' }),
    ).toBeVisible();
    if (signedIn)
      await expect(drawer.getByTestId('drawer-balance')).toHaveText(/Credits: \$\d+\.\d{2}/);
  });
}

for (const width of [1024, 1280]) {
  test(`the top bar shows the whole menu and fits ${width} px, signed out and signed in`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/blog');
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const menu = page.getByRole('navigation', { name: 'Main' });
    const entries = [
      'Marketplace',
      'Instant Deploy',
      'Dashboard',
      'Provider',
      'Add Credits',
      'Blog',
      'Documentation',
      'Become a Provider',
    ];
    await expect(menu.getByRole('link')).toHaveText(entries);
    for (const entry of entries)
      await expect(menu.getByRole('link', { name: entry, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Below 1280 px the top bar leaves Demo Login to the landing page's Try Demo Account.
    if (width < 1280) {
      await expect(page.getByRole('button', { name: 'Demo Login' })).toBeHidden();
      await page.request.post('/api/login');
      await page.reload();
    } else await page.getByRole('button', { name: 'Demo Login' }).click();
    await expect(page.getByTestId('credit-balance')).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Documentation' })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
  });
}

test('below 1024 px the menu is in the drawer', async ({ page }) => {
  await page.setViewportSize({ width: 1023, height: 800 });
  await page.goto('/blog');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
});

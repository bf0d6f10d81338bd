import type { Page } from '@playwright/test';
import { THEMES } from '../shared/rules/theme';
import { seriousViolations } from './axe';
import { demoLogin, expect, test, toastWith } from './fixtures';
import { currentTheme, switchTheme } from './themes';

/**
 * Every machine from where people look (issue 26, part 1): My Dashboard lists the booked
 * rentals and the pay-as-you-go instances (VMs, deploys) and counts them all; each of the
 * latter leads to its card on the VM Dashboard; the VM Dashboard is in the avatar menu and the
 * drawer; the rent and create confirmations lead to the instance.
 */
test.describe.configure({ timeout: 60_000 });

/** A VM (A6000 on the demo host) or a deploy launched through the API, as another tab would. */
async function launchByApi(page: Page, kind: 'vm' | 'deploy'): Promise<number> {
  const headers = { Origin: new URL(page.url()).origin };
  const res =
    kind === 'vm'
      ? await page.request.post('/api/kvm/instances', { headers, data: { gpu_type: 'A6000' } })
      : await page.request.post('/api/deploy', {
          headers,
          data: { gpu_type: 'A6000', template: 'cuda-dev', storage_gb: 20 },
        });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { vm_id?: number; deployment?: { deployment_id: number } };
  const id = body.vm_id ?? body.deployment?.deployment_id;
  if (id === undefined) throw new Error(`no id in ${JSON.stringify(body)}`);
  return id;
}

test('My Dashboard lists and counts the rental, the VM and the deploy; each leads to where it is managed', async ({
  page,
}) => {
  await demoLogin(page.request);
  await page.goto('/marketplace');
  await page.getByRole('button', { name: 'Rent Now' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm Rental' }).click();
  // The confirmation (spec text unchanged) leads to the rental's card.
  await expect(toastWith(page, 'GPU Rented Successfully!')).toBeVisible();
  await page.getByRole('link', { name: 'View it on your dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard#rental-\d+$/);
  const rentalId = new URL(page.url()).hash.slice('#rental-'.length);
  await expect(page.locator(`#rental-${rentalId}`)).toBeFocused();

  const vmId = await launchByApi(page, 'vm');
  const deployId = await launchByApi(page, 'deploy');
  await page.reload();
  const metered = page.getByTestId('metered-instance');
  await expect(metered).toHaveCount(2);
  for (const [id, source] of [
    [vmId, 'VM Dashboard'],
    [deployId, 'Instant Deploy'],
  ] as const) {
    const row = page.getByRole('listitem', { name: `A6000 instance ${id}` });
    await expect(row).toContainText(`#${id} · ${source}`);
    await expect(row.getByTestId('metered-status')).toHaveText(/^(creating|running)$/);
    await expect(row.getByTestId('metered-cost')).toHaveText(/^\$\d+\.\d{2}$/);
  }
  // One booked rental and two pay-as-you-go instances, all running or on their way.
  await expect(page.getByTestId('summary-active')).toHaveText('3');
  await page.getByTestId('summary-active').click();
  const detail = page.getByRole('dialog', { name: 'Active Rentals' });
  await expect(detail.getByRole('listitem')).toHaveCount(3);
  await expect(detail).toContainText(`A6000 #${vmId}`);
  await page.keyboard.press('Escape');

  await page
    .getByRole('link', { name: `Manage A6000 instance ${deployId} on the VM Dashboard` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/vm-dashboard#vm-${deployId}$`));
  await expect(page.getByRole('group', { name: `A6000 instance ${deployId}` })).toBeFocused();

  // A terminated one is still listed, no longer counted.
  const headers = { Origin: new URL(page.url()).origin };
  await expect
    .poll(async () => (await page.request.delete(`/api/kvm/instances/${vmId}`, { headers })).ok())
    .toBe(true);
  await page.goto('/dashboard');
  await expect(metered).toHaveCount(2);
  await expect(page.getByTestId('summary-active')).toHaveText('2');
});

test('the VM Dashboard is in the avatar menu, and a created VM links to its card', async ({
  page,
}) => {
  await demoLogin(page.request);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'VM Dashboard' }).click();
  await expect(page).toHaveURL(/\/vm-dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'VM Dashboard' })).toBeVisible();

  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await expect(form.getByLabel('GPU Type').locator('option', { hasText: /^A6000/ })).toHaveCount(1);
  const options = await form.getByLabel('GPU Type').locator('option').allTextContents();
  const a6000 = options.find((o) => o.startsWith('A6000'));
  if (!a6000) throw new Error(`no A6000 among ${options.join(', ')}`);
  await form.getByLabel('GPU Type').selectOption({ label: a6000 });
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(toastWith(page, 'VM Created')).toBeVisible();
  const link = page.getByRole('link', { name: /^View instance #\d+$/ });
  const id = ((await link.textContent()) ?? '').replace('View instance #', '');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/vm-dashboard#vm-${id}$`));
  await expect(page.getByRole('group', { name: `A6000 instance ${id}` })).toBeFocused();
});

test('on a phone the drawer reaches the VM Dashboard, Profile and Settings', async ({ page }) => {
  await demoLogin(page.request);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [entry, heading] of [
    ['VM Dashboard', 'VM Dashboard'],
    ['Profile', 'Profile'],
    ['Settings', 'Settings'],
  ] as const) {
    await page.goto('/marketplace');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: entry }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});

test('the drawer and the avatar menu have no serious or critical violations in any theme', async ({
  page,
}) => {
  test.setTimeout(90_000); // axe with each opened, in each theme
  await demoLogin(page.request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard');
  await expect(page.getByTestId('summary-active')).toBeVisible();
  // Both are modal or take the focus (the theme menu cannot be reached): opened in each theme.
  const first = await currentTheme(page);
  for (const theme of [first, ...THEMES.filter((t) => t !== first)]) {
    if (theme !== first) await switchTheme(page, theme, { signedIn: true });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    expect(await seriousViolations(page, { theme }), `drawer, ${theme}`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    // Closing gives the focus back to the button that opened it; a key pressed before that lands
    // on the wrong control (under load, the theme switch's Enter reopened the account menu).
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await expect(page.getByRole('menuitem', { name: 'VM Dashboard' })).toBeVisible();
    expect(await seriousViolations(page, { theme }), `avatar menu, ${theme}`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Account menu for / })).toBeFocused();
  }
});

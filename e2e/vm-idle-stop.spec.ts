import { demoLogin, expect, test, toastWith } from './fixtures';

/**
 * Idle stop on the VM dashboard (issue 23, parts 4 and 7; docs/decisions/019): the account
 * default set in Settings → Billing is what a new VM gets; the card shows it (simulated GPU
 * use on a demo host, said so) and changes it. The warning and the stop themselves are
 * API-tested with the manual clock (server/modules/instances/idle-stop.test.ts).
 */
test.describe.configure({ timeout: 60_000 });

test('the account default reaches a new VM; the card shows and changes its idle stop', async ({
  page,
}) => {
  await demoLogin(page.request);
  await page.goto('/settings?tab=billing');
  await expect(page.getByLabel('Idle stop (default for new instances)')).toHaveValue('0');
  await page.getByLabel('Idle stop (default for new instances)').selectOption({
    label: 'After 1 hour idle',
  });
  await page.getByLabel('Idle threshold (GPU %)').fill('10');
  await page.getByRole('button', { name: 'Save Idle Stop' }).click();
  await expect(toastWith(page, 'Settings Updated')).toBeVisible();

  await page.goto('/vm-dashboard');
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await expect(form.getByLabel('Idle stop')).toHaveValue('');
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(toastWith(page, 'VM Created')).toBeVisible();

  const card = page.getByTestId('vm-card').first();
  await expect(card.getByTestId('vm-idle-stop')).toContainText(
    'Idle stop: after 1 h under 10% GPU with no SSH or web console session',
  );
  await expect(card.getByTestId('vm-idle-stop')).toContainText(
    'GPU use is simulated on a demo host',
  );

  const idle = card.getByRole('region', { name: 'Idle stop' });
  await idle.getByLabel('Idle stop').selectOption({ label: 'Off' });
  await idle.getByRole('button', { name: 'Apply' }).click();
  await expect(toastWith(page, 'Idle Stop Updated')).toBeVisible();
  await expect(card.getByTestId('vm-idle-stop')).toHaveText('Idle stop: off');

  await idle.getByLabel('Idle stop').selectOption({ label: 'After 30 minutes idle' });
  await idle.getByRole('button', { name: 'Apply' }).click();
  await expect(card.getByTestId('vm-idle-stop')).toContainText(
    'Idle stop: after 30 min under 10% GPU',
  );
});

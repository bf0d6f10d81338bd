import type { Page } from '@playwright/test';
import { demoLogin, expect, test, toastWith } from './fixtures';

const ED25519 =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop';

/**
 * Issue 26 part 6: every launch screen says when the account has no SSH key, and the key is
 * added in place, before launching; the notice then goes from every launch screen.
 */
/** The marketplace's rent dialog, for any listing with a unit free (other tests rent too). */
async function openRentDialog(page: Page): Promise<void> {
  await page.goto('/marketplace');
  await page
    .getByTestId('listing-card')
    .getByRole('button', { name: 'Rent Now', disabled: false })
    .first()
    .click();
}

// Three launch screens in one test: room for a loaded machine (alone it takes about 20 s).
test.describe.configure({ timeout: 90_000 });

test('the launch screens say there is no SSH key, and one is added in place', async ({ page }) => {
  await demoLogin(page.request);

  await page.goto('/deploy');
  await expect(page.getByRole('region', { name: 'No SSH key' })).toContainText(
    'Your account has no SSH key.',
  );

  await page.goto('/vm-dashboard');
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const notice = page.getByRole('region', { name: 'No SSH key' });
  await expect(notice).toContainText('ssh cannot sign in to the instance you launch');
  await notice.getByRole('button', { name: 'Add an SSH key' }).click();
  const form = notice.getByRole('form', { name: 'Add an SSH key' });
  await form.getByRole('button', { name: 'Add SSH Key' }).click();
  await expect(form.getByText('Give the key a name')).toBeVisible();
  await form.getByLabel('Name').fill('Laptop');
  await form.getByLabel('Public key').fill(ED25519);
  await form.getByRole('button', { name: 'Add SSH Key' }).click();
  await expect(toastWith(page, 'SSH Key Added')).toBeVisible();
  await expect(notice).toBeHidden();
  // The Create Instance form stayed open, its launch not sent.
  await expect(page.getByRole('form', { name: 'Create New Instance' })).toBeVisible();
  expect(((await (await page.request.get('/api/kvm/instances')).json()) as unknown[]).length).toBe(
    0,
  );

  await openRentDialog(page);
  await expect(page.getByRole('dialog')).toContainText('Duration (hours)');
  await expect(page.getByRole('region', { name: 'No SSH key' })).toHaveCount(0);
});

test('the rent dialog shows the notice to an account with no key', async ({ page }) => {
  await demoLogin(page.request);
  await openRentDialog(page);
  await expect(page.getByRole('dialog').getByRole('region', { name: 'No SSH key' })).toContainText(
    'Your account has no SSH key.',
  );
});

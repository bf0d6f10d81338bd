import AxeBuilder from '@axe-core/playwright';
import { expect, readCodeFromServerLog, test, toastWith, uniqueEmail } from './fixtures';

const CHANGE_SUBJECT = 'Your RentGPU e-mail change code';

test('a new e-mail waits for the code sent to it; the other fields save at once', async ({
  signedInPage: page,
  email,
}) => {
  const newEmail = uniqueEmail('moved');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Email', { exact: true }).fill(newEmail);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toastWith(page, 'Profile Updated')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Grace' })).toBeVisible();

  const pending = page.getByRole('form', { name: 'Pending e-mail change' });
  await expect(pending).toContainText(
    `Pending confirmation: ${newEmail} — enter the code we sent. Until then you sign in with ${email}.`,
  );
  // The sign-in address has not moved yet.
  await expect(page.getByRole('definition').filter({ hasText: email })).toBeVisible();
  const axe = await new AxeBuilder({ page })
    .include('form[aria-label="Pending e-mail change"]')
    .analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual(
    [],
  );

  const code = await readCodeFromServerLog(newEmail, { subject: CHANGE_SUBJECT });
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const input = pending.getByLabel('Confirmation code');
  await input.fill(wrong);
  await pending.getByRole('button', { name: 'Confirm' }).click();
  await expect(pending.getByRole('alert')).toHaveText('That code is not right. 4 tries left.');

  await input.fill(code);
  await pending.getByRole('button', { name: 'Confirm' }).click();
  await expect(toastWith(page, 'Email Updated')).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(page.getByRole('definition').filter({ hasText: newEmail })).toBeVisible();
  await page.getByRole('button', { name: 'Account menu for Grace' }).click();
  await expect(page.getByRole('menu')).toContainText(newEmail);
});

test('a pending e-mail change can be cancelled', async ({ signedInPage: page, email }) => {
  const newEmail = uniqueEmail('never');
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Email', { exact: true }).fill(newEmail);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  const pending = page.getByRole('form', { name: 'Pending e-mail change' });
  await expect(pending).toContainText(`Pending confirmation: ${newEmail}`);

  await pending.getByRole('button', { name: 'Cancel change' }).click();
  await expect(pending).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('form', { name: 'Pending e-mail change' })).toHaveCount(0);
  const me = await (await page.request.get('/api/auth/user')).json();
  expect(me).toMatchObject({ email, pendingEmail: null });
});

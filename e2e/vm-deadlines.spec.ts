import { demoLogin, expect, openVmCreateForm, test, toastWith } from './fixtures';

/**
 * Deadlines on the VM dashboard (issue 23, part 5): a demo visitor's VM created with "Stop
 * after", its card counting down; a terminate time scheduled from the card, and the stop
 * time cleared.
 */
test.describe.configure({ timeout: 60_000 });

test('a VM created with a stop time counts down on its card; the card schedules and clears', async ({
  page,
}) => {
  await demoLogin(page.request);
  const form = await openVmCreateForm(page);
  await expect(form.getByLabel('Stop after')).toHaveValue('');
  await expect(form.getByLabel('Terminate after')).toHaveValue('');
  await form.getByLabel('Stop after').selectOption({ label: '2 hours' });
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(toastWith(page, 'VM Created')).toBeVisible();

  const card = page.getByTestId('vm-card').first();
  // Two hours, less the moments since the form was sent.
  await expect(card.getByTestId('vm-stop-countdown')).toHaveText(/^1h 5\dm$/);
  await expect(card.getByTestId('vm-stop-at')).toContainText('Stops in');
  await expect(card.getByTestId('vm-terminate-at')).toHaveCount(0);

  // From the card: terminate after a day.
  const schedule = card.getByRole('region', { name: 'Schedule' });
  await schedule.getByLabel('Scheduled action').selectOption('terminate');
  await schedule.getByLabel('After').selectOption({ label: '1 day' });
  await schedule.getByRole('button', { name: 'Schedule' }).click();
  await expect(toastWith(page, 'Schedule Updated')).toBeVisible();
  await expect(card.getByTestId('vm-terminate-countdown')).toHaveText(/^23h 5\dm$/);

  // The stop time cleared: only the terminate time is left.
  await card.getByRole('button', { name: 'Clear stop time' }).click();
  await expect(card.getByTestId('vm-stop-at')).toHaveCount(0);
  await expect(card.getByTestId('vm-terminate-countdown')).toBeVisible();
});

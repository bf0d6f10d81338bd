import { demoLogin, expect, test } from './fixtures';

/**
 * The credit history (issue 26 part 2): a VM's minutes are one usage line (instance, GPU,
 * compute and storage minutes, the amount) that expands to the minutes; the history filters
 * and exports as CSV.
 */
test('a VM’s minutes are one line that expands to the minutes', async ({ page }) => {
  await demoLogin(page.request);
  const made = await page.request.post('/api/kvm/instances', { data: { gpu_type: 'A6000' } });
  expect(made.status()).toBe(201);
  const { vm_id: id } = (await made.json()) as { vm_id: number };
  // Storage is charged from create, compute from ready (ADR 026): wait for the demo host.
  await expect
    .poll(async () => {
      const vms = (await (await page.request.get('/api/kvm/instances')).json()) as {
        vm_id: number;
        state: string;
      }[];
      return vms.find((v) => v.vm_id === id)?.state;
    })
    .toBe('running');

  await page.goto('/payments');
  const history = page.getByRole('list', { name: 'Purchases and charges' });
  const line = history.getByRole('button', { name: new RegExp(`^Instance ${id} · A6000`) });
  await expect(line).toBeVisible();
  await expect(line).toContainText(/1 compute min \(\$[\d.]+\) · 1 storage min/);
  await expect(line).toHaveAttribute('aria-expanded', 'false');
  await line.click();
  await expect(line).toHaveAttribute('aria-expanded', 'true');
  const minutes = page.getByRole('list', { name: new RegExp(`^Minutes of instance ${id} on `) });
  // The storage minute it was created with, and the compute minute it became ready with.
  await expect(minutes.getByTestId('history-minute')).toHaveCount(2);
  await expect(minutes).toContainText(`Instance ${id}: minute`);

  // Filters: the demo credits are money in; the VM is usage; nothing was refunded.
  await page.getByRole('button', { name: 'Usage', exact: true }).click();
  await expect(history.getByTestId('history-line')).toHaveCount(1);
  await page.getByRole('button', { name: 'Purchases', exact: true }).click();
  await expect(history.getByTestId('history-line').first()).toContainText('Credit');
  await expect(history).not.toContainText(`Instance ${id}`);
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  await expect(page.getByText('No refunds yet.', { exact: true })).toBeVisible();

  const exported = page.getByRole('link', { name: 'Export CSV' });
  await expect(exported).toHaveAttribute('href', '/api/payments/history/export?type=refunds');
  const csv = await page.request.get('/api/payments/history/export?type=all');
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(await csv.text()).toContain(`Instance ${id} (A6000)`);
});

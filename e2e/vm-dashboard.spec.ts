import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { demoLogin, expect, holdAnswers, test, toastWith } from './fixtures';

/**
 * The VM dashboard: a demo visitor's VM on the in-process demo host, from
 * 'No Instances' through create, running, stop, start and terminate; the error toasts with the
 * server's own refusals; the signed-out card; 1280 and 390 px; the three themes.
 */

/** A demo visitor's own account ($100, a sandbox provider with demo-host listings). */
// Each test waits for the demo host (about 1.5 s per start) several times.
test.describe.configure({ timeout: 60_000 });

async function openDashboard(page: Page) {
  await page.goto('/vm-dashboard');
  await expect(page.getByRole('heading', { name: 'VM Dashboard', level: 1 })).toBeVisible();
}

/** Clicks Refresh until the card's status badge reads `status` (the demo host needs ~1.5 s). */
async function refreshUntil(page: Page, card: ReturnType<Page['getByTestId']>, status: string) {
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(card.getByTestId('vm-status')).toHaveText(status, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

async function createVm(page: Page, gpu: RegExp, cores?: string) {
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await expect(form).toBeVisible();
  await form.getByLabel('GPU Type').selectOption({ label: await optionLabel(page, gpu) });
  if (cores) await form.getByLabel('CPU Cores').fill(cores);
  await form.getByRole('button', { name: 'Create Instance' }).click();
  return form;
}

async function optionLabel(page: Page, pattern: RegExp): Promise<string> {
  // The GPU types arrive after the form opens.
  await expect(page.getByLabel('GPU Type').locator('option', { hasText: pattern })).not.toHaveCount(
    0,
  );
  const labels = await page.getByLabel('GPU Type').locator('option').allTextContents();
  const found = labels.find((l) => pattern.test(l));
  if (!found) throw new Error(`no GPU option like ${pattern} in ${labels.join(', ')}`);
  return found;
}

test('a VM from No Instances to running, stopped, started again and terminated, with every toast', async ({
  page,
}) => {
  await demoLogin(page.request);
  await openDashboard(page);
  await expect(page.getByText('No Instances', { exact: true })).toBeVisible();
  await expect(page.getByText('Create your first GPU instance to get started.')).toBeVisible();
  await expect(page.getByTestId('billing-Total Amount')).toHaveText('$0.00');
  await expect(page.getByTestId('billing-Unpaid Amount')).toHaveText('$0.00');
  await expect(page.getByTestId('billing-Total Hours')).toHaveText('0.0');
  await expect(page.getByTestId('billing-Active Instances')).toHaveText('0');

  // The form: spec defaults, bounds as attributes, Windows 11 shown disabled with the reason.
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await expect(form.getByLabel('GPU Type')).toHaveValue('RTX 4070');
  await expect(form.getByLabel('CPU Cores')).toHaveValue('4');
  await expect(form.getByLabel('CPU Cores')).toHaveAttribute('min', '2');
  await expect(form.getByLabel('CPU Cores')).toHaveAttribute('max', '16');
  await expect(form.getByLabel('RAM (GB)')).toHaveValue('16');
  await expect(form.getByLabel('RAM (GB)')).toHaveAttribute('max', '128');
  await expect(form.getByLabel('Disk (GB)')).toHaveValue('100');
  await expect(form.getByLabel('Disk (GB)')).toHaveAttribute('min', '50');
  await expect(form.getByLabel('Template')).toHaveValue('ubuntu22');
  await expect(form.locator('option[value="windows11"]')).toBeDisabled();
  await expect(form.getByText(/Windows 11: No host offers a Windows 11 image yet/)).toBeVisible();
  // Only GPU types that can be rented are offered (the Stockholm A100 80GB is rented out, but
  // Frankfurt has free ones, so the type is offered).
  await expect(
    form.getByLabel('GPU Type').locator('option', { hasText: /^RTX 4070 \(12GB\) - \$0\.70\/hr/ }),
  ).toHaveCount(1);
  // Out-of-bounds input is answered under the field, not by a browser bubble or the server.
  await form.getByLabel('CPU Cores').fill('99');
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(form.getByLabel('CPU Cores')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('CPU Cores')).toHaveAccessibleDescription(
    'Enter a whole number from 2 to 16.',
  );
  await expect(form).toBeVisible();
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  await expect(form).toBeHidden();

  await createVm(page, /^RTX 4070 /, '8');
  await expect(toastWith(page, 'VM Created')).toBeVisible();
  await expect(
    page.getByText('Your GPU instance is being created and will be ready shortly.').first(),
  ).toBeVisible();
  await expect(form).toBeHidden();
  const card = page.getByTestId('vm-card').first();
  await expect(card.getByTestId('vm-status')).toHaveText('creating');
  await expect(card.getByTestId('vm-uptime')).toHaveText('Not started');
  await expect(card.getByTestId('vm-cpu-cores')).toHaveText('8');
  await expect(card.getByTestId('vm-ram')).toHaveText('16 GB');
  await expect(card.getByTestId('vm-gpu')).toHaveText('RTX 4070 (12GB)');
  await expect(card.getByTestId('vm-hourly-rate')).toHaveText('$0.70/hr');
  await expect(card.getByRole('button', { name: 'Start' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(card.getByRole('region', { name: 'Connection info' })).toHaveCount(0);
  await expect(page.getByTestId('billing-Active Instances')).toHaveText('1');

  await refreshUntil(page, card, 'running');
  await expect(card.getByTestId('vm-uptime')).toHaveText('0h 0m');
  await expect(card.getByTestId('vm-ssh')).toHaveText(
    /^ssh -p \d+ -o HostKeyAlias=rentgpu-\d+ -o CheckHostIP=no ubuntu@gpu-\d+\.demo\.rentgpu\.dev$/,
  );
  await expect(card.getByTestId('vm-vnc')).toContainText('Not offered by this host');
  const id = (await card.getByTestId('vm-id').textContent()) ?? '';
  const consoleLink = card.getByRole('link', { name: 'Open Web Console' });
  await expect(consoleLink).toHaveAttribute('href', `/vm-dashboard/console/${id}`);
  await expect(consoleLink).toHaveAttribute('target', '_blank');
  for (const bar of ['GPU Usage', 'GPU Memory', 'Temperature']) {
    await expect(card.getByRole('progressbar', { name: bar })).toBeVisible();
  }
  await expect(card.getByTestId('vm-usage-source')).toHaveText('Simulated: demo hosts run no GPU.');
  await expect(card.getByRole('button', { name: 'Start' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(toastWith(page, 'VM Stopped')).toBeVisible();
  // Until its host confirms, it is stopping (grey), with no Start offered (docs/decisions/018).
  await expect(card.getByTestId('vm-status')).toHaveText(/^(stopping|stopped)$/);
  if ((await card.getByTestId('vm-status').textContent()) === 'stopping') {
    await expect(card.getByRole('button', { name: 'Start' })).toHaveCount(0);
  }
  await refreshUntil(page, card, 'stopped');
  await expect(card.getByTestId('vm-state')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(card.getByRole('region', { name: 'Connection info' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Start' }).click();
  await expect(toastWith(page, 'VM Started')).toBeVisible();
  await expect(card.getByTestId('vm-status')).toHaveText(/^(starting|running)$/);
  await refreshUntil(page, card, 'running');

  await card.getByRole('button', { name: 'Terminate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Terminate instance' });
  await expect(confirm).toContainText('Are you sure? This will permanently delete the instance.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByTestId('vm-status')).toHaveText('running');
  await card.getByRole('button', { name: 'Terminate' }).click();
  await confirm.getByRole('button', { name: 'Terminate' }).click();
  await expect(toastWith(page, 'VM Terminated')).toBeVisible();
  await expect(confirm).toBeHidden();
  await refreshUntil(page, card, 'terminated');
  await expect(card.getByRole('button', { name: 'Terminate' })).toBeDisabled();
  // Still listed: Active Instances counts every listed instance, terminated ones too.
  await expect(page.getByTestId('billing-Active Instances')).toHaveText('1');
});

test('the server’s refusals become the failure toasts', async ({ page }) => {
  await demoLogin(page.request);
  await openDashboard(page);

  // Create: the visitor's two sandbox A6000s are taken behind the open form's back.
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await form.getByLabel('GPU Type').selectOption({ label: await optionLabel(page, /^A6000 /) });
  for (let i = 0; i < 2; i += 1) {
    const made = await page.request.post('/api/kvm/instances', { data: { gpu_type: 'A6000' } });
    expect(made.status()).toBe(201);
  }
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(toastWith(page, 'Failed to Create VM')).toBeVisible();
  await expect(
    page
      .getByText('No A6000 is free right now. Choose another GPU type or try again later.')
      .first(),
  ).toBeVisible();
  await expect(form).toBeVisible(); // stays open on failure

  await page.getByRole('button', { name: 'Refresh' }).click();
  const first = page.getByTestId('vm-card').first();
  await refreshUntil(page, first, 'running');
  const id = (await first.getByTestId('vm-id').textContent()) ?? '';
  const card = page.getByRole('group', { name: `A6000 instance ${id}` });

  // Stop: already stopped elsewhere → 200, the stop is simply done (docs/decisions/018).
  expect((await page.request.post(`/api/kvm/instances/${id}/stop`)).status()).toBe(200);
  await card.getByRole('button', { name: 'Stop' }).click();
  await expect(toastWith(page, 'VM Stopped')).toBeVisible();
  await expect(card.getByTestId('vm-status')).toHaveText(/^(stopping|stopped)$/);

  // Start: started elsewhere first → 409 with the server's message.
  await refreshUntil(page, card, 'stopped');
  expect((await page.request.post(`/api/kvm/instances/${id}/start`)).status()).toBe(200);
  await card.getByRole('button', { name: 'Start' }).click();
  await expect(toastWith(page, 'Failed to Start VM')).toBeVisible();
  await expect(
    page.getByText(/An instance that is (starting|running) cannot start\./).first(),
  ).toBeVisible();

  // Terminate: terminated elsewhere first → 200, the card follows.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(card.getByTestId('vm-status')).toHaveText(/starting|running/);
  expect((await page.request.delete(`/api/kvm/instances/${id}`)).status()).toBe(200);
  await card.getByRole('button', { name: 'Terminate' }).click();
  await page
    .getByRole('dialog', { name: 'Terminate instance' })
    .getByRole('button', { name: 'Terminate' })
    .click();
  await expect(toastWith(page, 'VM Terminated')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Terminate instance' })).toBeHidden();
  await refreshUntil(page, card, 'terminated');

  // Start on an instance terminated behind a stopped card's back: truly impossible → 409.
  const ids = await page.getByTestId('vm-id').allTextContents();
  const otherId = ids.find((other) => other !== id) ?? '';
  const second = page.getByRole('group', { name: `A6000 instance ${otherId}` });
  await refreshUntil(page, second, 'running');
  expect((await page.request.post(`/api/kvm/instances/${otherId}/stop`)).status()).toBe(200);
  await refreshUntil(page, second, 'stopped');
  expect((await page.request.delete(`/api/kvm/instances/${otherId}`)).status()).toBe(200);
  await second.getByRole('button', { name: 'Start' }).click();
  await expect(toastWith(page, 'Failed to Start VM')).toBeVisible();
  await expect(
    page.getByText(/An instance that is (terminating|terminated) cannot start\./).first(),
  ).toBeVisible();
});

test('a session that ends shows Authentication Required', async ({ page }) => {
  await demoLogin(page.request);
  await openDashboard(page);
  await expect(page.getByText('No Instances', { exact: true })).toBeVisible();
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
  await expect(page.getByText('Please log in to access the VM dashboard.')).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`a running VM at ${width} px in the dark, light and pastel themes, without serious accessibility violations`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await demoLogin(page.request);
    await openDashboard(page);
    await createVm(page, /^RTX 4090 /);
    await expect(toastWith(page, 'VM Created')).toBeVisible();
    const card = page.getByTestId('vm-card').first();
    await refreshUntil(page, card, 'running');
    for (const theme of ['dark', 'light', 'pastel'] as const) {
      const saved = await page.request.patch('/api/user/theme', { data: { theme } });
      expect(saved.ok()).toBeTruthy();
      await page.reload();
      await expect(page.locator('html')).toHaveClass(new RegExp(`(^| )${theme}( |$)`));
      await expect(card.getByTestId('vm-status')).toHaveText('running');
      await page.getByRole('button', { name: 'Create New Instance' }).click();
      await expect(page.getByRole('form', { name: 'Create New Instance' })).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      if (overflow > 0)
        console.log(
          await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
              .slice(0, 8)
              .map(
                (e) =>
                  `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)} ${e.textContent?.slice(0, 40)}`,
              ),
          ),
        );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.mouse.move(0, 0); // no button left in its hover state
      expect(await seriousViolations(page, { theme }), `${theme} at ${width} px`).toEqual([]);
      await page.screenshot({
        path: info.outputPath(`vm-dashboard-${width}-${theme}.png`),
        fullPage: true,
      });
    }
  });
}

test('the create form opened before the GPU types arrive takes the default once they do', async ({
  page,
}) => {
  await demoLogin(page.request);
  // The GPU list answers late, as on a slow line: the form is open before it.
  const release = await holdAnswers(page, '**/api/kvm/gpus');
  await openDashboard(page);
  await page.getByRole('button', { name: 'Create New Instance' }).click();
  const form = page.getByRole('form', { name: 'Create New Instance' });
  await expect(form.getByLabel('GPU Type')).toBeDisabled();
  release();
  await expect(form.getByLabel('GPU Type')).not.toHaveValue('');
  await form.getByRole('button', { name: 'Create Instance' }).click();
  await expect(toastWith(page, 'VM Created')).toBeVisible();
});

import type { APIRequestContext, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { demoVisitorListings, expect, rentOneHour, test } from './fixtures';

/**
 * Small truths (issue 42, part 7): the dashboard's Rental History as cards on a phone (status,
 * charged and refunded in view, the reason in words, nothing to scroll sideways), the credit
 * history to the cent, a stopped VM's "ran for" and its storage still charged, and a stop time
 * that no longer counts down once the VM is stopping.
 */
test.describe.configure({ timeout: 90_000 });

/** How far the page reaches past the window's right edge (0: no horizontal scroll). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Polls one of the visitor's VMs until its state is one of `states`. */
async function vmState(request: APIRequestContext, id: number, states: string[]) {
  await expect
    .poll(async () => {
      const vms = (await (await request.get('/api/kvm/instances')).json()) as {
        vm_id: number;
        state: string;
      }[];
      return vms.find((v) => v.vm_id === id)?.state;
    })
    .toMatch(new RegExp(`^(${states.join('|')})$`));
}

async function themed(page: Page, theme: 'dark' | 'light') {
  expect((await page.request.patch('/api/user/theme', { data: { theme } })).ok()).toBeTruthy();
  await page.reload();
  await expect(page.locator('html')).toHaveClass(new RegExp(`(^| )${theme}( |$)`));
}

test('on a phone the Rental History is a list of cards: status, charged, refunded and the reason in view', async ({
  page,
}, info) => {
  const [listing] = await demoVisitorListings(page.request);
  if (!listing) throw new Error('the demo visitor has no sandbox listing');
  const rental = await rentOneHour(page.request, listing);
  // Ready first, so it completes (a rental stopped before it is ready is cancelled).
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/auth/user');
      const { id } = (await res.json()) as { id: string };
      const list = (await (await page.request.get(`/api/rentals/user/${id}`)).json()) as {
        id: number;
        phase: string;
      }[];
      return list.find((r) => r.id === rental.id)?.phase;
    })
    .toBe('ready');
  expect((await page.request.patch(`/api/rentals/${rental.id}/stop`)).ok()).toBeTruthy();
  // The settlement's line in the credit history says why in words, too.
  const refunds = (await (await page.request.get('/api/payments/history?type=refunds')).json()) as {
    entries: { description: string }[];
  };
  expect(refunds.entries.map((e) => e.description)).toContainEqual(
    expect.stringMatching(new RegExp(`^Rental ${rental.id}: \\d+ s used \\(stopped by you\\)$`)),
  );

  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const theme of ['dark', 'light'] as const) {
      if (width === 390 && theme === 'dark') await page.goto('/dashboard');
      await themed(page, theme);
      const history = page.getByRole('list', { name: 'Rental history' });
      const card = history.getByTestId('history-row').first();
      await expect(card).toBeVisible();
      // Every figure is labelled and on screen, at every width.
      for (const label of ['Started', 'Runtime', 'Status', 'Charged', 'Refunded']) {
        await expect(card.getByRole('term').filter({ hasText: label })).toHaveCount(1);
      }
      await card.scrollIntoViewIfNeeded();
      for (const id of ['history-status', 'history-charged', 'history-refunded']) {
        await expect(card.getByTestId(id)).toBeInViewport();
        const box = await card.getByTestId(id).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `${id} at ${width} px`).toBe(true);
      }
      await expect(card.getByTestId('history-status')).toContainText('Completed');
      await expect(card.getByTestId('history-status')).toContainText('Stopped by you');
      await expect(card).not.toContainText('(user)');
      await expect(card.getByTestId('history-charged')).toHaveText(/^\$\d+\.\d{2}$/);
      await expect(card.getByTestId('history-refunded')).toHaveText(/^\$\d+\.\d{2}$/);
      expect(await overflow(page), `${theme} at ${width} px`).toBeLessThanOrEqual(0);
      await page.mouse.move(0, 0);
      expect(await seriousViolations(page, { theme }), `${theme} at ${width} px`).toEqual([]);
      await page.screenshot({ path: info.outputPath(`rental-history-${width}-${theme}.png`) });
    }
  }
  // On a phone the figures sit under the GPU, in the card; from md up they are a row.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = page.getByTestId('history-row').first();
  const gpu = await card.getByText(listing.model, { exact: true }).boundingBox();
  const refunded = await card.getByTestId('history-refunded').boundingBox();
  expect(refunded && gpu && refunded.y > gpu.y).toBe(true);
});

test('the credit history shows cents on a phone, its minutes reachable by keyboard', async ({
  page,
}, info) => {
  await demoVisitorListings(page.request);
  const made = await page.request.post('/api/kvm/instances', { data: { gpu_type: 'A6000' } });
  expect(made.status()).toBe(201);
  const { vm_id: id } = (await made.json()) as { vm_id: number };
  await vmState(page.request, id, ['running']);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/payments');
  const history = page.getByRole('list', { name: 'Purchases and charges' });
  const line = history.getByRole('button', { name: new RegExp(`^Instance ${id} · A6000`) });
  await expect(line).toBeVisible();
  // The usage line's figures to the cent and its day as every other date ("Nov 22, 2026").
  await expect(line).toContainText(
    /compute min \((\$\d+\.\d{2}|<\$0\.01)\) · \d+ storage min \((\$\d+\.\d{2}|<\$0\.01)\) · [A-Z][a-z]{2} \d{1,2}, \d{4}/,
  );
  await line.click();
  const minutes = page.getByRole('list', { name: new RegExp(`^Minutes of instance ${id} on `) });
  await expect(minutes.getByTestId('history-minute')).toHaveCount(2);
  for (const amount of await page.getByTestId('history-amount').allTextContents()) {
    expect(amount).toMatch(/^[+-](\$[\d,]+\.\d{2}|<\$0\.01)$/);
  }
  // A storage minute of 100 GB is $0.001667: it moved, so it is not "$0.00".
  await expect(minutes.getByTestId('history-amount').filter({ hasText: '<$0.01' })).not.toHaveCount(
    0,
  );
  await expect(minutes).toHaveAttribute('tabindex', '0');
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: info.outputPath('credit-history-390-dark.png'), fullPage: true });

  // The export keeps the exact figure in a column of its own.
  const csv = await (await page.request.get('/api/payments/history/export?type=usage')).text();
  const [head, row] = csv.trim().split('\r\n');
  expect(head).toMatch(/,amount,amount_exact,currency$/);
  const [amount, exact] = (row ?? '').split(',').slice(-3, -1);
  expect(amount).toMatch(/^-\d+\.\d{2}$/);
  expect(exact).toMatch(/^-\d+\.\d+$/);
});

test('a stopped VM says how long it ran and that its disk is still charged; its stop time stops counting', async ({
  page,
}, info) => {
  await demoVisitorListings(page.request);
  const stopAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const made = await page.request.post('/api/kvm/instances', {
    data: { gpu_type: 'A6000', disk_gb: 100 },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { vm_id: id } = (await made.json()) as { vm_id: number };
  await vmState(page.request, id, ['running']);
  const scheduled = await page.request.patch(`/api/kvm/instances/${id}`, {
    data: { stop_at: stopAt },
  });
  expect(scheduled.ok(), await scheduled.text()).toBeTruthy();

  await page.goto('/vm-dashboard');
  const card = page.getByRole('group', { name: `A6000 instance ${id}` });
  await expect(card.getByTestId('vm-stop-countdown')).toHaveText(/^1h 5\dm$/);
  await expect(card.getByTestId('vm-storage-note')).toHaveCount(0);

  await card.getByRole('button', { name: 'Stop', exact: true }).click();
  // Stopping or already stopped: either way the stop time no longer counts down.
  await expect(card.getByTestId('vm-status')).toHaveText(/^(stopping|stopped)$/);
  await expect(card.getByTestId('vm-stop-countdown')).toHaveCount(0);
  await expect(card.getByTestId('vm-stop-at')).toContainText(
    /^(Stopping now|Stopped: the stop time applies)/,
  );

  await vmState(page.request, id, ['stopped']);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(card.getByTestId('vm-status')).toHaveText('stopped');
  await expect(card.getByTestId('vm-stop-countdown')).toHaveCount(0);
  await expect(card.getByTestId('vm-stop-at')).toContainText(
    'Stopped: the stop time applies if it is started again',
  );
  // It ran at least the minute it was charged when it became ready.
  await expect(card.getByTestId('vm-uptime')).toHaveText(/^Ran for \d+h \d+m$/);
  await expect(card.getByTestId('vm-uptime')).not.toHaveText('Ran for 0h 0m');
  await expect(card.getByTestId('vm-storage-note')).toHaveText(
    'Stopped: compute is not charged, its 100 GB disk still is ($0.10/hr) until you terminate it.',
  );
  await expect(page.getByTestId('billing-stopped-note')).toHaveText(
    '1 stopped instance is still charged for storage until terminated.',
  );
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`vm-stopped-${width}.png`) });
  }
});

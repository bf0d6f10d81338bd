import type { Page } from '@playwright/test';
import { demoLogin, expect, test, toastWith } from './fixtures';

/**
 * Choosing by comparing (issue 42, part 1): the marketplace's filters live in the address, two
 * offers picked from the cards are compared side by side and rented from there, and the compare
 * view stacks on a phone.
 */
test.describe.configure({ timeout: 90_000 });

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

async function signIn(page: Page) {
  await demoLogin(page.request);
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible();
  await expect(page.getByTestId('listing-card').first()).toBeVisible({ timeout: 15_000 });
}

/** The price per GPU-hour of each card shown, in order. */
async function gpuHourPrices(page: Page): Promise<number[]> {
  // "$4.13/GPU-hr · 4 GPUs": the price is what comes before "/GPU-hr".
  return (await page.getByTestId('gpu-hour-rate').allTextContents()).map((text) =>
    money(text.split('/GPU-hr')[0] ?? ''),
  );
}

test('a renter filters, compares two offers side by side and rents one from the compare view', async ({
  page,
}) => {
  await signIn(page);

  await page.getByRole('combobox', { name: 'Minimum GPU memory' }).selectOption('80');
  await expect(page).toHaveURL(/[?&]vram=80(&|$)/);
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('gpu-price-asc');
  await expect(page).toHaveURL(/[?&]sort=gpu-price-asc(&|$)/);
  // The new sort is a new page: the cards are read once it has loaded (the previous cards can
  // still show for a moment after the address changes, then the skeletons replace them).
  const sorted = (prices: number[]) =>
    prices.every((price, i) => i === 0 || (prices[i - 1] ?? price) <= price);
  await expect
    .poll(async () => {
      const busy = await page
        .getByRole('region', { name: 'GPU listings' })
        .getAttribute('aria-busy');
      const prices = await gpuHourPrices(page);
      return busy === 'false' && prices.length >= 2 && sorted(prices);
    })
    .toBe(true);
  // Every card has 80 GB on each GPU, cheapest GPU-hour first.
  const memories = await page
    .getByTestId('listing-card')
    .evaluateAll((cards) => cards.map((card) => card.querySelector('dd')?.textContent ?? ''));
  expect(memories.length).toBeGreaterThanOrEqual(2);
  for (const memory of memories) expect(Number.parseInt(memory, 10)).toBeGreaterThanOrEqual(80);
  const prices = await gpuHourPrices(page);
  expect(prices).toEqual([...prices].sort((a, b) => a - b));

  // Pick the two cheapest per GPU-hour that can be rented.
  const rentable = page
    .getByTestId('listing-card')
    .filter({ has: page.getByRole('button', { name: 'Rent Now', disabled: false }) });
  const first = rentable.nth(0);
  const second = rentable.nth(1);
  const names = [await first.getAttribute('aria-label'), await second.getAttribute('aria-label')];
  await first.getByRole('checkbox', { name: 'Compare' }).check();
  const bar = page.getByRole('region', { name: 'Compare offers' });
  await expect(bar).toContainText('pick at least one more');
  await expect(bar.getByRole('button', { name: 'Compare (1)' })).toBeDisabled();
  await second.getByRole('checkbox', { name: 'Compare' }).check();
  await bar.getByRole('link', { name: 'Compare (2)' }).click();

  await expect(page).toHaveURL(/\/compare\?ids=\d+,\d+$/);
  await expect(page.getByRole('heading', { name: 'Compare GPUs', level: 1 })).toBeVisible();
  const table = page.getByTestId('compare-table');
  const columns = table.getByRole('columnheader');
  await expect(columns).toHaveCount(2);
  for (const [i, name] of names.entries()) {
    const [model, company] = (name ?? '').split(' from ');
    await expect(columns.nth(i)).toContainText(model ?? '');
    await expect(columns.nth(i)).toContainText(company ?? '');
  }
  // The GPU-hour row marks in words the column whose price is lowest, if they differ.
  const row = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Price per GPU-hour' }) });
  const cells = row.getByRole('cell');
  await expect(cells).toHaveCount(2);
  const texts = await cells.allTextContents();
  const values = texts.map((t) => money(t.replace('Lowest', '')));
  const lowest = Math.min(...values);
  for (const [i, text] of texts.entries()) {
    const marked = text.includes('Lowest');
    expect(marked, `column ${i}: ${text}`).toBe(values[0] !== values[1] && values[i] === lowest);
  }
  for (const label of [
    'VRAM per GPU',
    'vCPUs per GPU',
    'RAM per GPU',
    'Disk',
    'Reliability',
    'Location',
    'Host status',
    'Kinds',
  ]) {
    await expect(table.getByRole('rowheader', { name: label, exact: true })).toBeVisible();
  }

  const before = money(await page.getByTestId('credit-balance').textContent());
  await table
    .getByRole('button', { name: `Rent ${(names[0] ?? '').replace(' from ', ' · ')}` })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Rent / });
  await dialog.getByLabel('Duration (hours)').fill('1');
  const total = money(await dialog.getByTestId('rent-total').textContent());
  await dialog.getByRole('button', { name: 'Confirm Rental' }).click();
  await expect(toastWith(page, 'GPU Rented Successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('credit-balance')).toHaveText(`$${(before - total).toFixed(2)}`);
});

test("the marketplace's filters survive a reload and the back button returns to the ones before", async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('combobox', { name: 'GPUs per rental' }).selectOption('1');
  await expect(page).toHaveURL(/[?&]gpus=1(&|$)/);
  await page.getByRole('combobox', { name: 'Maximum price per GPU-hour' }).selectOption('2');
  await expect(page).toHaveURL(/[?&]gpus=1&maxGpuHour=2$/);
  for (const price of await gpuHourPrices(page)) expect(price).toBeLessThanOrEqual(2);

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'GPUs per rental' })).toHaveValue('1');
  await expect(page.getByRole('combobox', { name: 'Maximum price per GPU-hour' })).toHaveValue('2');
  await expect(page.getByTestId('listing-card').first()).toBeVisible();
  for (const price of await gpuHourPrices(page)) expect(price).toBeLessThanOrEqual(2);

  await page.goBack();
  await expect(page).toHaveURL(/[?&]gpus=1$/);
  await expect(page.getByRole('combobox', { name: 'Maximum price per GPU-hour' })).toHaveValue('');
  await page.goBack();
  await expect(page).toHaveURL(/\/marketplace$/);
  await expect(page.getByRole('combobox', { name: 'GPUs per rental' })).toHaveValue('');
});

test('on a phone the compare view stacks one card per offer, and names an unknown id', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const listed = await page.request.get('/api/gpu-listings?limit=3');
  const ids = ((await listed.json()) as { id: number }[]).map((l) => l.id);
  expect(ids).toHaveLength(3);
  await page.goto(`/compare?ids=${ids.join(',')},99999999`);
  await expect(page.getByTestId('compare-card')).toHaveCount(3);
  await expect(page.getByTestId('compare-table')).toBeHidden();
  await expect(page.getByTestId('compare-missing')).toHaveText(
    'Listing #99999999 is not in the marketplace: it was removed, or never existed.',
  );
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((el) => `${el.tagName}.${el.className}`),
  );
  expect(wide).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

import { expect, test, toastWith } from './fixtures';

/**
 * Double-clicking Confirm Rental rents once and charges once: the dialog sends one
 * Idempotency-Key per opening and ignores clicks while its request is pending.
 */
test('double-clicking Confirm Rental makes one rental and one charge', async ({
  signedInPage: page,
}) => {
  test.setTimeout(90_000);
  const rentKeys: (string | null)[] = [];
  const orderKeys: (string | null)[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const path = new URL(request.url()).pathname;
    if (path === '/api/rentals') rentKeys.push(request.headers()['idempotency-key'] ?? null);
    if (path === '/api/payments/paypal/order')
      orderKeys.push(request.headers()['idempotency-key'] ?? null);
  });

  // Credits first: the Standard package through the PayPal stand-in ($50 + $7 bonus).
  await page.goto('/payments');
  await page.getByRole('button', { name: 'PayPal', exact: true }).click();
  await expect(page.getByTestId('payments-balance')).toHaveText('$57.00');
  expect(orderKeys).toHaveLength(1);
  expect(orderKeys[0]).toMatch(/^[0-9a-f-]{36}$/);

  await page.goto('/marketplace');
  // The first offer that can be rented now (a seeded one may be fully rented).
  const card = page
    .getByTestId('listing-card')
    .filter({ has: page.getByRole('button', { name: 'Rent Now', disabled: false }) })
    .first();
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Rent Now' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Duration (hours)').fill('1');
  const total = Number(
    ((await dialog.getByTestId('rent-total').textContent()) ?? '').replace(/[^0-9.]/g, ''),
  );
  await dialog.getByRole('button', { name: 'Confirm Rental' }).dblclick();
  await expect(toastWith(page, 'GPU Rented Successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  // One charge: the balance fell by the total once, and the ledger shows one rental charge.
  await expect(page.getByTestId('credit-balance')).toHaveText(`$${(57 - total).toFixed(2)}`);
  expect(rentKeys.length).toBeGreaterThanOrEqual(1);
  expect(new Set(rentKeys).size).toBe(1);
  expect(rentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);

  const me = await page.request.get('/api/auth/user');
  const user = (await me.json()) as { id: string; credits: string };
  expect(user.credits).toBe((57 - total).toFixed(2));
  const list = await page.request.get(`/api/rentals/user/${user.id}`);
  expect((await list.json()) as unknown[]).toHaveLength(1);
  const { entries: history } = (await (await page.request.get('/api/payments/history')).json()) as {
    entries: { amount: string }[];
  };
  // The purchase, its bonus, and one rental charge.
  const charges = history.filter((entry) => entry.amount.startsWith('-'));
  expect(charges.map((entry) => entry.amount)).toEqual([`-${total.toFixed(2)}`]);

  await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  await expect(page.getByTestId('active-rental')).toHaveCount(1);
});

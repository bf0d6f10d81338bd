import { execFileSync } from 'node:child_process';
import type { Download, Page } from '@playwright/test';
import { demoVisitorListings, expect, rentOneHour, test, toastWith } from './fixtures';

/**
 * Invoices and receipts people can keep: the demo account rents and stops a GPU, opens the
 * rental's invoice from its history, downloads the PDF and reads its totals back with
 * pdftotext (poppler-utils, scripts/test-prereqs.sh); a sandbox credit purchase has a receipt
 * whose PDF says what the page says.
 */

/** The text of a downloaded PDF, as pdftotext lays it out. */
async function pdfText(download: Download): Promise<string> {
  const path = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(path);
  return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
}

/** The dollar figure on the line of the PDF's text that begins with `label`. */
function figure(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.trim().startsWith(label));
  const match = /(-?\$[\d,]+\.\d+)/.exec(line ?? '');
  if (!match?.[1]) throw new Error(`no "${label}" figure in:\n${text}`);
  return match[1];
}

async function downloadPdf(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Download PDF/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^rentgpu-.+\.pdf$/);
  return pdfText(download);
}

test('the demo account rents and stops a GPU, opens its invoice and keeps the PDF with the same totals', async ({
  page,
}) => {
  test.slow();
  const [listing] = await demoVisitorListings(page.request);
  if (!listing) throw new Error('the demo visitor has no listing of its own');
  const rental = await rentOneHour(page.request, listing);
  const stop = await page.request.patch(`/api/rentals/${rental.id}/stop`);
  expect(stop.ok(), await stop.text()).toBeTruthy();

  await page.goto('/dashboard');
  await page.getByRole('link', { name: `Invoice of rental #${rental.id}` }).click();
  await expect(
    page.getByRole('heading', { name: `Invoice for instance #${rental.id} (${listing.model})` }),
  ).toBeVisible();
  const lines = page.getByTestId('invoice-line');
  await expect(lines.first()).toBeVisible();
  await expect(lines.filter({ hasText: 'Compute' }).first()).toContainText(
    `Booking: 1 h of ${listing.model} at $${listing.hourlyRate}/h`,
  );
  await expect(lines.filter({ hasText: 'Storage add-on' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'Refund' })).toHaveCount(1);

  const shown = {
    compute: await page.getByTestId('invoice-compute').textContent(),
    storage: await page.getByTestId('invoice-storage').textContent(),
    refunds: await page.getByTestId('invoice-refunds').textContent(),
    total: await page.getByTestId('invoice-total').textContent(),
  };
  expect(shown.compute).toBe(`$${listing.hourlyRate}`);
  expect(shown.storage).toBe('$2.50');
  expect(shown.refunds).toMatch(/^-\$\d+\.\d{2}$/);
  // The total is what the booking and add-on cost less the refund, to the cent.
  const cents = (s: string | null) => Math.round(Number((s ?? '').replace(/[^0-9.-]/g, '')) * 100);
  expect(cents(shown.total)).toBe(
    cents(shown.compute) + cents(shown.storage) + cents(shown.refunds),
  );
  // The same invoice as the server's JSON (and so v1's: one computation).
  const api = await page.request.get(`/api/invoices/instances/${rental.id}`);
  const { invoice } = await api.json();
  expect(shown.total).toBe(`$${invoice.totals.total} USD`);
  expect(invoice.instanceInvoice.total).toBe(invoice.totals.total);

  const text = await downloadPdf(page);
  expect(text).toContain(`Invoice for instance #${rental.id} (${listing.model})`);
  expect(text).toContain(`INV-${rental.id}`);
  expect(figure(text, 'Compute')).toBe(shown.compute);
  expect(figure(text, 'Storage')).toBe(shown.storage);
  expect(figure(text, 'Refunds and credits')).toBe(shown.refunds);
  expect(`${figure(text, 'Total')} USD`).toBe(shown.total);

  // The month's invoice holds the rental too, and its PDF reads back the month's total.
  const month = invoice.days[0].day.slice(0, 7);
  await page.goto(`/invoices/month/${month}`);
  await expect(page.getByRole('heading', { name: /^Invoice for \w+ \d{4}$/ })).toBeVisible();
  await expect(page.getByRole('link', { name: `#${rental.id} ${listing.model}` })).toBeVisible();
  const monthTotal = await page.getByTestId('invoice-total').textContent();
  expect(`${figure(await downloadPdf(page), 'Total')} USD`).toBe(monthTotal);
});

test('a sandbox credit purchase has a receipt, on the page and as a PDF', async ({ browser }) => {
  test.slow();
  const port = Number(process.env.E2E_SANDBOX_PORT ?? Number(process.env.E2E_PORT ?? 5199) + 100);
  const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
  const page = await context.newPage();
  try {
    await page.request.post('/api/login');
    await page.goto('/payments');
    const receipts = page.getByRole('link', { name: /^Receipt RCPT-/ });
    const before = await receipts.count();
    await page
      .getByTestId('paypal-sandbox')
      .getByRole('button', { name: 'Pay with PayPal Sandbox' })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await expect(toastWith(page, 'Payment Successful')).toBeVisible();
    await expect(receipts).toHaveCount(before + 1);

    await receipts.first().click();
    await expect(page.getByRole('heading', { name: 'Receipt for credits' })).toBeVisible();
    const credits = page.getByTestId('receipt-credits');
    await expect(credits).toHaveText('$57.00 USD');
    const text = await downloadPdf(page);
    expect(text).toContain('Receipt for credits');
    expect(figure(text, 'Amount paid')).toBe('$50.00');
    expect(figure(text, 'Bonus credits')).toBe('$7.00');
    expect(`${figure(text, 'Credits added')} USD`).toBe(await credits.textContent());
  } finally {
    await context.close();
  }
});

import type { Locator, Page } from '@playwright/test';
import type { GpuListingView } from '../shared/contracts/listings';
import { LISTING_TEXT } from '../shared/listing-text';
import { demoLogin, expect, test } from './fixtures';
import { transitionsEnded } from './themes';

/*
 * The Add New GPU Listing dialog says under each field what is wrong: its own checks when
 * required fields are empty, and the server's when the memory is not the model's (a listing
 * sells a catalogue GPU as it is, docs/rules.md). A listing saved without a host is its
 * provider's to see, marked not connected. Each Demo Login is a provider of its own.
 */

function uniqueLocation(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}, Norway`;
}

/** A field's control by its label, which a required field ends with a * (hidden from readers). */
function field(dialog: Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return dialog.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}

/** The message under a field, and that its control is marked invalid and described by it. */
async function expectFieldError(dialog: Locator, label: string, message: string) {
  const control = field(dialog, label);
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  const describedBy = await control.getAttribute('aria-describedby');
  expect(describedBy, `${label} is described by its message`).toBeTruthy();
  await expect(dialog.locator(`[id="${describedBy}"]`)).toHaveText(message);
}

/**
 * A toast's title and description. By text, not inside the toast region: while the dialog is
 * open the rest of the page is hidden from the accessibility tree, the region included.
 */
async function expectToast(page: Page, title: string, description: string) {
  await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(description, { exact: true }).first()).toBeVisible();
}

async function screens(page: Page, name: string) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('dark', 'light', 'pastel');
      document.documentElement.classList.add(t);
    }, theme);
    // A screenshot taken while the colours are still moving shows neither theme.
    await transitionsEnded(page);
    const width = page.viewportSize()?.width ?? 0;
    await page.screenshot({ path: `test-results/screens/listing-${name}-${width}-${theme}.png` });
  }
}

async function openAddListing(page: Page): Promise<Locator> {
  await page.goto('/provider');
  await page.getByRole('button', { name: 'Add New GPU Listing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New GPU Listing' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('the Add New GPU Listing form at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('shows what is missing under the fields, refuses a memory not the model’s there, and saves the fixed listing as not connected', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const location = uniqueLocation('Formdal');
    await demoLogin(page.request);
    const dialog = await openAddListing(page);
    const add = dialog.getByRole('button', { name: 'Add GPU Listing' });

    // Nothing filled in: the spec's toast, and a message under each required field.
    await add.click();
    await expectToast(page, LISTING_TEXT.missingTitle, LISTING_TEXT.missingDescription);
    await expectFieldError(dialog, 'GPU Model', LISTING_TEXT.fields.model);
    await expectFieldError(dialog, 'Memory', LISTING_TEXT.fields.memory);
    await expectFieldError(dialog, 'Location', LISTING_TEXT.fields.location);
    await expectFieldError(dialog, 'Hourly Rate (USD)', LISTING_TEXT.fields.hourlyRate);
    // The first invalid field takes the focus; the optional ones are not marked.
    await expect(field(dialog, 'GPU Model')).toBeFocused();
    await expect(dialog.getByLabel('CUDA Cores')).not.toHaveAttribute('aria-invalid', 'true');
    await screens(page, 'missing');

    // Choosing a model fills in its catalogue memory and clears both fields' messages.
    await field(dialog, 'GPU Model').selectOption('RTX 4090');
    await expect(field(dialog, 'Memory')).toHaveValue('24GB');
    await expect(field(dialog, 'Memory')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(LISTING_TEXT.fields.model, { exact: true })).toHaveCount(0);
    // The message of a field the provider has not changed yet stays.
    await expectFieldError(dialog, 'Location', LISTING_TEXT.fields.location);

    // An RTX 4090 with 8 GB: the server refuses it, its reason under Memory, which takes the focus.
    await field(dialog, 'Memory').selectOption('8GB');
    await field(dialog, 'Location').fill(location);
    await field(dialog, 'Hourly Rate (USD)').fill('0.95');
    await add.click();
    await expectToast(page, 'Failed to Add GPU', 'memory: An RTX 4090 has 24 GB');
    await expectFieldError(dialog, 'Memory', 'An RTX 4090 has 24 GB');
    await expect(field(dialog, 'Memory')).toBeFocused();
    await expect(dialog).toBeVisible();
    const mine = await page.request.get(`/api/gpu-listings?model=${encodeURIComponent(location)}`);
    expect((await mine.json()) as GpuListingView[]).toEqual([]);
    await screens(page, 'memory-refused');

    // Fixed, with no host chosen: saved, and it says it is not in the marketplace yet.
    await field(dialog, 'Memory').selectOption('24GB');
    await expect(dialog.getByText('An RTX 4090 has 24 GB', { exact: true })).toHaveCount(0);
    await expect(field(dialog, 'Host')).toHaveValue('');
    await add.click();
    await expectToast(page, LISTING_TEXT.addedTitle, LISTING_TEXT.addedWithoutHostDescription);
    await expect(dialog).toBeHidden();

    const item = page.getByTestId('provider-listing').filter({ hasText: location });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('RTX 4090');
    await expect(item).toContainText('24GB');
    await expect(item.getByTestId('listing-not-connected')).toHaveText(LISTING_TEXT.notConnected);
    await expect(item.getByTestId('listing-host-notice')).toHaveText(
      LISTING_TEXT.notConnectedNotice,
    );
    await expect(item).toHaveAccessibleDescription(LISTING_TEXT.notConnectedNotice);
    await item.scrollIntoViewIfNeeded();
    await screens(page, 'not-connected');

    // Its provider's own list carries it with no host.
    const user = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
    const provider = (await (await page.request.get(`/api/providers/user/${user.id}`)).json()) as {
      id: number;
    };
    const own = (await (
      await page.request.get(`/api/gpu-listings?providerId=${provider.id}&limit=100`)
    ).json()) as GpuListingView[];
    const saved = own.find((l) => l.location === location);
    expect(saved).toMatchObject({ model: 'RTX 4090', memory: '24GB', hostStatus: 'none' });
    if (saved) await page.request.delete(`/api/gpu-listings/${saved.id}`);
  });
});

test.describe('the Add New GPU Listing form at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the messages under the fields on a phone, the page no wider than the screen', async ({
    page,
  }) => {
    await demoLogin(page.request);
    const dialog = await openAddListing(page);
    await dialog.getByRole('button', { name: 'Add GPU Listing' }).click();
    await expectFieldError(dialog, 'GPU Model', LISTING_TEXT.fields.model);
    await expect(dialog.getByText(LISTING_TEXT.fields.hourlyRate, { exact: true })).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screens(page, 'missing');
  });
});

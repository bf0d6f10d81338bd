import type { APIRequestContext, Page } from '@playwright/test';
import type { RentalView } from '../shared/contracts/rentals';
import { formatDate } from '../shared/rules/time';
import { demoLogin, expect, holdAnswers, ownDemoListings, rentOneHour, test } from './fixtures';

/** What a newcomer noticed (issue 8, item 9): each papercut has a check here. */

/**
 * Rents one hour of one of the demo visitor's own sandbox listings through the API (a shared
 * listing's last free unit may be taken by another test between the page and the rent: CI saw
 * 409 CAPACITY_UNAVAILABLE); the test stops it after.
 */
async function rentByApi(request: APIRequestContext, userId: string): Promise<RentalView> {
  const listing = (await ownDemoListings(request, userId)).find((l) => l.availableCount > 0);
  if (!listing) throw new Error('no sandbox listing of its own to rent');
  return rentOneHour(request, listing);
}

/** Sum of layout-shift entries without recent input since the page began (buffered). */
function layoutShiftTotal(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
      }),
  );
}

test.describe('marketplace on a phone', () => {
  test.use({ viewport: { width: 412, height: 823 } });

  test('loads without layout shift: the footer stays below the fold and CLS stays under 0.1', async ({
    signedInPage: page,
  }) => {
    // Hold the listings back so the placeholders are on screen first, as on a slow network.
    const release = await holdAnswers(page, '**/api/gpu-listings**');
    await page.goto('/marketplace');
    await expect(page.getByTestId('listing-skeleton').first()).toBeVisible();
    const skeletonHeight = await page
      .getByTestId('listing-skeleton')
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    const footerTop = () => page.locator('footer').evaluate((el) => el.getBoundingClientRect().top);
    expect(await footerTop()).toBeGreaterThanOrEqual(823);

    release();
    await expect(page.getByTestId('listing-card').first()).toBeVisible();
    const cardHeight = await page
      .getByTestId('listing-card')
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    expect(Math.abs(cardHeight - skeletonHeight)).toBeLessThanOrEqual(2);
    expect(await footerTop()).toBeGreaterThanOrEqual(823);
    expect(await layoutShiftTotal(page)).toBeLessThanOrEqual(0.1);
  });
});

test.describe('marketplace at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('each card shows company, verified mark and rating in full', async ({
    signedInPage: page,
  }) => {
    await page.goto('/marketplace');
    await expect(page.getByTestId('listing-card').first()).toBeVisible({ timeout: 15_000 });
    const shown = await page.getByTestId('listing-card').evaluateAll((cards) =>
      cards.map((card) => {
        // A card off screen is skipped (content-visibility: auto): no layout, an empty innerText.
        (card as HTMLElement).style.contentVisibility = 'visible';
        const line = card.querySelector<HTMLElement>('[data-testid="provider-line"]');
        return {
          company: (card.getAttribute('aria-label') ?? '').split(' from ')[1] ?? '',
          text: line?.innerText ?? '',
          fits: line ? line.scrollWidth <= line.clientWidth : false,
          verified: line?.querySelector('[aria-label="Verified provider"]') != null,
        };
      }),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const line of shown) {
      expect(line.fits).toBe(true);
      expect(line.text).toContain(line.company);
      expect(line.text).toMatch(/\d\.\d$/);
    }
    // The seeded providers are verified; their mark is shown.
    expect(shown.some((line) => line.verified)).toBe(true);
  });

  test('the calculator keeps hours within 1–167 and days within 0–30', async ({
    signedInPage: page,
  }) => {
    await page.goto('/marketplace');
    await expect(page.getByTestId('listing-card').first()).toBeVisible({ timeout: 15_000 });
    const hours = page.getByRole('spinbutton', { name: 'Hours' });
    const days = page.getByRole('spinbutton', { name: 'Days' });
    await expect(hours).toHaveValue('24');
    await hours.fill('500');
    await expect(hours).toHaveValue('167');
    await hours.fill('0');
    await expect(hours).toHaveValue('1');
    await days.fill('99');
    await expect(days).toHaveValue('30');
    await days.fill('-3');
    await expect(days).toHaveValue('0');
  });
});

test('disabled buttons look disabled: muted, dashed and the not-allowed cursor', async ({
  signedInPage: page,
}) => {
  await page.goto('/marketplace');
  await expect(page.getByTestId('listing-card').first()).toBeVisible({ timeout: 15_000 });
  const rented = page.getByTestId('listing-card').filter({ hasText: 'Rented' }).first();
  const button = rented.getByRole('button', { name: 'Rent Now' });
  await expect(button).toBeDisabled();
  const look = await button.evaluate((el) => {
    const style = getComputedStyle(el);
    return { cursor: style.cursor, borderStyle: style.borderTopStyle };
  });
  expect(look).toEqual({ cursor: 'not-allowed', borderStyle: 'dashed' });
});

test.describe('renter dashboard on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the SSH command wraps inside the card and the page does not scroll sideways', async ({
    page,
  }) => {
    const userId = await demoLogin(page.request);
    const rental = await rentByApi(page.request, userId);
    try {
      await page.goto('/dashboard');
      const card = page.getByRole('group', {
        name: `${rental.gpuListing.model} rental ${rental.id}`,
      });
      const command = card.getByTestId('ssh-command');
      await expect(command).toHaveText(
        new RegExp(
          `^ssh -p \\d+ -o HostKeyAlias=rentgpu-${rental.id} -o CheckHostIP=no \\S+@\\S+$`,
        ),
        { timeout: 15_000 },
      );
      const box = await command.boundingBox();
      const cardBox = await card.boundingBox();
      if (!box || !cardBox) throw new Error('not laid out');
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      expect(await command.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
    } finally {
      await page.request.patch(`/api/rentals/${rental.id}/stop`);
    }
  });
});

test('dates on the dashboard use the one format, in the time zone of the user settings', async ({
  page,
}) => {
  const userId = await demoLogin(page.request);
  const settings = (await (await page.request.get(`/api/users/${userId}/settings`)).json()) as {
    preferences: { timezone: string };
  };
  const before = settings.preferences.timezone;
  const rental = await rentByApi(page.request, userId);
  try {
    const changed = {
      ...settings,
      preferences: { ...settings.preferences, timezone: 'Asia/Tokyo' },
    };
    expect(
      (await page.request.patch(`/api/users/${userId}/settings`, { data: changed })).ok(),
    ).toBe(true);
    await page.goto('/dashboard');
    const card = page.getByRole('group', {
      name: `${rental.gpuListing.model} rental ${rental.id}`,
    });
    const bookedUntil = formatDate(rental.endsAt, {
      timeZone: 'Asia/Tokyo',
      language: 'en',
      withTime: true,
    });
    await expect(card.getByText(bookedUntil, { exact: true })).toBeVisible();
  } finally {
    await page.request.patch(`/api/rentals/${rental.id}/stop`);
    const restored = { ...settings, preferences: { ...settings.preferences, timezone: before } };
    await page.request.patch(`/api/users/${userId}/settings`, { data: restored });
  }
});

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../shared/contracts/events';
import { NONE_IN_ANY_THEME, seriousViolations, seriousViolationsInEveryTheme } from './axe';
import { demoLogin, expect, test, toastWith } from './fixtures';

// Settings → Webhooks (issue 40, docs/decisions/027) against a real receiver: node:http on
// 127.0.0.1, which the e2e server may reach (scripts/e2e-server.mjs sets
// ALLOW_PRIVATE_HOST_ADDRESSES). Every delivery is verified with the `standardwebhooks` package,
// as a receiver would.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers 200 "ok" and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/rentgpu-hooks`, received, server };
}

/** The delivery verified with a secret, as the docs' receiver does; throws when it does not verify. */
function verify(secret: string, { headers, body }: Received) {
  return new Webhook(secret).verify(body, {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  }) as { type: string; data: Record<string, unknown> };
}

async function openWebhooks(page: Page) {
  await page.goto('/settings?tab=webhooks');
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await new Promise((resolve) => receiver.server.close(resolve));
});

test('the settings page in the browser: add an endpoint, see its secret once, test it, rotate, disable, enable, delete', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await demoLogin(page.request);
  await openWebhooks(page);
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'How to verify them' })).toHaveAttribute(
    'href',
    '/documentation#webhooks',
  );

  // The server's 400 names the field; the form shows it under the URL.
  await page.getByRole('button', { name: 'Add Endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Endpoint' });
  await dialog.getByLabel('Endpoint URL').fill('not a url');
  await dialog.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Enter a full http(s) URL, such as https://example.com/rentgpu',
  );
  await expect(dialog.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');

  // Only some types: none chosen is refused before it is sent.
  await dialog.getByLabel('Endpoint URL').fill(receiver.url);
  await dialog.getByLabel('Only the events I choose').check();
  await dialog.getByRole('button', { name: 'Add Endpoint' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose at least one event, or All events');
  await dialog.getByLabel('instance.ready').check();
  await dialog.getByLabel('instance.stopped').check();
  await dialog.getByLabel('Description (optional)').fill('e2e receiver');
  await dialog.getByRole('button', { name: 'Add Endpoint' }).click();

  // The secret, shown once, with a copy button.
  const secretDialog = page.getByRole('dialog', { name: "Your endpoint's signing secret" });
  await expect(secretDialog).toContainText('Copy this signing secret now: it is shown only once.');
  const secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
  await secretDialog.getByRole('button', { name: 'Copy signing secret' }).click();
  // (The toast region is hidden from the accessibility tree while the dialog is modal.)
  await expect(secretDialog.getByRole('button', { name: 'signing secret copied' })).toHaveText(
    'Copied',
  );
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toHaveCount(0);

  const endpoint = page.getByRole('listitem', { name: `Webhook endpoint ${receiver.url}` });
  await expect(endpoint).toContainText('Enabled');
  await expect(endpoint).toContainText('e2e receiver');
  await expect(endpoint).toContainText('Events:instance.readyinstance.stopped');
  await expect(endpoint).toContainText('No deliveries waiting');
  // Never again: not on the page, not after a reload.
  await page.reload();
  await expect(endpoint).toBeVisible();
  await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // A test event: delivered to the receiver, signed with the secret, and in the log with 200.
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(toastWith(page, 'Test Event Sent')).toBeVisible();
  const log = endpoint.getByRole('region', { name: 'Delivery log' });
  const ping = log.getByRole('listitem', { name: /^Delivery of test\.ping evt_\d+$/ });
  await expect(ping).toHaveCount(1);
  await expect(ping.getByText('Delivered', { exact: true })).toBeVisible();
  await expect(ping.getByRole('definition').first()).toHaveText('200');
  await expect(ping).toContainText(/Latency\d+ ms/);
  await expect(ping).toContainText('Attempts1');
  await expect(ping.locator('pre')).toHaveText('ok');
  await expect.poll(() => receiver.received.length).toBe(1);
  const first = receiver.received[0] as Received;
  expect(verify(secret, first).type).toBe('test.ping');
  const eventId = String(first.headers['webhook-id']);
  expect(await ping.getAttribute('aria-label')).toBe(`Delivery of test.ping ${eventId}`);

  // Send again: the same event and webhook-id, delivered once more.
  await ping.getByRole('button', { name: 'Send again' }).click();
  await expect(toastWith(page, 'Sent Again')).toBeVisible();
  await expect.poll(() => receiver.received.length).toBe(2);
  expect(receiver.received[1]?.headers['webhook-id']).toBe(eventId);
  expect(verify(secret, receiver.received[1] as Received).type).toBe('test.ping');
  await expect(ping.getByText('Delivered', { exact: true })).toBeVisible();

  // Rotate (asked first): a new secret shown once; for 24 hours both sign.
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  const confirmRotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await expect(confirmRotate).toContainText(
    'For 24 hours both the old and the new secret sign every delivery',
  );
  await confirmRotate.getByRole('button', { name: 'Rotate Secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'Your new signing secret' });
  await expect(rotated).toContainText('Both secrets sign every delivery for the next 24 hours');
  await expect(rotated).toContainText('it is shown only once');
  const newSecret = (await rotated.getByTestId('webhook-secret').textContent()) ?? '';
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole('button', { name: 'Done' }).click();
  await expect(endpoint).toContainText('Previous secret also signs until');
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => receiver.received.length).toBe(3);
  const afterRotation = receiver.received[2] as Received;
  expect(verify(newSecret, afterRotation).type).toBe('test.ping');
  expect(verify(secret, afterRotation).type).toBe('test.ping');
  await expect(log.getByRole('listitem', { name: /^Delivery of test\.ping / })).toHaveCount(2);

  // Disable: nothing can be sent; enable again.
  await endpoint.getByRole('button', { name: 'Disable' }).click();
  await expect(toastWith(page, 'Endpoint Disabled')).toBeVisible();
  await expect(endpoint.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(endpoint).toContainText('Disabled by you');
  await expect(endpoint).toContainText('nothing is sent to it until you enable it again');
  await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeDisabled();
  await endpoint.getByRole('button', { name: 'Enable' }).click();
  await expect(toastWith(page, 'Endpoint Enabled')).toBeVisible();
  await expect(endpoint.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(endpoint.getByRole('button', { name: 'Send test event' })).toBeEnabled();

  // Delete (asked first).
  await endpoint.getByRole('button', { name: 'Delete' }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Delete this endpoint?' });
  await expect(confirmDelete).toContainText(`${receiver.url} gets nothing more`);
  await confirmDelete.getByRole('button', { name: 'Delete Endpoint' }).click();
  await expect(toastWith(page, 'Endpoint Deleted')).toBeVisible();
  await expect(endpoint).toHaveCount(0);
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
});

test('Settings → Webhooks with a delivery log has no serious violations in any theme and fits a 390 px phone', async ({
  page,
}) => {
  test.setTimeout(120_000); // axe in three themes, then the phone
  await demoLogin(page.request);
  const created = await page.request.post('/api/webhook-endpoints', {
    data: { url: receiver.url, types: ['*'], description: 'axe' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/webhook-endpoints/${id}/test`)).status()).toBe(202);
  await expect.poll(() => receiver.received.length).toBe(1);

  await openWebhooks(page);
  const endpoint = page.getByRole('listitem', { name: `Webhook endpoint ${receiver.url}` });
  await expect(endpoint).toContainText('All events');
  await endpoint.getByRole('button', { name: 'Show delivery log' }).click();
  const ping = endpoint.getByRole('listitem', { name: /^Delivery of test\.ping / });
  await expect(ping.getByText('Delivered', { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await seriousViolationsInEveryTheme(page, { signedIn: true })).toEqual(NONE_IN_ANY_THEME);

  // The phone: no sideways scroll; the log is cards, not a table with hidden columns.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(ping.getByText('Delivered', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  // The add form with every type shown.
  await page.getByRole('button', { name: 'Add Endpoint' }).click();
  await page.getByLabel('Only the events I choose').check();
  await expect(page.getByRole('dialog').getByRole('checkbox')).toHaveCount(EVENT_TYPES.length);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);
});

test('the documentation explains events and webhooks, and Settings links to it', async ({
  page,
}) => {
  await demoLogin(page.request);
  await openWebhooks(page);
  await page.getByRole('link', { name: 'How to verify them' }).click();
  await expect(page).toHaveURL(/\/documentation#webhooks$/);
  const guide = page.getByRole('region', { name: 'Events and webhooks', exact: true });
  await expect(guide).toBeInViewport();
  // Every event type, once, with what it means.
  for (const type of EVENT_TYPES) {
    await expect(guide.getByRole('term').filter({ hasText: new RegExp(`^${type}$`) })).toHaveCount(
      1,
    );
  }
  await expect(guide.getByRole('region', { name: 'Events request' })).toContainText(
    'GET /api/v1/events?after=evt_123&types=instance.*&subject=instance:42&limit=100&wait=20',
  );
  await expect(guide).toContainText('nextCursor');
  await expect(
    guide.getByRole('region', { name: 'rentgpu events and webhooks commands' }),
  ).toContainText('rentgpu events tail');
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    await expect(
      guide.getByRole('term').filter({ hasText: new RegExp(`^${header}$`) }),
    ).toHaveCount(1);
  }
  await expect(guide.getByRole('region', { name: 'Webhook receiver' })).toContainText(
    "import { Webhook } from 'standardwebhooks';",
  );
  await expect(guide).toContainText('5 s, 5 min, 30 min, 2 h, 5 h, 10 h');
  await expect(guide).toContainText('deduplicate by it');
  await expect(guide.getByRole('link', { name: 'Webhooks tab of your settings' })).toHaveAttribute(
    'href',
    '/settings?tab=webhooks',
  );
});

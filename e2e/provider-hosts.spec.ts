import type { APIRequestContext } from '@playwright/test';
import type { HostView } from '../shared/contracts/hosts';
import { demoLogin, expect, test } from './fixtures';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/*
 * Each Demo Login makes a demo account with its own sandbox provider (docs/decisions/010), so
 * these tests see only the hosts they add.
 */
async function hostsByApi(request: APIRequestContext): Promise<HostView[]> {
  const res = await request.get('/api/providers/hosts');
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { hosts: HostView[] }).hosts;
}

const TOKEN_IN_COMMAND = /--token-stdin <<< '([A-Za-z0-9_-]{32,128})'$/;

test('an approved provider adds a host, copies its install command, and sees it awaiting enrolment', async ({
  page,
  baseURL,
}) => {
  await demoLogin(page.request);
  await page.goto('/provider');
  const section = page.getByRole('region', { name: 'Hosts' });
  await expect(section).toContainText('No hosts connected yet');

  await section.getByRole('button', { name: 'Add Host' }).click();
  const add = page.getByRole('dialog', { name: 'Add Host' });
  await add.getByRole('button', { name: 'Add Host' }).click();
  await expect(add.getByText('Host name is required')).toBeVisible();
  await add.getByLabel('Host name').fill('rack-1');
  // The address renters connect to is checked: shell text is no address.
  await add.getByLabel('Public address (optional)').fill('h.example;id;#');
  await add.getByRole('button', { name: 'Add Host' }).click();
  await expect(
    add.getByText('Public address must be a host name (gpu-1.example.com) or an IP address'),
  ).toBeVisible();
  await add.getByLabel('Public address (optional)').fill('GPU-1.example.com');
  await add.getByRole('button', { name: 'Add Host' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Host Added', { exact: true })).toBeVisible();

  const connect = page.getByRole('dialog', { name: 'Connect Your Host' });
  await expect(connect).toBeVisible();
  const command = (await connect.getByTestId('install-command').textContent()) ?? '';
  const token = (await connect.getByTestId('enrolment-token').textContent()) ?? '';
  expect(command).toBe(
    `curl -fsSL -o rentgpu-install.sh '${baseURL}/api/providers/agent/download' && sudo bash rentgpu-install.sh --server '${baseURL}' --allow-http --token-stdin <<< '${token}'`,
  );
  expect(command).toMatch(TOKEN_IN_COMMAND);
  await expect(connect).toContainText('The token works once and expires at');

  await connect.getByRole('button', { name: 'Copy install command' }).click();
  await expect(page.getByText('Copied to clipboard', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await connect.getByRole('button', { name: 'Done' }).click();
  await expect(connect).toBeHidden();

  const host = section.getByTestId('provider-host').filter({ hasText: 'rack-1' });
  await expect(host.getByTestId('host-status')).toHaveText('Awaiting enrolment');
  await expect(host).toContainText('Not connected yet');
  await expect(host.getByTestId('host-address')).toHaveText('Renters connect to gpu-1.example.com');
  await expect(host).toContainText(/Its token expires in (60|59) min/);

  // The token is shown once: the list never carries it again.
  const listed = await hostsByApi(page.request);
  expect(listed).toHaveLength(1);
  expect(JSON.stringify(listed)).not.toContain(token);

  // A new token replaces it.
  await host.getByRole('button', { name: 'New token' }).click();
  await expect(connect).toBeVisible();
  const renewed = (await connect.getByTestId('enrolment-token').textContent()) ?? '';
  expect(renewed).toMatch(/^[A-Za-z0-9_-]{32,128}$/);
  expect(renewed).not.toBe(token);
  await page.keyboard.press('Escape');

  // The listing dialog offers the host.
  await page.getByRole('button', { name: 'Add New GPU Listing' }).click();
  const listing = page.getByRole('dialog', { name: 'Add New GPU Listing' });
  await expect(listing.getByLabel('Host')).toHaveValue('');
  await expect(listing.getByLabel('Host').locator('option')).toHaveText([
    'No host yet',
    'rack-1 (Awaiting enrolment)',
  ]);
  await listing.getByRole('button', { name: 'Cancel' }).click();

  // Removed after a confirmation.
  await host.getByRole('button', { name: 'Remove' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Host' });
  await remove.getByRole('button', { name: 'Remove Host' }).click();
  await expect(remove).toBeHidden();
  await expect(section).toContainText('No hosts connected yet');
  expect(await hostsByApi(page.request)).toEqual([]);
});

test('removing a host a listing uses shows the server’s reason', async ({ page }) => {
  await demoLogin(page.request);
  const created = await page.request.post('/api/providers/hosts', { data: { name: 'busy-box' } });
  expect(created.status()).toBe(201);
  const { host, enrolment } = (await created.json()) as {
    host: HostView;
    enrolment: { token: string };
  };
  // Its agent enrols and reports one RTX 4080: a listing sells only GPUs its host reported.
  const enrolled = await page.request.post('/api/v1/agents/enroll', {
    data: { token: enrolment.token, hostname: 'busy-box', agentVersion: '0.1.0' },
  });
  expect(enrolled.status()).toBe(201);
  const { credential } = (await enrolled.json()) as { credential: string };
  const beat = await page.request.post('/api/v1/agents/heartbeat', {
    headers: { authorization: `Bearer ${credential}` },
    data: {
      agentVersion: '0.1.0',
      sentAt: new Date().toISOString(),
      host: {
        hostname: 'busy-box',
        cpu: { model: 'AMD EPYC', cores: 16 },
        memory: { totalBytes: 64 * 1024 ** 3, availableBytes: 60 * 1024 ** 3 },
        disk: { path: '/var/lib/rentgpu-agent', totalBytes: 1e12, freeBytes: 9e11 },
        accelerator: 'kvm',
      },
      gpus: {
        gpus: [
          {
            index: 0,
            name: 'NVIDIA GeForce RTX 4080',
            uuid: 'GPU-0',
            memoryTotalMib: 16_376,
            memoryUsedMib: 0,
            utilizationPercent: 0,
            temperatureC: 30,
            pciBusId: '00000000:01:00.0',
          },
        ],
        error: null,
      },
      instances: [],
    },
  });
  expect(beat.status()).toBe(200);
  const user = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
  const provider = (await (await page.request.get(`/api/providers/user/${user.id}`)).json()) as {
    id: number;
  };
  const listing = await page.request.post('/api/gpu-listings', {
    data: {
      providerId: provider.id,
      model: 'RTX 4080',
      memory: '16GB',
      location: 'Bergen, Norway',
      hourlyRate: '1.20',
      hostId: host.id,
    },
  });
  expect(listing.status()).toBe(201);

  await page.goto('/provider');
  const item = page.getByTestId('provider-host').filter({ hasText: 'busy-box' });
  await item.getByRole('button', { name: 'Remove' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove Host' });
  await expect(remove).toContainText('1 listing and 0 running instances use this host');
  await remove.getByRole('button', { name: 'Remove Host' }).click();
  await expect(remove.getByRole('alert')).toContainText('This host is still in use.');
  await expect(page.getByText('Failed to Remove Host', { exact: true })).toBeVisible();
  await remove.getByRole('button', { name: 'Cancel' }).click();
  await expect(item).toBeVisible();

  const { id } = (await listing.json()) as { id: number };
  expect((await page.request.delete(`/api/gpu-listings/${id}`)).status()).toBe(204);
});

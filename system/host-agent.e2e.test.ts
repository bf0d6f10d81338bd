import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { type Browser, chromium, type Locator, type Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AgentProcess, newKeyPair, qemuPidsOf, run, ssh } from '../agent/test/helpers';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';
import { instances } from '../server/db/schema';
import { generateSshKeyPair } from '../server/lib/ssh-keypair';
import { SESSION_COOKIE } from '../server/plugins/session';
import type { TestApp } from '../server/test/app';
import type { world } from '../server/test/world';
import { openConsoleSocket } from '../server/test/ws-client';
import { CONSOLE_CLOSE } from '../shared/contracts/console';
import { jupyterTokenIn } from '../shared/deploy-templates';
import {
  addHost,
  hostUntil,
  killAgentAndGuests,
  listeningTestApp,
  listHostGpus,
  renterWithSshKey,
  spawnLabAgent,
  until,
} from './helpers';

/**
 * The whole supply side on one machine: the real server (the Fastify app listening on a
 * port, embedded database), the real agent process enrolled with a token from the provider
 * API, a fake nvidia-smi reporting two GPUs, the QEMU driver booting the project's test guest,
 * and the real OpenSSH client logging in with the renter's own key.
 */

let t: TestApp;
let w: ReturnType<typeof world>;
let tmp: string;
let key: string;
let url: string;
let agent: AgentProcess | null = null;
const agentLines: string[] = [];
let browser: Browser | null = null;
/** The provider's listing of the host's two GPUs (made by the first test, used by the next). */
let hostListing: { id: number; providerId: number; hourlyRate: string } | null = null;
/** Figures printed at the end (measured, not asserted). */
const figures: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

beforeAll(async () => {
  await run('bash', [path.resolve(import.meta.dirname, '../scripts/test-guest/build.sh')], {
    timeout: 600_000,
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-system-'));
  key = path.join(tmp, 'renter');
  await newKeyPair(key, 'renter@system');
  // The web app for the browser part: the production build `npm test` and Playwright use
  // (built here only when dist/ is missing or older than the sources).
  buildIfStale();
  const webDir = path.resolve(import.meta.dirname, '../dist/web');
  ({ t, w, url } = await listeningTestApp({ webDir }));
}, 600_000);

beforeEach((ctx) => {
  ctx.onTestFailed(() => {
    console.log(`[system e2e] agent output (tail):\n${agentLines.slice(-60).join('')}`);
  });
});

afterAll(async () => {
  if (figures.length) console.log(`[system e2e] measured:\n  ${figures.join('\n  ')}`);
  await browser?.close();
  if (process.env.SYSTEM_E2E_AGENT_LOG)
    await writeFile(process.env.SYSTEM_E2E_AGENT_LOG, agentLines.join(''));
  await killAgentAndGuests(t, agent);
  await t?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const instanceRow = async (id: number) =>
  (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0];

const statusIs = (id: number, status: string) =>
  until(`instance ${id} ${status}`, async () => {
    const row = await instanceRow(id);
    return row?.status === status ? row : null;
  });

describe('provider host → agent → real VM → renter over SSH', () => {
  it('enrols a host, places a rental and a VM on it, and settles them', async () => {
    // The provider adds a host and gets a one-time enrolment token.
    const provider = await w.provider();
    const { host, enrolment } = await addHost(t, provider, 'basement box');

    agent = spawnLabAgent(url, path.join(tmp, 'state'), {
      AGENT_ENROLL_TOKEN: enrolment.token,
      AGENT_SSH_PORTS: '22800-22899',
      AGENT_VNC_DISPLAYS: '80-89',
      AGENT_STOP_TIMEOUT_MS: '20000',
    });
    agent.child.stdout?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));
    agent.child.stderr?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));

    const enrolled = await hostUntil(t, agent, host.id, 'the first heartbeat', (row) =>
      Boolean(row.inventory),
    );
    expect(enrolled.inventory?.gpus.gpus).toHaveLength(2);
    // The token was spent: a second enrolment with it is refused.
    const reuse = await t.request({
      method: 'POST',
      url: '/api/v1/agents/enroll',
      payload: { token: enrolment.token, hostname: 'intruder', agentVersion: '0.1.0' },
    });
    expect(reuse.statusCode).toBe(401);

    // The provider lists the two GPUs the host reported; the marketplace shows it online.
    const listing = await listHostGpus(t, provider, host.id);
    hostListing = listing;
    expect(listing).toMatchObject({ hostStatus: 'online', hostId: host.id });

    // The renter keeps an SSH key in Settings and rents for 2 hours.
    const renter = await renterWithSshKey(t, key);
    const rent = await t.request({
      method: 'POST',
      url: '/api/rentals',
      cookie: renter.cookie,
      payload: {
        gpuListingId: listing.id,
        providerId: listing.providerId,
        durationHours: 2,
        hourlyRate: '1.20',
        totalCost: '2.40',
      },
    });
    expect(rent.statusCode).toBe(201);
    const rentalId = rent.json().id as number;
    const t0 = Date.now();
    const ready = await statusIs(rentalId, 'running');
    console.log(
      `[system e2e] rent → running (real VM, SSH banner seen): ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    expect(ready).toMatchObject({ sshHost: '127.0.0.1', gpuIndexes: [0] });
    expect(ready.vncAddress).toMatch(/^127\.0\.0\.1:59\d\d$/);
    expect(await ssh(key, ready.sshPort ?? 0, 'ubuntu', 'id -un')).toBe('ubuntu\n');

    // A metered VM on the second GPU: write a file, stop, start, the file is still there.
    const vm = await t.app.deps.instances.createMetered(
      renter.userId,
      {
        gpuListingId: listing.id,
        source: 'vm',
        storageGb: 50,
        platformKey: generateSshKeyPair(),
      },
      t.clock.now(),
    );
    const vmId = vm.instance.id;
    const vmReady = await statusIs(vmId, 'running');
    expect(vmReady.gpuIndexes).toEqual([1]);
    expect(
      await ssh(key, vmReady.sshPort ?? 0, 'ubuntu', 'echo kept > ~/file && sync && cat ~/file'),
    ).toBe('kept\n');

    // The web console: a WebSocket to the server, which logs in to the VM over SSH with the
    // platform's key (installed by the agent beside the renter's); it closes when the VM stops.
    const term = await openConsoleSocket(
      `${url.replace('http:', 'ws:')}/api/kvm/instances/${vmId}/console`,
      { cookie: renter.cookie, origin: url },
    );
    term.type('echo console-$((40+2)) $(cat ~/file)\r');
    await term.waitFor('console-42 kept', 120_000);
    await t.app.deps.instances.stop(renter.userId, vmId, t.clock.now());
    const closed = await term.closed;
    expect(closed.code).toBe(CONSOLE_CLOSE.notRunning);
    expect(closed.reason).toMatch(/^The instance is (stopping|stopped)\.$/);
    await statusIs(vmId, 'stopped');
    expect(await qemuPidsOf(String(vmId))).toHaveLength(0);
    await t.app.deps.instances.start(renter.userId, vmId, t.clock.now());
    const vmAgain = await statusIs(vmId, 'running');
    expect(await ssh(key, vmAgain.sshPort ?? 0, 'ubuntu', 'cat ~/file')).toBe('kept\n');
    await t.app.deps.instances.terminate(renter.userId, vmId, t.clock.now());
    await statusIs(vmId, 'terminated');
    expect(await qemuPidsOf(String(vmId))).toHaveLength(0);

    // Half an hour later the renter stops the rental: the host deletes the VM, the ledger
    // pays the provider for 30 minutes and returns the rest.
    t.clock.advance(30 * 60_000);
    const stop = await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rentalId}/stop`,
      cookie: renter.cookie,
    });
    expect(stop.statusCode).toBe(200);
    await statusIs(rentalId, 'terminated');
    expect(await qemuPidsOf(String(rentalId))).toHaveLength(0);
    const settled = await instanceRow(rentalId);
    expect(settled).toMatchObject({ usedSeconds: 1800, endReason: 'user' });
    expect(settled?.usedCostMicros).toBe(600_000n); // 30 min × $1.20/h
    expect(await w.invariants()).toEqual([]);
    const seen = await until(
      'the host to drop both instances',
      async () => {
        const res = await t.request({
          method: 'GET',
          url: `/api/providers/hosts`,
          cookie: provider.cookie,
        });
        const view = (
          res.json() as { hosts: { id: string; status: string; liveInstances: number }[] }
        ).hosts.find((h) => h.id === host.id);
        return view?.liveInstances === 0 ? view : null;
      },
      30_000,
    );
    expect(seen.status).toBe('online');
  });

  it('the VM dashboard in Chromium: create → running → web console echo → stop → start → terminate', async () => {
    if (!hostListing) throw new Error('the first test lists the host');
    const renter = await t.signIn({ credits: '100.00' });
    browser = await chromium.launch(chromiumLaunchOptions);
    const context = await browser.newContext({
      baseURL: url,
      viewport: { width: 1280, height: 900 },
    });
    await context.addCookies([{ name: SESSION_COOKIE, value: renter.token, url }]);
    const page = await context.newPage();
    await page.goto('/vm-dashboard');
    await page.getByRole('heading', { name: 'VM Dashboard', level: 1 }).waitFor();
    await page.getByText('No Instances', { exact: true }).waitFor();

    // The create form: the host's H100, the smallest disk (the guest formats it on first boot).
    await page.getByRole('button', { name: 'Create New Instance' }).click();
    const form = page.getByRole('form', { name: 'Create New Instance' });
    const gpuOptions = await form.getByLabel('GPU Type').locator('option').allTextContents();
    const rtx = gpuOptions.find((o) => o.startsWith('H100'));
    expect(rtx, gpuOptions.join(', ')).toBeDefined();
    await form.getByLabel('GPU Type').selectOption({ label: rtx ?? '' });
    await form.getByLabel('Disk (GB)').fill('50');
    const createdAt = Date.now();
    await form.getByRole('button', { name: 'Create Instance' }).click();
    await toast(page, 'VM Created').waitFor();
    await form.waitFor({ state: 'hidden' });
    const card = page.getByTestId('vm-card').first();
    const id = Number(await card.getByTestId('vm-id').textContent());
    expect((await instanceRow(id))?.hostId).not.toBe('demo');

    await refreshUntil(page, card, 'running');
    figures.push(
      `VM dashboard: Create Instance → card shows running: ${seconds(Date.now() - createdAt)}`,
    );
    expect(await card.getByTestId('vm-ssh').textContent()).toMatch(
      new RegExp(
        `^ssh -p 228\\d\\d -o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no ubuntu@127\\.0\\.0\\.1$`,
      ),
    );

    // The web console opens in a new tab and runs a command in the VM's shell.
    const consoleLink = card.getByRole('link', { name: 'Open Web Console' });
    const [tab] = await Promise.all([context.waitForEvent('page'), consoleLink.click()]);
    await tab.waitForURL(`**/vm-dashboard/console/${id}`);
    const state = tab.getByTestId('console-state');
    await state.filter({ hasText: /^Connected$/ }).waitFor({ timeout: 120_000 });
    const marker = `hello-${Math.random().toString(36).slice(2, 10)}`;
    await tab.getByTestId('console-terminal').locator('.xterm').click();
    // The shell computes part of the line, so the output differs from the echoed keystrokes.
    await tab.keyboard.type(`echo ${marker}-$((6*7))`);
    await tab.keyboard.press('Enter');
    await tab
      .getByTestId('console-terminal')
      .locator('.xterm-rows')
      .filter({ hasText: `${marker}-42` })
      .waitFor({ timeout: 60_000 });

    // A second console of the same run (the tab reloaded) meets the host key the first one
    // pinned (the guest keeps its key on its disk), so it connects again.
    await tab.reload();
    await state.filter({ hasText: /^Connected$/ }).waitFor({ timeout: 120_000 });

    // Stop: the console closes with the reason; the card goes stopped, the VM's QEMU ends.
    const stopAt = Date.now();
    await card.getByRole('button', { name: 'Stop' }).click();
    await toast(page, 'VM Stopped').waitFor();
    await state
      .filter({ hasText: /^Disconnected: The instance is (stopping|stopped)\./ })
      .waitFor({ timeout: 30_000 });
    await refreshUntil(page, card, 'stopped');
    figures.push(`VM dashboard: Stop → card shows stopped: ${seconds(Date.now() - stopAt)}`);
    // The guest powered off; its QEMU process exits right after.
    await until('QEMU to exit', async () => (await qemuPidsOf(String(id))).length === 0, 30_000);

    const startAt = Date.now();
    await card.getByRole('button', { name: 'Start' }).click();
    await toast(page, 'VM Started').waitFor();
    await refreshUntil(page, card, 'running');
    figures.push(`VM dashboard: Start → card shows running: ${seconds(Date.now() - startAt)}`);

    // Reconnect in the console tab: the same VM (its disk kept) answers again.
    await tab.getByRole('button', { name: 'Reconnect' }).click();
    await state.filter({ hasText: /^Connected$/ }).waitFor({ timeout: 120_000 });

    await card.getByRole('button', { name: 'Terminate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate instance' });
    await confirm.getByText('Are you sure? This will permanently delete the instance.').waitFor();
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await toast(page, 'VM Terminated').waitFor();
    await refreshUntil(page, card, 'terminated');
    await state
      .filter({ hasText: /^Disconnected: The instance is (terminating|terminated)\./ })
      .waitFor({ timeout: 30_000 });
    await until('the VM to be gone', async () => (await qemuPidsOf(String(id))).length === 0);
    await context.close();
  });

  it("a deploy template's user-data reaches the VM and its first command runs", async () => {
    if (!hostListing) throw new Error('the first test lists the host');
    const renter = await renterWithSshKey(t, key);

    const deployedAt = Date.now();
    const res = await t.request({
      method: 'POST',
      url: '/api/deploy',
      cookie: renter.cookie,
      payload: { gpu_type: 'H100', template: 'pytorch', storage_gb: 20 },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().deployment.deployment_id as number;
    expect(res.json().deployment).toMatchObject({ status: 'provisioning', is_demo_host: false });
    const seen = new Set<string>();
    const running = await until('the deployment to run', async () => {
      const status = await t.request({
        method: 'GET',
        url: `/api/deploy/${id}`,
        cookie: renter.cookie,
      });
      const body = status.json() as {
        deployment: { status: string };
        access_info: { ssh_command: string | null; jupyter: string | null };
      };
      seen.add(body.deployment.status);
      return body.deployment.status === 'running' ? body : null;
    });
    figures.push(
      `Instant Deploy (pytorch) on the test VM: Deploy → running: ${seconds(Date.now() - deployedAt)}`,
    );
    expect([...seen]).toEqual(['provisioning', 'running']);
    const row = await instanceRow(id);
    const token = jupyterTokenIn(row?.userData ?? null);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(running.access_info.jupyter).toBe(`http://localhost:8888/lab?token=${token}`);
    const port = row?.sshPort ?? 0;

    // The guest's cloud-init subset (scripts/test-guest/build.sh) ran the template's part.
    const finishedAt = await until(
      'cloud-final to finish',
      async () =>
        (
          await ssh(
            key,
            port,
            'ubuntu',
            'cat /var/lib/cloud/instance/boot-finished 2>/dev/null || true',
          )
        ).trim(),
      120_000,
    );
    figures.push(
      `Instant Deploy on the test VM: the template's runcmd finished at guest uptime ${finishedAt} s`,
    );
    // write_files: the instance's own Jupyter token, with the template's permissions.
    expect(
      await ssh(
        key,
        port,
        'root',
        'stat -c "%a %U" /etc/rentgpu/jupyter.env; cat /etc/rentgpu/jupyter.env',
      ),
    ).toBe(`600 root\nJUPYTER_TOKEN=${token}\n`);
    expect(await ssh(key, port, 'root', 'stat -c "%a" /usr/local/sbin/rentgpu-gpu-driver')).toBe(
      '755\n',
    );
    // runcmd: the first entry is the template's first command, and it ran to success (the
    // driver script found no NVIDIA GPU, so it installed nothing and asked for no reboot).
    const script = await ssh(key, port, 'root', 'sed -n 2p /var/lib/cloud/instance/scripts/runcmd');
    expect(script).toBe("'/usr/local/sbin/rentgpu-gpu-driver'\n");
    const statuses = (await ssh(key, port, 'ubuntu', 'cat /var/lib/cloud/instance/runcmd-status'))
      .trim()
      .split('\n');
    expect(statuses[0]).toBe('0 0');
    expect(
      await ssh(key, port, 'root', 'test -e /run/rentgpu-reboot && echo reboot || echo none'),
    ).toBe('none\n');
    // What could not run offline (no python, pip, apt or systemd in the test guest).
    const log = await ssh(
      key,
      port,
      'root',
      'grep -v "^cloud-final" /var/log/cloud-init-output.log | head -4',
    );
    figures.push(
      `Instant Deploy on the test VM: runcmd exit statuses ${statuses.map((l) => l.split(' ')[1]).join(' ')}; first failures: ${log.trim().replace(/\n/g, ' | ')}`,
    );

    const gone = await t.request({
      method: 'DELETE',
      url: `/api/kvm/instances/${id}`,
      cookie: renter.cookie,
    });
    expect(gone.statusCode).toBe(200);
    await statusIs(id, 'terminated');
    await until('the VM to be gone', async () => (await qemuPidsOf(String(id))).length === 0);
  });

  it('Instant Deploy on a demo host: provisioning, then running after the demo delay (fake clock)', async () => {
    const renter = await t.signIn({ credits: '100.00' });
    await w.listing({ model: 'Demo Deploy GPU', hourlyRate: '0.90' });
    const startedAt = t.clock.now().getTime();
    const res = await t.request({
      method: 'POST',
      url: '/api/deploy',
      cookie: renter.cookie,
      payload: { gpu_type: 'Demo Deploy GPU', template: 'pytorch', storage_gb: 50 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().deployment).toMatchObject({ status: 'provisioning', is_demo_host: true });
    const id = res.json().deployment.deployment_id as number;
    // The production worker runs every WORKER_INTERVAL_MS (1 s): step the clock by that.
    let status = 'provisioning';
    while (status === 'provisioning') {
      t.clock.advance(1000);
      await t.app.deps.worker.runOnce(t.clock.now());
      const now = await t.request({
        method: 'GET',
        url: `/api/deploy/${id}`,
        cookie: renter.cookie,
      });
      status = now.json().deployment.status;
      expect(t.clock.now().getTime() - startedAt).toBeLessThan(10 * 60_000);
    }
    expect(status).toBe('running');
    figures.push(
      `Instant Deploy on a demo host: Deploy → running: ${seconds(t.clock.now().getTime() - startedAt)} (fake clock, worker every 1 s)`,
    );
  });
});

/** A toast with this exact title (the app's notifications region). */
function toast(page: Page, text: string): Locator {
  return page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text, { exact: true })
    .first();
}

/** Clicks Refresh until the card's status badge reads `status` (the list polls only every 30 s). */
async function refreshUntil(page: Page, card: Locator, status: string, ms = 240_000) {
  const deadline = Date.now() + ms;
  const badge = card.getByTestId('vm-status');
  for (;;) {
    if ((await badge.textContent())?.trim() === status) return;
    if (Date.now() > deadline) throw new Error(`the card never showed ${status}`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await sleep(1000);
  }
}

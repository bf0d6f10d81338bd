import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  FAKE_NVIDIA_SMI,
  GUEST_DIR,
  qemuPidsOf,
  run,
  spawnAgent,
  ssh,
} from '../agent/test/helpers';
import { hosts, instances } from '../server/db/schema';
import { generateSshKeyPair } from '../server/lib/ssh-keypair';
import { createTestApp, type TestApp } from '../server/test/app';
import { world } from '../server/test/world';
import { openConsoleSocket } from '../server/test/ws-client';
import { CONSOLE_CLOSE } from '../shared/contracts/console';

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

beforeAll(async () => {
  await run('bash', [path.resolve(import.meta.dirname, '../scripts/test-guest/build.sh')], {
    timeout: 600_000,
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-system-'));
  key = path.join(tmp, 'renter');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'renter@system', '-f', key]);
  // The server asks agents to heartbeat every second (30 s in production).
  t = await createTestApp({
    env: { PROVISIONING_TIMEOUT_MS: '600000', AGENT_HEARTBEAT_INTERVAL_MS: '1000' },
  });
  w = world(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
}, 600_000);

beforeEach((ctx) => {
  ctx.onTestFailed(() => {
    console.log(`[system e2e] agent output (tail):\n${agentLines.slice(-60).join('')}`);
  });
});

afterAll(async () => {
  if (process.env.SYSTEM_E2E_AGENT_LOG)
    await writeFile(process.env.SYSTEM_E2E_AGENT_LOG, agentLines.join(''));
  if (agent) {
    agent.child.kill('SIGKILL');
    await agent.exited;
  }
  const rows = t ? await t.database.db.select({ id: instances.id }).from(instances) : [];
  for (const row of rows) {
    for (const pid of await qemuPidsOf(String(row.id))) process.kill(pid, 'SIGKILL');
  }
  await t?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 240_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

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
    const added = await t.request({
      method: 'POST',
      url: '/api/providers/hosts',
      cookie: provider.cookie,
      payload: { name: 'basement box' },
    });
    expect(added.statusCode).toBe(201);
    const { host, enrolment } = added.json() as {
      host: { id: string };
      enrolment: { token: string };
    };

    agent = spawnAgent({
      RENTGPU_SERVER_URL: url,
      AGENT_ENROLL_TOKEN: enrolment.token,
      AGENT_STATE_DIR: path.join(tmp, 'state'),
      AGENT_HEARTBEAT_INTERVAL_MS: '500',
      AGENT_UPDATE_INTERVAL_MS: '5000',
      AGENT_NVIDIA_SMI: FAKE_NVIDIA_SMI,
      AGENT_BASE_IMAGE: path.join(GUEST_DIR, 'base.qcow2'),
      AGENT_GUEST_KERNEL: path.join(GUEST_DIR, 'vmlinuz'),
      AGENT_GUEST_INITRD: path.join(GUEST_DIR, 'initrd.img'),
      AGENT_ALLOW_SOFTWARE_EMULATION: 'true',
      AGENT_LISTEN_HOST: '127.0.0.1',
      AGENT_PUBLIC_HOST: '127.0.0.1',
      AGENT_SSH_PORTS: '22800-22899',
      AGENT_VNC_DISPLAYS: '80-89',
      AGENT_BOOT_TIMEOUT_MS: '240000',
      AGENT_STOP_TIMEOUT_MS: '20000',
      AGENT_GPU_PASSTHROUGH: 'false',
      // Guests share 1 GiB (512 MiB per GPU): the test guest boots quickly under emulation.
      AGENT_GUEST_MEMORY_MIB: '1024',
    });
    agent.child.stdout?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));
    agent.child.stderr?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));

    const enrolled = await until(
      'the first heartbeat',
      async () => {
        const [row] = await t.database.db.select().from(hosts).where(eq(hosts.id, host.id));
        return row?.inventory ? row : null;
      },
      60_000,
    );
    expect(enrolled.inventory?.gpus.gpus).toHaveLength(2);
    // The token was spent: a second enrolment with it is refused.
    const reuse = await t.request({
      method: 'POST',
      url: '/api/v1/agents/enroll',
      payload: { token: enrolment.token, hostname: 'intruder', agentVersion: '0.1.0' },
    });
    expect(reuse.statusCode).toBe(401);

    // The provider lists its two GPUs on the host; the marketplace shows the host online.
    const listed = await t.request({
      method: 'POST',
      url: '/api/gpu-listings',
      cookie: provider.cookie,
      payload: {
        providerId: provider.providerId,
        model: 'RTX 4090',
        memory: '24GB',
        location: 'Basement, Berlin',
        hourlyRate: '1.20',
        totalCount: 2,
        availableCount: 2,
        hostId: host.id,
        specifications: JSON.stringify({ bandwidth: '1 Gbps' }),
      },
    });
    expect(listed.statusCode).toBe(201);
    const listing = listed.json() as { id: number; providerId: number; hourlyRate: string };
    expect(listed.json()).toMatchObject({ hostStatus: 'online', hostId: host.id });

    // The renter keeps an SSH key in Settings and rents for 2 hours.
    const renter = await t.signIn({ credits: '100.00' });
    const publicKey = (await readFile(`${key}.pub`, 'utf8')).trim();
    const keyRes = await t.request({
      method: 'POST',
      url: '/api/ssh-keys',
      cookie: renter.cookie,
      payload: { name: 'laptop', publicKey },
    });
    expect(keyRes.statusCode).toBe(201);
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
});

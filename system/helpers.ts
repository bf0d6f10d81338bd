import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  type AgentProcess,
  FAKE_NVIDIA_SMI,
  GUEST_DIR,
  qemuPidsOf,
  spawnAgent,
} from '../agent/test/helpers';
import { hosts, instances } from '../server/db/schema';
import { createTestApp, type TestApp, type TestAppOptions } from '../server/test/app';
import { world } from '../server/test/world';

/** What `probe` gives once it gives something, asked every `everyMs`; past `ms` an error naming `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 240_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * The real server listening on a port of 127.0.0.1 for an agent on this machine: agents
 * heartbeat every second (30 s in production), provisioning may take 10 minutes (a guest
 * under emulation), and the agent reports 127.0.0.1 (a lab, said explicitly).
 */
export async function listeningTestApp(options: TestAppOptions = {}) {
  const t = await createTestApp({
    ...options,
    env: {
      PROVISIONING_TIMEOUT_MS: '600000',
      AGENT_HEARTBEAT_INTERVAL_MS: '1000',
      ALLOW_PRIVATE_HOST_ADDRESSES: '1',
      ...options.env,
    },
  });
  const w = world(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { t, w, url: `http://127.0.0.1:${address.port}` };
}

type Provider = Awaited<ReturnType<ReturnType<typeof world>['provider']>>;

/** The provider adds a host named `name`: the host and its one-time enrolment token. */
export async function addHost(t: TestApp, provider: Provider, name: string) {
  const added = await t.request({
    method: 'POST',
    url: '/api/providers/hosts',
    cookie: provider.cookie,
    payload: { name },
  });
  expect(added.statusCode).toBe(201);
  return added.json() as { host: { id: string }; enrolment: { token: string } };
}

/**
 * The provider lists the host's two GPUs: the fake nvidia-smi's two H100s (the listing must be
 * of the host's model, docs/decisions/020) at $1.20 an hour. Answers the listing as the API shows it.
 */
export async function listHostGpus(t: TestApp, provider: Provider, hostId: string) {
  const listed = await t.request({
    method: 'POST',
    url: '/api/gpu-listings',
    cookie: provider.cookie,
    payload: {
      providerId: provider.providerId,
      model: 'H100',
      memory: '80GB',
      location: 'Basement, Berlin',
      hourlyRate: '1.20',
      totalCount: 2,
      availableCount: 2,
      hostId,
      specifications: JSON.stringify({ bandwidth: '1 Gbps' }),
    },
  });
  expect(listed.statusCode).toBe(201);
  return listed.json() as { id: number; providerId: number; hourlyRate: string } & Record<
    string,
    unknown
  >;
}

/** At the end: the agent killed, then the QEMU of every instance the server knows. */
export async function killAgentAndGuests(t: TestApp | undefined, agent: AgentProcess | null) {
  if (agent) {
    agent.child.kill('SIGKILL');
    await agent.exited;
  }
  const rows = t ? await t.database.db.select({ id: instances.id }).from(instances) : [];
  for (const row of rows) {
    for (const pid of await qemuPidsOf(String(row.id))) process.kill(pid, 'SIGKILL');
  }
}

/** A renter with $100 of credits who keeps the public key `<keyFile>.pub` in Settings (as "laptop"). */
export async function renterWithSshKey(t: TestApp, keyFile: string) {
  const renter = await t.signIn({ credits: '100.00' });
  const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
  const added = await t.request({
    method: 'POST',
    url: '/api/ssh-keys',
    cookie: renter.cookie,
    payload: { name: 'laptop', publicKey },
  });
  expect(added.statusCode).toBe(201);
  return renter;
}

/** The agent's last `n` lines on one line (for an error message a summary shows whole). */
export function agentTail(agent: AgentProcess, n = 6): string {
  const tail = agent.lines.slice(-n).join(' | ');
  return tail.length > 1500 ? `…${tail.slice(-1500)}` : tail || '(nothing yet)';
}

/**
 * The host's row once `done` holds of it (its agent heard: an inventory, a readiness). An agent
 * that exits first ends the wait at once; either failure names the agent's last lines, since
 * the run's summary shows an error's message and not the agent's output.
 */
export async function hostUntil(
  t: TestApp,
  agent: AgentProcess,
  hostId: string,
  what: string,
  done: (row: typeof hosts.$inferSelect) => boolean,
  ms = 60_000,
) {
  return until(
    what,
    async () => {
      const [row] = await t.database.db.select().from(hosts).where(eq(hosts.id, hostId));
      if (row && done(row)) return row;
      if (agent.child.exitCode !== null || agent.child.signalCode !== null) {
        throw new Error(
          `the agent exited (${agent.child.exitCode ?? agent.child.signalCode}) before ${what}: ${agentTail(agent)}`,
        );
      }
      return null;
    },
    ms,
  ).catch((err: Error) => {
    if (err.message.startsWith('timed out')) {
      throw new Error(`${err.message}; the agent's last lines: ${agentTail(agent)}`);
    }
    throw err;
  });
}

/**
 * The real agent process for the server at `url`, keeping its state in `stateDir`: the fake
 * nvidia-smi's two GPUs, the project's test guest under software emulation (no passthrough;
 * guests share 1 GiB, 512 MiB per GPU, so it boots quickly), heartbeats every 500 ms, reached
 * and shown at 127.0.0.1. `extra` adds or changes settings (ports, drivers, the token).
 */
export function spawnLabAgent(url: string, stateDir: string, extra: Record<string, string>) {
  return spawnAgent({
    RENTGPU_SERVER_URL: url,
    AGENT_STATE_DIR: stateDir,
    AGENT_HEARTBEAT_INTERVAL_MS: '500',
    AGENT_UPDATE_INTERVAL_MS: '5000',
    AGENT_NVIDIA_SMI: FAKE_NVIDIA_SMI,
    AGENT_BASE_IMAGE: path.join(GUEST_DIR, 'base.qcow2'),
    AGENT_GUEST_KERNEL: path.join(GUEST_DIR, 'vmlinuz'),
    AGENT_GUEST_INITRD: path.join(GUEST_DIR, 'initrd.img'),
    AGENT_ALLOW_SOFTWARE_EMULATION: 'true',
    AGENT_GPU_PASSTHROUGH: 'false',
    AGENT_LISTEN_HOST: '127.0.0.1',
    AGENT_PUBLIC_HOST: '127.0.0.1',
    AGENT_BOOT_TIMEOUT_MS: '240000',
    AGENT_GUEST_MEMORY_MIB: '1024',
    ...extra,
  });
}

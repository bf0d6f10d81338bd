import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  removeFakeGpus,
  storeFlags,
  storePodman,
  writeFakeGpus,
} from '../agent/container/test-store';
import { type AgentProcess, newKeyPair, REPO_DIR, ssh } from '../agent/test/helpers';
import { instances } from '../server/db/schema';
import type { TestApp } from '../server/test/app';
import type { world } from '../server/test/world';
import { openConsoleSocket } from '../server/test/ws-client';
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
 * A renter gets a container on a provider's host (docs/decisions/025), end to end on this
 * machine: the real server listening on a port, the real agent process running both drivers
 * (AGENT_DRIVERS=vm,container) — Podman with runc for containers, QEMU for VMs — the public
 * API (`POST /api/v1/instances` with an API key), and the real OpenSSH client checking the
 * host key the API shows. GPUs are the fake nvidia-smi's two H100s; the CDI spec of this run
 * names them by UUID and index with stand-in device nodes, so "only the rented GPU" is a
 * device node that is there or not. Podman uses a storage root of its own under /tmp, never
 * the machine's; test traffic goes only to 127.0.0.1.
 */
const exec = promisify(execFile);
const RUN = `${process.pid}`;
const BASE = `/tmp/rentgpu-sys-ct-${RUN}`;
const PODMAN_FLAGS = storeFlags(BASE);
const IMAGE = 'localhost/rentgpu-system-test:1';
const CDI_KIND = `rentgpu-sys${RUN}.test/gpu`;
const CDI_FILE = `/etc/cdi/rentgpu-system-test-${RUN}.json`;
const NODE = (i: number) => `/dev/rgsys${RUN}-gpu${i}`;
/** The fake nvidia-smi's two GPUs (agent/test/fake-nvidia-smi). */
const UUIDS = [
  'GPU-3c2e38d1-6a2c-4a31-b44b-9d82a8c80735',
  'GPU-9f1b0a55-2d7e-4c1a-8e0f-5b6c7d8e9f01',
];
const NAME_PREFIX = `rgsys${RUN}`;
/**
 * This run's container SSH ports: a block of 20 chosen by the process id, so a port-forwarding
 * rule a crashed earlier run left in the host's firewall (CNI's portmap) is not met again.
 */
const CONTAINER_PORTS = 23000 + (process.pid % 49) * 20;

let t: TestApp;
let w: ReturnType<typeof world>;
let tmp: string;
let key: string;
let url: string;
let agent: AgentProcess | null = null;
const figures: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const podman = async (...args: string[]) => storePodman(BASE).run(args);

/** The agent with both drivers, on this run's Podman store, CDI kind and port ranges. */
function startAgent(extra: Record<string, string> = {}) {
  return spawnLabAgent(url, path.join(tmp, 'state'), {
    AGENT_NVIDIA_CTK: path.join(REPO_DIR, 'agent/test/fake-nvidia-ctk'),
    AGENT_DRIVERS: 'vm,container',
    AGENT_PODMAN_FLAGS: PODMAN_FLAGS.join(' '),
    AGENT_CDI_KIND: CDI_KIND,
    AGENT_CONTAINER_SSH_PORTS: `${CONTAINER_PORTS}-${CONTAINER_PORTS + 19}`,
    AGENT_SSH_PORTS: '22700-22719',
    AGENT_VNC_DISPLAYS: '70-79',
    AGENT_STOP_TIMEOUT_MS: '5000',
    ...extra,
  });
}

beforeAll(async () => {
  await exec('bash', [path.join(REPO_DIR, 'scripts/test-guest/build.sh')], { timeout: 600_000 });
  await exec('bash', [path.join(REPO_DIR, 'scripts/test-container-image/build.sh')], {
    timeout: 300_000,
  });
  await mkdir(BASE, { recursive: true });
  await podman('import', path.join(REPO_DIR, '.cache/test-container-image/rootfs.tar'), IMAGE);
  // Stand-ins for /dev/nvidia0 and /dev/nvidia1.
  await writeFakeGpus(CDI_FILE, CDI_KIND, NODE, UUIDS);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-system-ct-'));
  key = path.join(tmp, 'renter');
  await newKeyPair(key, 'renter@system');
  ({ t, w, url } = await listeningTestApp());
}, 900_000);

beforeEach((ctx) => {
  ctx.onTestFailed(() => {
    console.log(`[container e2e] agent output (tail):\n${agent?.lines.slice(-80).join('\n')}`);
  });
});

afterAll(async () => {
  if (figures.length) console.log(`[container e2e] measured:\n  ${figures.join('\n  ')}`);
  await killAgentAndGuests(t, agent);
  // Everything this run made in Podman, its networks and firewall rules with them.
  const ids = (await podman('ps', '-aq', '--filter', `name=^${NAME_PREFIX}`).catch(() => ''))
    .split('\n')
    .filter(Boolean);
  for (const id of ids) await podman('rm', '-f', id).catch(() => {});
  await podman('rm', '-af').catch(() => {});
  await t?.close();
  await removeFakeGpus(CDI_FILE, NODE);
  await podman('system', 'reset', '--force').catch(() => {});
  await rm(BASE, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const instanceRow = async (id: number) =>
  (await t.database.db.select().from(instances).where(eq(instances.id, id)))[0];

/** A new API key of the renter's that reads and writes (made in Settings). */
async function readWriteKey(renter: { cookie: string }, name: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/api-keys',
    cookie: renter.cookie,
    payload: { name, permissions: ['read', 'write'] },
  });
  return res.json().key as string;
}

/** The public API with the renter's key. */
async function v1(apiKey: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

interface PublicInstance {
  id: number;
  status: string;
  kind: string;
  image: string | null;
  imageDigest: string | null;
  sshHost: string | null;
  sshPort: number | null;
  sshUsername: string;
  sshHostKey: string | null;
  sshHostKeyFingerprint: string | null;
  failureReason: string | null;
}

/**
 * Waits on the database (the API's rate limit is not for polling), then reads it through v1.
 * An instance that failed instead ends the wait at once, with its reason (the agent's account
 * of where the boot broke), rather than after the whole wait with none.
 */
async function instanceUntil(apiKey: string, id: number, status: string, ms = 240_000) {
  await until(
    `instance ${id} ${status}`,
    async () => {
      const row = await instanceRow(id);
      if (row?.status === 'failed' && status !== 'failed') {
        throw new Error(`instance ${id} failed instead of ${status}: ${row.hostError}`);
      }
      return row?.status === status;
    },
    ms,
  ).catch(async (err: Error) => {
    // CI shows only the error: what the instance and the agent were doing at the end.
    const row = await instanceRow(id);
    const tail = (agent?.lines ?? []).filter((l) => l.includes(`"id":"${id}"`)).slice(-4);
    throw new Error(
      `${err.message} (it is ${row?.status}${row?.hostError ? `: ${row.hostError}` : ''}); the agent on it: ${tail.join(' ')}`,
    );
  });
  const res = await v1(apiKey, 'GET', `/instances/${id}`);
  const body = (res.json as { instance: PublicInstance }).instance;
  expect(body?.status, JSON.stringify(res.json)).toBe(status);
  return body;
}

/**
 * The real OpenSSH client as a careful renter runs it: the renter's key, and the host key the
 * API showed pinned in a known_hosts of its own (StrictHostKeyChecking=yes: any other key fails).
 */
async function sshPinned(i: PublicInstance, command: string): Promise<string> {
  if (!i.sshHostKey || !i.sshPort) throw new Error('no SSH endpoint or host key shown');
  const knownHosts = path.join(tmp, `known_hosts-${i.id}`);
  await writeFile(knownHosts, `[127.0.0.1]:${i.sshPort} ${i.sshHostKey}\n`);
  const { stdout } = await exec(
    'ssh',
    [
      '-F',
      '/dev/null',
      '-i',
      key,
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
      '-o',
      'ConnectTimeout=20',
      '-o',
      'LogLevel=ERROR',
      '-p',
      String(i.sshPort),
      `${i.sshUsername}@127.0.0.1`,
      '--',
      command,
    ],
    { timeout: 60_000 },
  );
  return stdout;
}

/** `<id> <state>` of each container of the instance, as podman itself lists them. */
const containersOf = async (id: number) =>
  (
    JSON.parse(
      await podman('ps', '-a', '--filter', `label=rentgpu.instance=${id}`, '--format', 'json'),
    ) as { Id: string; State: string }[]
  ).map((c) => `${c.Id.slice(0, 12)} ${c.State}`);

describe('provider host → agent → real container → renter over SSH', () => {
  let apiKey = '';
  let listingId = 0;
  let running: PublicInstance | null = null;

  it('enrols a host running VMs and containers; a renter rents a container through v1 and logs in', async () => {
    const provider = await w.provider();
    const { host, enrolment } = await addHost(t, provider, 'container box');
    agent = startAgent({ AGENT_ENROLL_TOKEN: enrolment.token });

    // Ready for both kinds: containers through CDI (every GPU named), VMs emulated (tests).
    const enrolled = await hostUntil(
      t,
      agent,
      host.id,
      'the host ready for containers',
      (row) => Boolean(row.readiness?.kinds?.container.ready),
      90_000,
    );
    expect(enrolled.inventory?.host.drivers).toEqual(['container', 'vm']);
    expect(enrolled.readiness?.kinds?.container.readyGpus).toEqual([0, 1]);
    expect(enrolled.readiness?.kinds?.vm.ready).toBe(true);

    listingId = (await listHostGpus(t, provider, host.id)).id;
    const market = await t.request({ method: 'GET', url: '/api/gpu-listings?kind=container' });
    const shown = (market.json() as { id: number; kinds: string[] }[]).find(
      (l) => l.id === listingId,
    );
    expect(shown?.kinds).toEqual(['vm', 'container']);

    // The renter: an SSH key in Settings, an API key, and a container through v1.
    const renter = await renterWithSshKey(t, key);
    apiKey = await readWriteKey(renter, 'system');

    const createdAt = Date.now();
    // With a template (ubuntu22, its image replaced by this run's): the platform's console key
    // comes with a template; v1's bare instances have none, so no web console.
    const created = await v1(apiKey, 'POST', '/instances', {
      gpuListingId: listingId,
      kind: 'container',
      image: IMAGE,
      template: 'ubuntu22',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = (created.json as { instance: { id: number } }).instance.id;
    const up = await instanceUntil(apiKey, id, 'running');
    const readyMs = Date.now() - createdAt;
    expect(up).toMatchObject({ kind: 'container', image: IMAGE, sshHost: '127.0.0.1' });
    expect(up.imageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(up.sshHostKeyFingerprint).toMatch(/^SHA256:/);
    const login0 = Date.now();
    expect(await sshPinned(up, 'id -u && echo kept > /root/file && sync')).toBe('0\n');
    figures.push(
      `container (image held): v1 create → running ${seconds(readyMs)}; → first renter login ${seconds(Date.now() - createdAt)} (the login itself ${seconds(Date.now() - login0)})`,
    );

    // Only its GPU: the instance holds one of the host's two; only that device node is there.
    const row = await instanceRow(id);
    expect(row?.gpuIndexes).toHaveLength(1);
    const mine = row?.gpuIndexes[0] ?? -1;
    const nodes = await sshPinned(up, `ls /dev | grep rgsys${RUN} || true`);
    expect(nodes.trim().split('\n')).toEqual([path.basename(NODE(mine))]);
    // The web console: the server logs in over SSH with the platform's key, which the agent
    // installed beside the renter's, pinned to the host key the container reported.
    const term = await openConsoleSocket(
      `${url.replace('http:', 'ws:')}/api/kvm/instances/${id}/console`,
      { cookie: renter.cookie, origin: url },
    );
    term.type('echo console-$((40+2)) $(cat /root/file)\r');
    await term.waitFor('console-42 kept', 60_000);
    term.socket.close();
    await term.closed;
    running = up;
  });

  it('keeps files across stop and start, and adopts the container after kill -9 of the agent', async () => {
    if (!running) throw new Error('the first test rents a container');
    const id = running.id;
    expect((await v1(apiKey, 'PATCH', `/instances/${id}/stop`)).status).toBe(200);
    await instanceUntil(apiKey, id, 'stopped');
    expect((await containersOf(id))[0]).toMatch(/ (exited|stopped)$/);
    expect((await v1(apiKey, 'POST', `/instances/${id}/start`)).status).toBe(200);
    const again = await instanceUntil(apiKey, id, 'running');
    expect(await sshPinned(again, 'cat /root/file')).toBe('kept\n');

    // kill -9 of the agent: the container keeps running (conmon holds it) and a new agent
    // adopts it — the same container, not a new one — and the renter's login still works.
    const [before] = await containersOf(id);
    agent?.child.kill('SIGKILL');
    await agent?.exited;
    expect(await containersOf(id)).toEqual([before]);
    expect(before).toMatch(/ running$/);
    agent = startAgent();
    await until(
      'the new agent to adopt the container',
      async () => agent?.lines.some((l) => l.includes('"ssh-ready"') && l.includes(`"${id}"`)),
      120_000,
    );
    expect(await containersOf(id)).toEqual([before]);
    expect((await instanceRow(id))?.status).toBe('running');
    expect(await sshPinned(again, 'cat /root/file')).toBe('kept\n');
  });

  it('terminate leaves nothing of the container on the host', async () => {
    if (!running) throw new Error('the first test rents a container');
    const id = running.id;
    expect((await v1(apiKey, 'DELETE', `/instances/${id}`)).status).toBe(200);
    await instanceUntil(apiKey, id, 'terminated');
    await until(
      'the container to be gone',
      async () => (await containersOf(id)).length === 0,
      60_000,
    );
    const networks = await podman('network', 'ls', '--format', '{{.Name}}');
    expect(networks.split('\n').filter((n) => n.endsWith(`-${id}`))).toEqual([]);
    expect(
      await readFile(path.join(tmp, 'state/containers', String(id)), 'utf8').catch((e) => e.code),
    ).toBe('ENOENT');
  });

  it('a bad image reference fails once with the reason, and is not tried again in a loop', async () => {
    const created = await v1(apiKey, 'POST', '/instances', {
      gpuListingId: listingId,
      kind: 'container',
      image: 'localhost/rentgpu-no-such-image:404',
    });
    expect(created.status).toBe(201);
    const id = (created.json as { instance: { id: number } }).instance.id;
    const failed = await instanceUntil(apiKey, id, 'failed', 120_000);
    expect(failed.failureReason).toMatch(/rentgpu-no-such-image/);
    // Five seconds more: one pull tried, not a loop of them.
    await sleep(5000);
    const pulls = (agent?.lines ?? []).filter(
      (l) => l.includes('"action"') && l.includes(`"id":"${id}"`) && l.includes('"create"'),
    );
    expect(pulls).toHaveLength(1);
  });

  it('click → SSH login: a container with its image held and a VM, in the same run', async () => {
    const mine = await readWriteKey(await renterWithSshKey(t, key), 'timing');
    for (const kind of ['container', 'vm'] as const) {
      const at = Date.now();
      const created = await v1(mine, 'POST', '/instances', {
        gpuListingId: listingId,
        kind,
        ...(kind === 'container' ? { image: IMAGE } : {}),
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const id =
        (created.json as { instance?: { id: number }; id?: number }).instance?.id ??
        (created.json as { id: number }).id;
      const up = await instanceUntil(mine, id, 'running', 400_000);
      let lastError = '';
      const login = async () => {
        try {
          // The busybox test guest reports no host key (ready at its banner): a VM's login
          // there is the helpers' (accept-new); a container's is pinned to the key shown.
          if (kind === 'vm') await ssh(key, up.sshPort ?? 0, up.sshUsername, 'true');
          else await sshPinned(up, 'true');
          return true;
        } catch (err) {
          lastError = (err as Error).message;
          return null;
        }
      };
      await until('a login', login, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}: ${lastError}`);
      });
      figures.push(`${kind}: create (v1) → first SSH login ${seconds(Date.now() - at)}`);
      await v1(mine, 'DELETE', `/instances/${id}`);
      await instanceUntil(mine, id, 'terminated', 120_000);
    }
  });
});

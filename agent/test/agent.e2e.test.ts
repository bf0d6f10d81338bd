import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestControlPlane } from './control-plane';
import {
  type AgentProcess,
  FAKE_NVIDIA_SMI,
  GUEST_DIR,
  holdSsh,
  newKeyPair,
  qemuPidsOf,
  run,
  spawnAgent,
  ssh,
  vncSecurityTypes,
} from './helpers';

/**
 * The real agent process against a test control plane, booting the real test guest with QEMU
 * (software emulation here and in CI), reached with the real OpenSSH client. One VM at a time.
 */

let tmp: string;
let stateDir: string;
let key: string;
let publicKey: string;
let platformKey: string;
let server: TestControlPlane;
let agent: AgentProcess | null = null;
const instanceIds: string[] = [];

function agentEnv(extra: Record<string, string> = {}) {
  return {
    RENTGPU_SERVER_URL: server.url,
    AGENT_STATE_DIR: stateDir,
    AGENT_HEARTBEAT_INTERVAL_MS: '500',
    AGENT_UPDATE_INTERVAL_MS: '5000',
    // An SSH connection counts as a session (idle stop) after 1 s here, not 2 minutes.
    AGENT_SSH_SESSION_MIN_AGE_MS: '1000',
    AGENT_NVIDIA_SMI: FAKE_NVIDIA_SMI,
    AGENT_BASE_IMAGE: path.join(GUEST_DIR, 'base.qcow2'),
    AGENT_GUEST_KERNEL: path.join(GUEST_DIR, 'vmlinuz'),
    AGENT_GUEST_INITRD: path.join(GUEST_DIR, 'initrd.img'),
    AGENT_ALLOW_SOFTWARE_EMULATION: 'true',
    AGENT_LISTEN_HOST: '127.0.0.1',
    AGENT_PUBLIC_HOST: '127.0.0.1',
    AGENT_SSH_PORTS: '22700-22799',
    AGENT_VNC_DISPLAYS: '70-79',
    AGENT_BOOT_TIMEOUT_MS: '240000',
    AGENT_STOP_TIMEOUT_MS: '20000',
    // The fake nvidia-smi's GPUs are not real devices: nothing to pass through here.
    AGENT_GPU_PASSTHROUGH: 'false',
    ...extra,
  };
}

function spec(id: string) {
  return {
    id,
    cpus: 1,
    memoryMib: 128,
    diskGib: 1,
    gpuIndexes: [0],
    sshUser: 'renter',
    sshPublicKeys: [publicKey],
    platformSshPublicKey: platformKey,
    vncPassword: 'Vn3c-pw8',
    userData: '#!/bin/sh\necho "template setup ran"\n',
  };
}

/** Every line any agent process printed, for the failure message. */
const agentLines: string[] = [];

function startAgent(extra: Record<string, string> = {}) {
  agent = spawnAgent(agentEnv(extra));
  agent.child.stdout?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));
  agent.child.stderr?.on('data', (c: Buffer) => agentLines.push(c.toString('utf8')));
  return agent;
}

async function stopAgent(signal: NodeJS.Signals) {
  if (!agent) return;
  agent.child.kill(signal);
  await agent.exited;
  agent = null;
}

beforeAll(async () => {
  // Idempotent: seconds when the guest is already built (CI builds it in .ci/run first).
  await run('bash', [path.resolve(import.meta.dirname, '../../scripts/test-guest/build.sh')], {
    timeout: 600_000,
  });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-e2e-'));
  stateDir = path.join(tmp, 'state');
  key = path.join(tmp, 'renter');
  await newKeyPair(key, 'renter@e2e');
  await newKeyPair(`${key}-platform`, 'rentgpu-platform');
  publicKey = (await readFile(`${key}.pub`, 'utf8')).trim();
  platformKey = (await readFile(`${key}-platform.pub`, 'utf8')).trim();
  server = new TestControlPlane();
  await server.start();
}, 600_000);

beforeEach((ctx) => {
  ctx.onTestFailed(() => {
    const tail = agentLines.join('').split('\n').slice(-60).join('\n');
    console.log(`[agent e2e] agent output (tail):\n${tail}`);
  });
});

afterAll(async () => {
  await stopAgent('SIGKILL');
  for (const id of instanceIds) {
    for (const pid of await qemuPidsOf(id)) process.kill(pid, 'SIGKILL');
  }
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('agent + QEMU driver + test guest', () => {
  it('enrols once and heartbeats its inventory', async () => {
    startAgent({ AGENT_ENROLL_TOKEN: server.newToken() });
    await server.waitFor('a heartbeat', () => server.heartbeats.length > 0, 30_000);
    const credential = await stat(path.join(stateDir, 'credential.json'));
    expect(credential.mode & 0o777).toBe(0o600);
    expect(server.tokens.size).toBe(0);
    const hb = server.heartbeats[0];
    expect(hb?.gpus.error).toBeNull();
    expect(hb?.gpus.gpus.map((g) => [g.index, g.pciBusId, g.temperatureC])).toEqual([
      [0, '00000000:01:00.0', 31],
      [1, '00000000:41:00.0', null],
    ]);
    expect(hb?.host.accelerator).toMatch(/^(kvm|tcg)$/);
    expect(hb?.host.memory.totalBytes).toBeGreaterThan(0);
    expect(hb?.host.disk.totalBytes).toBeGreaterThan(0);
  });

  it('creates (surviving kill -9 of the agent while provisioning), stops, starts and terminates a real VM; the renter logs in with SSH', async () => {
    const id = `e2e-${Date.now().toString(36)}`;
    instanceIds.push(id);
    const t0 = Date.now();
    server.setDesired(spec(id), 'running');

    // kill -9 while it provisions: QEMU is up, SSH is not yet.
    // Daemonized: QEMU's parent has exited and the daemon wrote its pid file (before that, the
    // short-lived parent also carries the instance's -name).
    const pidFile = path.join(stateDir, 'instances', id, 'qemu.pid');
    await server.waitFor(
      'QEMU started',
      async () => existsSync(pidFile) && (await qemuPidsOf(id)).length === 1,
      60_000,
    );
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await qemuPidsOf(id)).toEqual([pid]);
    expect(server.lastAccepted(id)?.state).toBe('provisioning');
    await stopAgent('SIGKILL');
    const reportsBeforeRestart = server.reportsFor(id).length;
    const restarted = startAgent();
    let mostQemus = 0;
    const watch = (async () => {
      while (server.lastAccepted(id)?.state !== 'running') {
        mostQemus = Math.max(mostQemus, (await qemuPidsOf(id)).length);
        await sleep(200);
      }
    })();
    const running = await server.waitForState(id, 'running');
    await watch;
    console.log(
      `[agent e2e] create → reported running, agent killed and restarted meanwhile: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    // Adopted: the same QEMU, never a second one, and no second create or start.
    expect(mostQemus).toBe(1);
    expect(await qemuPidsOf(id)).toEqual([pid]);
    expect(restarted.lines.some((l) => l.includes('"event":"adopting"'))).toBe(true);
    expect(
      server
        .reportsFor(id)
        .slice(reportsBeforeRestart)
        .map((r) => r.state),
    ).toEqual(['running']);

    expect(running.ssh).toMatchObject({ host: '127.0.0.1', user: 'renter' });
    expect(running.vnc?.port).toBeGreaterThanOrEqual(5970);
    const port = running.ssh?.port ?? 0;
    expect(await ssh(key, port, 'renter', 'echo kept > ~/file && sync && id -un')).toBe('renter\n');
    // The platform's key is installed too (the web console logs in with it).
    expect(await ssh(`${key}-platform`, port, 'renter', 'cat ~/file')).toBe('kept\n');
    // Someone logged in over SSH: heartbeats say so (idle stop counts it as use), and stop
    // saying so once they log out (the commands above have ended).
    const sessionsOf = (i: number) =>
      server.heartbeats.at(i)?.instances.find((s) => s.id === id)?.sshSessions;
    await server.waitFor('a heartbeat with no SSH session', () => sessionsOf(-1) === 0, 20_000);
    const session = await holdSsh(key, port, 'renter');
    await server.waitFor('a heartbeat with the SSH session', () => sessionsOf(-1) === 1, 20_000);
    await session.close();
    await server.waitFor('a heartbeat without it', () => sessionsOf(-1) === 0, 20_000);
    // VNC offers only VNC authentication (2): the per-instance password is set.
    expect(await vncSecurityTypes(running.vnc?.port ?? 0)).toEqual([2]);

    server.setDesired(spec(id), 'stopped');
    await server.waitForState(id, 'stopped', 60_000);
    expect(await qemuPidsOf(id)).toHaveLength(0);
    expect(existsSync(path.join(stateDir, 'instances', id, 'disk.qcow2'))).toBe(true);

    const t1 = Date.now();
    server.setDesired(spec(id), 'running');
    const again = await server.waitForState(id, 'running');
    const bootLine = restarted.lines.filter((l) => l.includes('"event":"ssh-ready"')).at(-1);
    const bootMs = bootLine ? (JSON.parse(bootLine) as { ms: number }).ms : Number.NaN;
    console.log(
      `[agent e2e] start (same disk): QEMU launch → SSH banner ${(bootMs / 1000).toFixed(1)} s; desired running → reported running ${((Date.now() - t1) / 1000).toFixed(1)} s`,
    );
    expect(await qemuPidsOf(id)).toHaveLength(1);
    expect(await ssh(key, again.ssh?.port ?? 0, 'renter', 'cat ~/file')).toBe('kept\n');

    server.setDesired(spec(id), 'terminated');
    await server.waitForState(id, 'terminated', 60_000);
    expect(await qemuPidsOf(id)).toHaveLength(0);
    expect(existsSync(path.join(stateDir, 'instances', id))).toBe(false);

    // Every report carried the generation of the desired state it converged to, once.
    const seen = server.reportsFor(id).map((r) => `${r.generation}:${r.state}`);
    expect(seen).toEqual([
      '1:provisioning',
      '1:running',
      '2:stopping',
      '2:stopped',
      '3:starting',
      '3:running',
      '4:terminating',
      '4:terminated',
    ]);
    expect(server.reportsFor(id).every((r) => r.accepted)).toBe(true);
    // The heartbeat lists it until the server drops it.
    await server.waitFor(
      'a heartbeat without the terminated instance',
      () => !server.isListed(id) && server.heartbeats.at(-1)?.instances.every((i) => i.id !== id),
      10_000,
    );
  });
});

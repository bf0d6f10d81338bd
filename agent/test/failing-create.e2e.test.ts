import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestControlPlane } from './control-plane';
import { desiredInstance } from './desired-instance';
import { type AgentProcess, FAKE_NVIDIA_SMI, spawnAgent } from './helpers';

/**
 * The real agent process and the real QEMU driver, with a create that fails at once, before
 * the instance has a folder (here: a state folder too deep for QEMU's control socket, on any
 * machine; a host without hardware virtualisation fails at the same point). The server keeps
 * asking for the instance for a minute: the agent reports the failure once, retries only on
 * its backoff, and tries again at once when the desired state changes. No VM boots.
 */

let tmp: string;
let stateDir: string;
let server: TestControlPlane;
let agent: AgentProcess | null = null;

/** The small test instance, with a VNC password QEMU would accept. */
const spec = (id: string) => ({ ...desiredInstance(id), vncPassword: 'Vn3c-pw8' });

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-spin-'));
  // <stateDir>/instances/<id>/qmp.sock is longer than a Unix socket path may be.
  stateDir = path.join(tmp, 'a-state-folder-deeper-than-a-unix-socket-path-allows'.repeat(2));
  server = new TestControlPlane();
  await server.start();
});

afterAll(async () => {
  if (agent) {
    agent.child.kill('SIGKILL');
    await agent.exited;
  }
  await server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('agent + QEMU driver, a create that fails at once', () => {
  it('reports the failure once with its reason, and retries only on its backoff or a new generation', async () => {
    agent = spawnAgent({
      RENTGPU_SERVER_URL: server.url,
      AGENT_STATE_DIR: stateDir,
      AGENT_ENROLL_TOKEN: server.newToken(),
      AGENT_HEARTBEAT_INTERVAL_MS: '500',
      AGENT_UPDATE_INTERVAL_MS: '5000',
      AGENT_NVIDIA_SMI: FAKE_NVIDIA_SMI,
      AGENT_ALLOW_SOFTWARE_EMULATION: 'true',
      AGENT_LISTEN_HOST: '127.0.0.1',
      AGENT_PUBLIC_HOST: '127.0.0.1',
      AGENT_SSH_PORTS: '22800-22899',
      AGENT_VNC_DISPLAYS: '80-89',
      AGENT_GPU_PASSTHROUGH: 'false',
    });
    const lines = agent.lines;
    await server.waitFor('a heartbeat', () => server.heartbeats.length > 0, 30_000);
    server.setDesired(spec('f'), 'running');
    await server.waitForState('f', 'failed', 30_000);
    const t0 = Date.now();
    const heartbeatsThen = server.heartbeats.length;
    const linesThen = lines.length;
    // 20 s of real time (40 heartbeats) in which the server still wants generation 1 running:
    // an agent that spins makes about 200 reports in it (634 a minute measured before the fix);
    // the backoff's timing itself is agent/agent.test.ts's, on an injected clock.
    await sleep(20_000);
    const reports = server.reportsFor('f');
    const creates = lines.filter(
      (l) => l.includes('"event":"action"') && l.includes('"kind":"create"'),
    ).length;
    const minutes = (Date.now() - t0) / 60_000;
    console.log(
      `[agent e2e] create failing at once, desired unchanged for ${(minutes * 60).toFixed(0)} s: ${reports.length} reports, ${creates} creates, ${lines.length - linesThen} log lines, ${server.heartbeats.length - heartbeatsThen} heartbeats`,
    );
    expect(reports.filter((r) => r.state === 'failed')).toHaveLength(1);
    expect(reports.map((r) => `${r.generation}:${r.state}`)).toEqual([
      '1:provisioning',
      '1:failed',
    ]);
    expect(reports[1]?.error).toMatch(/state folder path too long for a socket/);
    // The first try, then at most the backoff's (30 s after the failure: none yet, allowing
    // for a slow machine's late heartbeat).
    expect(creates).toBeGreaterThanOrEqual(1);
    expect(creates).toBeLessThanOrEqual(3);
    // The heartbeat keeps saying why.
    expect(server.heartbeats.at(-1)?.instances).toEqual([
      expect.objectContaining({
        id: 'f',
        generation: 1,
        state: 'failed',
        error: reports[1]?.error,
      }),
    ]);
    expect(existsSync(path.join(stateDir, 'instances', 'f'))).toBe(false);

    // A new desired state is tried at once, and its failure reported once more.
    server.setDesired(spec('f'), 'running');
    await server.waitForState('f', 'failed', 30_000);
    server.setDesired(spec('f'), 'terminated');
    await server.waitForState('f', 'terminated', 30_000);
    expect(
      server
        .reportsFor('f')
        .slice(2)
        .map((r) => `${r.generation}:${r.state}`),
    ).toEqual(['2:provisioning', '2:failed', '3:terminated']);
  });
});

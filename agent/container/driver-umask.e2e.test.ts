import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { sshLogin } from '../access/ssh-login';
import { desiredInstance } from '../test/desired-instance';
import { newKeyPair } from '../test/helpers';
import { ContainerDriver } from './driver';
import { accessFiles } from './ssh';
import { storeFlags, storePodman } from './test-store';

/**
 * The container driver under `UMask=0077` (what the VM unit sets): the SSH bundle and the
 * instance's access files get the modes the container needs whatever the process umask, and
 * the secrets stay private on the host and from the renter's non-root users. Real Podman
 * (runc), a storage root, run root and network config folder of this run under /tmp, the
 * image `podman import`ed from scripts/test-container-image/build.sh's tarball, no GPU.
 */
const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const RUN = `${process.pid}`;
const BASE = `/tmp/rentgpu-ctu-${RUN}`;
const FLAGS = storeFlags(BASE);
const IMAGE = 'localhost/rentgpu-test:1';
const podman = storePodman(BASE);
const mode = async (p: string) => (await stat(p)).mode & 0o777;

let stateDir: string;
let driver: ContainerDriver;
let renterKey: string;

beforeAll(async () => {
  await run(path.join(REPO, 'scripts/test-container-image/build.sh'));
  await podman.run(['import', path.join(REPO, '.cache/test-container-image/rootfs.tar'), IMAGE]);
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'ctu-'));
  renterKey = path.join(stateDir, 'renter');
  await newKeyPair(renterKey, 'renter');
});

afterAll(async () => {
  for (const i of (await driver?.list()) ?? []) await driver.terminate(i.id).catch(() => {});
  await podman.run(['rm', '--all', '--force', '--time', '0']).catch(() => {});
  await podman.run(['network', 'prune', '--force']).catch(() => {});
  await podman.run(['system', 'reset', '--force']).catch(() => {});
  await rm(BASE, { recursive: true, force: true }).catch(() => {});
  await rm(stateDir, { recursive: true, force: true }).catch(() => {});
});

describe('container driver under umask 0077', () => {
  const spec = async (generation = 1): Promise<DesiredInstance> => ({
    ...desiredInstance('u', 'running', generation),
    kind: 'container',
    container: { image: IMAGE },
    sshPublicKeys: [(await readFile(`${renterKey}.pub`, 'utf8')).trim()],
  });
  const login = async (port: number, command: string) =>
    sshLogin({
      ssh: 'ssh',
      keyFile: renterKey,
      knownHosts: accessFiles(driver.dirOf('u')).knownHosts,
      host: '127.0.0.1',
      port,
      user: 'renter',
      command,
      timeoutMs: 30_000,
      strict: true,
    });

  it('boots and logs in, with owner-only access files chowned to the container’s root', async () => {
    const old = process.umask(0o077);
    let port = 0;
    try {
      driver = new ContainerDriver({
        stateDir,
        listenHost: '127.0.0.1',
        publicHost: '127.0.0.1',
        sshPorts: [42800, 42819],
        bootTimeoutMs: 60_000,
        stopTimeoutMs: 2000,
        podmanFlags: FLAGS,
        namePrefix: `rgu${RUN}`,
      });
      const up = await driver.create(await spec(), { gpus: [] });
      port = up.ssh?.port ?? 0;
      // And again after a stop: the access files are rewritten (still under 0077), podman's
      // `U` chowns them back at the start.
      await driver.stop('u');
      await driver.start(await spec(2), { gpus: [] });
    } finally {
      process.umask(old);
    }

    const f = accessFiles(driver.dirOf('u'));
    const uidMap = (
      await podman.run([
        'inspect',
        '--format',
        '{{json .HostConfig.IDMappings}}',
        driver.nameOf('u'),
      ])
    ).trim();
    const hostRoot = Number(
      (JSON.parse(uidMap) as { UidMap: string[] }).UidMap[0]?.split(':')[1] ?? NaN,
    );
    expect(hostRoot).toBeGreaterThan(0);
    expect(await mode(driver.dirOf('u'))).toBe(0o700);
    expect((await stat(driver.dirOf('u'))).uid).toBe(0);
    expect(await mode(f.access)).toBe(0o700);
    expect((await stat(f.access)).uid).toBe(hostRoot);
    for (const file of [f.hostKey, f.authorizedKeys, f.user]) {
      expect(await mode(file), file).toBe(0o600);
      expect((await stat(file)).uid, file).toBe(hostRoot);
    }
    const bundle = path.join(stateDir, 'container-ssh');
    for (const p of ['', 'bin', 'lib', 'instance', 'bin/dropbear', 'lib/ld.so', 'entry.sh']) {
      expect(await mode(path.join(bundle, p)), p).toBe(0o755);
    }

    // The renter (a non-root user in the container) logs in, but reads neither the host key
    // nor the agent's copy of the access files.
    const r = await login(
      port,
      'id -u; cat /.rentgpu/instance/host_key >/dev/null 2>&1 && echo read-instance; cat /run/rentgpu/host_key >/dev/null 2>&1 && echo read-run; echo done',
    );
    expect(r).toMatchObject({ ok: true });
    const lines = r.ok ? r.stdout.trim().split('\n') : [];
    expect(lines[0]).not.toBe('0');
    expect(lines.slice(1)).toEqual(['done']);
    // The container's root does read them (the entrypoint did: dropbear serves that key).
    const asRoot = await podman.run([
      'exec',
      driver.nameOf('u'),
      '/bin/sh',
      '-c',
      'cmp /.rentgpu/instance/host_key /run/rentgpu/host_key && echo same',
    ]);
    expect(asRoot.trim()).toBe('same');
  });

  it('terminates, leaving nothing', async () => {
    await driver.terminate('u');
    expect(await podman.exists('container', driver.nameOf('u'))).toBe(false);
    expect((await driver.list()).map((i) => i.id)).toEqual([]);
  });
});

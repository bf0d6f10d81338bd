import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Podman } from './podman';
import { probeContainers } from './probe';
import { storeFlags, storePodman } from './test-store';

/**
 * `--check`'s trial container on real Podman (runc) with a storage root, run root and network
 * config folder of this run under /tmp (never the host's store), which holds no image at all:
 * the trial needs none. The SSH bundle is built from the host's dropbear.
 */
const BASE = `/tmp/rentgpu-probe-${process.pid}`;
const podman = storePodman(BASE);
const DROPBEAR = '/usr/sbin/dropbear';
const common = { cdiDirs: ['/nonexistent'], nvidiaCtk: '/nonexistent/nvidia-ctk' };
let stateDir: string;
/** The probe with its trial container, the SSH bundle made at `dir` from `dropbear`. */
const trial = (podman: Podman, dir: string, dropbear = DROPBEAR) =>
  probeContainers({ ...common, podman, trial: true, sshBundle: { dir, dropbear } });

beforeAll(async () => {
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'ct-probe-'));
});

afterAll(async () => {
  await podman.run(['rm', '--all', '--force', '--time', '0']).catch(() => {});
  await podman.run(['system', 'reset', '--force']).catch(() => {});
  await rm(BASE, { recursive: true, force: true }).catch(() => {});
  await rm(stateDir, { recursive: true, force: true }).catch(() => {});
});

describe('the trial container', () => {
  it('runs with no image held: the bundle’s dropbear in the user namespace, nothing left', async () => {
    expect((await podman.run(['images', '--quiet'])).trim()).toBe('');
    const bundle = path.join(stateDir, 'container-ssh');
    const probe = await trial(podman, bundle);
    expect(probe).toMatchObject({ error: null, trial: 'passed' });
    expect(probe.runtime).toMatch(/^runc \d/);
    // Its empty image and its container are gone; the bundle is the agent's own.
    expect((await podman.run(['images', '--quiet'])).trim()).toBe('');
    expect((await podman.run(['ps', '--all', '--quiet'])).trim()).toBe('');
    expect((await stat(path.join(bundle, 'bin', 'dropbear'))).isFile()).toBe(true);
  });

  it('runs under umask 0077 (the bundle’s modes are set, not asked of the umask)', async () => {
    const old = process.umask(0o077);
    try {
      const bundle = path.join(stateDir, 'umask-ssh');
      const probe = await trial(podman, bundle);
      expect(probe).toMatchObject({ error: null, trial: 'passed' });
      for (const p of ['', 'bin', 'lib', 'bin/dropbear', 'lib/ld.so', 'entry.sh']) {
        expect((await stat(path.join(bundle, p))).mode & 0o777, p).toBe(0o755);
      }
    } finally {
      process.umask(old);
    }
  });

  it('fails with the runtime’s words when the runtime is broken, the disk limit still read', async () => {
    const broken = new Podman('podman', [
      '--runtime',
      '/bin/false',
      '--cgroup-manager',
      'cgroupfs',
      '--events-backend',
      'file',
      ...storeFlags(BASE),
    ]);
    const probe = await trial(broken, path.join(stateDir, 'container-ssh'));
    expect(probe.trial).toBe('failed');
    expect(probe.error).toMatch(/^podman run failed: .*(runtime|conmon)/);
    expect(probe.diskLimit.reason).not.toMatch(/does not answer/);
    expect((await podman.run(['images', '--quiet'])).trim()).toBe('');
  });

  it('fails with the loader’s words when dropbear is not there', async () => {
    const probe = await trial(podman, path.join(stateDir, 'none-ssh'), '/nonexistent/dropbear');
    expect(probe.trial).toBe('failed');
    expect(probe.error).toMatch(
      /^the SSH bundle cannot be made: cannot read \/nonexistent\/dropbear/,
    );
  });
});

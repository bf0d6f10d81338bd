import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesiredInstance, GpuInfo } from '../../shared/contracts/agent-protocol';
import { readSshBanner } from '../access/net';
import { sshLogin } from '../access/ssh-login';
import { desiredInstance } from '../test/desired-instance';
import { describeDriverContract } from '../test/driver-contract';
import { newKeyPair } from '../test/helpers';
import { ContainerDriver, type ContainerDriverOptions } from './driver';
import { Networks } from './network';
import { Podman } from './podman';
import { probeContainers } from './probe';
import { removeFakeGpus, storeFlags, storePodman, writeFakeGpus } from './test-store';

/**
 * The container driver on real Podman (runc, CNI), never the host's own store: a storage root,
 * run root and network config folder of this run under /tmp, an image `podman import`ed from
 * scripts/test-container-image/build.sh's tarball, and a CDI kind of this run
 * (`rentgpu-<pid>.test/gpu`, its spec in /etc/cdi removed after) with two fake GPUs whose
 * device nodes are copies of /dev/null and /dev/zero made in /dev for this run (in a user
 * namespace runc bind-mounts a CDI device from its container path on the host, so the node
 * must be at the same path on both sides, as nvidia-ctk's /dev/nvidiaN are). Test traffic goes only to the networks
 * these tests create and to 127.0.0.1.
 */
const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const RUN = `${process.pid}`;
const BASE = `/tmp/rentgpu-ct-${RUN}`;
const FLAGS = storeFlags(BASE);
const IMAGE = 'localhost/rentgpu-test:1';
const CDI_KIND = `rentgpu-${RUN}.test/gpu`;
const CDI_FILE = `/etc/cdi/rentgpu-test-${RUN}.json`;
const NODE = (i: number) => `/dev/rgtest${RUN}-gpu${i}`;
const GPUS: GpuInfo[] = [0, 1].map((index) => ({
  index,
  name: 'Fake GPU',
  uuid: `GPU-fake-${index}`,
  memoryTotalMib: null,
  memoryUsedMib: null,
  utilizationPercent: null,
  temperatureC: null,
  pciBusId: null,
}));
const podman = storePodman(BASE);

/** What a TCP server at host:port says (from the host itself). */
function readFrom(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.createConnection({ host, port });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

let portBase = 42300;
function options(
  stateDir: string,
  more: Partial<ContainerDriverOptions> = {},
): ContainerDriverOptions {
  const first = portBase;
  portBase += 20;
  return {
    stateDir,
    listenHost: '127.0.0.1',
    publicHost: '127.0.0.1',
    sshPorts: [first, first + 19],
    bootTimeoutMs: 60_000,
    stopTimeoutMs: 2000,
    podmanFlags: FLAGS,
    cdiKind: CDI_KIND,
    defaultImage: IMAGE,
    namePrefix: `rgt${RUN}`,
    ...more,
  };
}

async function terminateAll(driver: ContainerDriver) {
  for (const i of await driver.list()) await driver.terminate(i.id);
}

beforeAll(async () => {
  // The drivers' state folders go under BASE too, removed with the store after the tests.
  await mkdir(BASE, { recursive: true });
  await run(path.join(REPO, 'scripts/test-container-image/build.sh'));
  await writeFakeGpus(CDI_FILE, CDI_KIND, NODE, ['GPU-fake-0', 'GPU-fake-1']);
  await podman.run(['import', path.join(REPO, '.cache/test-container-image/rootfs.tar'), IMAGE]);
  // The contract's image name (what `BootOptions.image` hands out there).
  await podman.run(['tag', IMAGE, 'localhost/debian-12']);
});

afterAll(async () => {
  await removeFakeGpus(CDI_FILE, NODE);
  await podman.run(['rm', '--all', '--force', '--time', '0']).catch(() => {});
  await podman.run(['network', 'prune', '--force']).catch(() => {});
  await podman.run(['system', 'reset', '--force']).catch(() => {});
  await rm(BASE, { recursive: true, force: true }).catch(() => {});
});

describeDriverContract(
  'container driver',
  async () => {
    const driver = new ContainerDriver(options(await mkdtemp(path.join(BASE, 'state-'))));
    return { driver, close: () => terminateAll(driver) };
  },
  { console: false },
);

const spec = (id: string, more: Partial<DesiredInstance> = {}): DesiredInstance => ({
  ...desiredInstance(id),
  kind: 'container',
  container: { image: IMAGE },
  ...more,
});

describe('container driver on real podman', () => {
  let driver: ContainerDriver;
  let stateDir: string;
  let renterKey: string;
  /** The renter's key over the real ssh to 127.0.0.1:`port`, the host key pinned in `knownHosts`. */
  const renterLogin = (knownHosts: string, port: number, command: string) =>
    sshLogin({
      ssh: 'ssh',
      keyFile: renterKey,
      knownHosts,
      host: '127.0.0.1',
      port,
      user: 'renter',
      command,
      timeoutMs: 30_000,
      strict: true,
    });
  const exec = (id: string, script: string) =>
    podman
      .run(['exec', driver.nameOf(id), '/bin/sh', '-c', script])
      .then((stdout) => ({ code: 0, stdout }))
      .catch((err: { stderr: string; exitCode: number | null }) => ({
        code: err.exitCode ?? -1,
        stdout: err.stderr,
      }));

  beforeAll(async () => {
    stateDir = await mkdtemp(path.join(BASE, 'state-'));
    driver = new ContainerDriver(options(stateDir, { pidsLimit: 64 }));
    renterKey = path.join(stateDir, 'renter');
    await newKeyPair(renterKey, 'renter');
  });
  afterAll(async () => {
    await terminateAll(driver);
  });

  it('runs a container on GPU 1 of 2 that only sees GPU 1, with an SSH login pinned to its host key', async () => {
    const key = (await readFile(`${renterKey}.pub`, 'utf8')).trim();
    const t0 = Date.now();
    const up = await driver.create(spec('g', { gpuIndexes: [1], sshPublicKeys: [key] }), {
      gpus: GPUS,
    });
    console.info(`create → ready with the image held: ${Date.now() - t0} ms`);
    expect(up.vnc).toBeNull();
    expect(up.imageDigest).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(up.hostKeys).toHaveLength(1);
    const known = path.join(stateDir, 'renter_known_hosts');
    await writeFile(known, `[127.0.0.1]:${up.ssh?.port} ${up.hostKeys?.[0]}\n`);
    const login = await renterLogin(
      known,
      up.ssh?.port ?? 0,
      `id -un; ls /dev | grep rgtest; cat /proc/self/uid_map`,
    );
    expect(login).toMatchObject({ ok: true });
    const [user, ...rest] = login.ok ? login.stdout.trim().split('\n') : [];
    expect(user).toBe('renter');
    expect(rest.filter((l) => l.startsWith('rgtest'))).toEqual([`rgtest${RUN}-gpu1`]);
    // Root in the container is not root on the host.
    expect(rest.find((l) => /^\s*0\s/.test(l))).not.toMatch(/^\s*0\s+0\s/);
    // A wrong host key is refused: the pin is what the server shows.
    await writeFile(
      known,
      `[127.0.0.1]:${up.ssh?.port} ${(await readFile(`${renterKey}.pub`, 'utf8')).trim()}\n`,
    );
    expect(await renterLogin(known, up.ssh?.port ?? 0, 'true')).toMatchObject({ ok: false });

    // Measured: what a running container costs the host beside its own processes.
    const conmon = (
      await podman.run(['inspect', '--format', '{{.State.ConmonPid}}', driver.nameOf('g')])
    ).trim();
    const rss = (await readFile(`/proc/${conmon}/status`, 'utf8')).match(/VmRSS:\s+(\d+)/)?.[1];
    const stats = await podman.run([
      'stats',
      '--no-stream',
      '--format',
      '{{.MemUsage}} {{.CPUPerc}}',
      driver.nameOf('g'),
    ]);
    console.info(`conmon RSS ${rss} kB; container ${stats.trim()}`);
  });

  it('keeps files across stop and start', async () => {
    expect((await exec('g', 'echo kept > /root/file && sync')).code).toBe(0);
    await driver.stop('g');
    expect((await driver.list()).find((i) => i.id === 'g')?.running).toBe(false);
    const again = await driver.start(spec('g', { gpuIndexes: [1], generation: 2 }), { gpus: GPUS });
    expect(again.ssh?.port).toBeGreaterThan(0);
    expect((await exec('g', 'cat /root/file')).stdout.trim()).toBe('kept');
  });

  it('keeps a renter from the host, other renters, other GPUs and beyond its limits', async () => {
    await driver.create(spec('h'), { gpus: GPUS });
    const listener = net.createServer((s) => s.end('agent\n'));
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const gw = async (id: string) =>
        (
          await podman.run([
            'network',
            'inspect',
            driver.nameOf(id),
            '--format',
            '{{range .Subnets}}{{.Gateway}}{{end}}',
          ])
        ).trim();
      const ip = async (id: string) =>
        (
          await podman.run([
            'inspect',
            '--format',
            '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
            driver.nameOf(id),
          ])
        ).trim();
      const [gwG, gwH, ipH] = [await gw('g'), await gw('h'), await ip('h')];
      // The listener answers from the host through the bridge (the trial is not vacuous).
      expect(await readFrom(gwG, port)).toBe('agent\n');
      for (const [target, p] of [
        [gwG, port], // the agent-like listener through its own gateway
        [gwH, port], // through another bridge's address of the host
        [ipH, 22], // another renter's SSH server
        [gwG, 22], // the host's own SSH (any service on all addresses)
      ] as const) {
        const r = await exec('g', `nc -w 2 ${target} ${p} </dev/null`);
        expect(r.code, `${target}:${p} reached from a renter's container`).not.toBe(0);
      }
      expect((await exec('g', `ls ${NODE(0)}`)).code).not.toBe(0);
      // A 300 MiB buffer (dd touches all of it) in a 128 MiB container: killed.
      const hog = await exec('g', 'dd if=/dev/zero of=/dev/null bs=300M count=1');
      expect(hog.code, hog.stdout).not.toBe(0);
      const forks = await exec(
        'g',
        'n=0; while [ $n -lt 100 ]; do sleep 3 & n=$((n+1)); done; wait',
      );
      expect(forks.code).not.toBe(0);
      expect(forks.stdout).toMatch(/fork|resource/i);
    } finally {
      listener.close();
    }
  });

  it('is adopted by a new driver after an agent restart', async () => {
    const again = new ContainerDriver({ ...options(stateDir), sshPorts: [0, 0] });
    const found = await again.list();
    expect(found.filter((i) => i.running).map((i) => i.id)).toEqual(['g', 'h']);
    // A bridge with route_localnet off (as one made again under the same name has it): the
    // published loopback port answers nothing, though the container listens; the adopting
    // driver turns the bit on again, and its readiness login goes through that very port.
    const bridge = (
      await podman.run([
        'network',
        'inspect',
        driver.nameOf('g'),
        '--format',
        '{{.NetworkInterface}}',
      ])
    ).trim();
    const localnet = `/proc/sys/net/ipv4/conf/${bridge}/route_localnet`;
    const port = (await driver.endpoints('g', 'renter'))?.ssh?.port ?? 0;
    expect(await readSshBanner('127.0.0.1', port, 3000)).toBe(true);
    await writeFile(localnet, '0');
    expect(await readSshBanner('127.0.0.1', port, 3000)).toBe(false);
    const ready = await again.awaitReady(spec('g', { gpuIndexes: [1] }));
    expect(ready).toEqual(await driver.endpoints('g', 'renter'));
    expect((await readFile(localnet, 'utf8')).trim()).toBe('1');
  });

  it('terminate leaves nothing: container, network, firewall rules, folder', async () => {
    await driver.terminate('h');
    expect(await podman.exists('container', driver.nameOf('h'))).toBe(false);
    expect(await podman.exists('network', driver.nameOf('h'))).toBe(false);
    expect(await driver.networks.rules(driver.nameOf('h'))).toEqual([]);
    expect(await readdir(path.join(stateDir, 'containers'))).not.toContain('h');
    expect((await driver.list()).map((i) => i.id)).toEqual(['g']);
  });

  it('refuses an image that cannot be pulled, once, with the reason', async () => {
    const bad = spec('bad', { container: { image: 'localhost:1/rentgpu/no-such-image:1' } });
    const first = await driver.create(bad, { gpus: [] }).catch((err: Error) => err.message);
    expect(first).toMatch(/cannot be pulled: .+/);
    // Repeated, it is refused with the same words and without another pull.
    const calls = vi.spyOn(Podman.prototype, 'run');
    try {
      const again = await driver.create(bad, { gpus: [] }).catch((err: Error) => err.message);
      expect(again).toBe(first);
      expect(calls.mock.calls.filter(([args]) => args[0] === 'pull')).toEqual([]);
    } finally {
      calls.mockRestore();
    }
    await driver.terminate('bad');
  });

  it('probes podman, runc, the CDI spec and a trial container', async () => {
    const probe = await probeContainers({
      podman,
      trial: true,
      trialImage: IMAGE,
      cdiKind: CDI_KIND,
    });
    expect(probe).toMatchObject({ error: null, trial: 'passed', toolkitVersion: null });
    expect(probe.podman).toMatch(/^\d+\.\d+/);
    expect(probe.runtime).toMatch(/^runc \d/);
    expect(probe.cdi.gpuDevices).toEqual(['0', 'GPU-fake-0', '1', 'GPU-fake-1']);
    expect(probe.diskLimit.enforced).toBe(false);
    expect(probe.diskLimit.reason).toMatch(/xfs/);
  });
});

describe('networks of two podman stores on one host', () => {
  it('get bridges and /24s of their own, made at once, though made at the same time; removing one leaves the others', async () => {
    const otherBase = path.join(BASE, 'other-store');
    const other = storePodman(otherBase);
    const tools = { iptables: 'iptables', ip6tables: null };
    const stores = [new Networks(podman, tools), new Networks(other, tools)];
    /** The interface a bridge's name holds now (its index), null when there is none. */
    const interfaceOf = (bridge: string) => {
      try {
        return readFileSync(`/sys/class/net/${bridge}/ifindex`, 'utf8').trim();
      } catch {
        return null;
      }
    };
    const addressOf = async (bridge: string) =>
      (await run('ip', ['-o', '-4', 'addr', 'show', 'dev', bridge])).stdout.match(
        /inet (\S+)/,
      )?.[1];
    // No network has a container: before, each store named its first network's bridge the
    // same cni-podman<N>, which only a container's start would have made.
    const made = await Promise.all(
      [0, 1, 2, 3].map((i) => stores[i % 2]?.ensure(`rgt${RUN}-n${i}`, `n${i}`)),
    );
    const bridges = made.map((n) => n?.bridge ?? '');
    const madeAs = bridges.map(interfaceOf);
    // Whether each bridge this test made is still there: its name holding the interface it
    // made. A name freed by a removal can be taken at once by another store's network on this
    // host (npm test runs system/container-host beside this file), as a new interface.
    const live = () =>
      bridges.map((bridge, i) => madeAs[i] !== null && interfaceOf(bridge) === madeAs[i]);
    try {
      expect(new Set(bridges).size).toBe(4);
      expect(live()).toEqual([true, true, true, true]);
      const addresses = await Promise.all(bridges.map(addressOf));
      expect(new Set(addresses).size).toBe(4);
      for (const a of addresses) expect(a).toMatch(/^10\.\d+\.\d+\.1\/24$/);
      await stores[1]?.remove(`rgt${RUN}-n1`);
      expect(live()).toEqual([true, false, true, true]);
    } finally {
      for (const i of [0, 1, 2, 3]) await stores[i % 2]?.remove(`rgt${RUN}-n${i}`).catch(() => {});
      await other.run(['system', 'reset', '--force']).catch(() => {});
    }
    expect(live()).toEqual([false, false, false, false]);
  });
});

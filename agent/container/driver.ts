import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DesiredInstance,
  desiredInstance,
  type InstanceStatus,
  instanceStatus,
} from '../../shared/contracts/agent-protocol';
import { readSshBanner } from '../access/net';
import { SshPortBook } from '../access/ports';
import { sshLogin } from '../access/ssh-login';
import {
  type BootOptions,
  DriverError,
  type Endpoints,
  type HostInstance,
  type ImageProgress,
  type InstanceDriver,
} from '../driver';
import { fileExists, readJson, writeAtomic } from '../files';
import type { Log } from '../log';
import { cdiDevices, createArgs } from './args';
import { PodmanImages, type ResolvedImage } from './images';
import { Networks } from './network';
import { hardLimits, Podman } from './podman';
import { diskLimitSupport } from './probe';
import { pullPercent } from './pull-progress';
import { accessFiles, ensureBundle, hostKeyOf, writeAccess, writeKnownHosts } from './ssh';

/** Everything the container driver is told (docs/decisions/025); defaults in brackets. */
export interface ContainerDriverOptions {
  /** The agent's state folder: instances under `containers/<id>/`, the SSH bundle beside. */
  stateDir: string;
  /** Where SSH ports are published (AGENT_LISTEN_HOST). */
  listenHost: string;
  /** What renters are told to connect to (the host's public name or address). */
  publicHost: string;
  /** The SSH port range (shared with nothing else: a VM driver on the host has its own). */
  sshPorts: readonly [number, number];
  /** How long a boot may take until the SSH login works [120 s]. */
  bootTimeoutMs?: number;
  /** `podman stop -t`: how long the container's processes get after SIGTERM [30 s]. */
  stopTimeoutMs?: number;
  /** [podman] */
  podmanBinary?: string;
  /** Flags before every podman command: `--root`, `--runroot`, `--network-config-dir` [none]. */
  podmanFlags?: readonly string[];
  /** Added to the environment of every podman command (tests: CONTAINERS_REGISTRIES_CONF) [none]. */
  podmanEnv?: Readonly<Record<string, string>>;
  /** The OCI runtime [runc: crun refuses cgroup v1 hybrid hosts]. */
  runtime?: string;
  /** `--cgroup-manager` [cgroupfs: no systemd needed]. */
  cgroupManager?: 'cgroupfs' | 'systemd';
  /** The CDI kind the host's GPUs are named under [nvidia.com/gpu]. */
  cdiKind?: string;
  /** Name a GPU by its UUID (as nvidia-ctk does besides its index) or its index [uuid]. */
  cdiDeviceName?: 'uuid' | 'index';
  /** [/usr/sbin/dropbear] [/usr/bin/dropbearkey] [ssh] [ssh-keygen] [iptables] [ip6tables] */
  dropbearBinary?: string;
  dropbearkeyBinary?: string;
  sshBinary?: string;
  sshKeygenBinary?: string;
  iptablesBinary?: string;
  /** null: IPv4 only (a host without ip6tables) [ip6tables]. */
  ip6tablesBinary?: string | null;
  /** The image when neither the spec nor the boot names one [none: refused]. */
  defaultImage?: string | null;
  /** `--pids-limit` [4096]. */
  pidsLimit?: number;
  /** An image larger than this (unpacked) is refused [100 GiB]. */
  maxImageBytes?: number;
  /** Where each pull's own TMPDIR is made, for its progress [/var/tmp]. */
  pullTmpDir?: string;
  /** A failed pull of a reference is not tried again for this long [10 min]. */
  failedPullMs?: number;
  /** [30 min] */
  pullTimeoutMs?: number;
  /** Container and network names are `<namePrefix>-<id>` [rentgpu]. */
  namePrefix?: string;
  log?: Log;
}

interface PodmanContainer {
  Id: string;
  Names: string[];
  State: string;
  Labels: Record<string, string> | null;
}

/**
 * Instances as OCI containers run by Podman (docs/decisions/025). A container
 * `<prefix>-<id>` labelled `rentgpu.instance=<id>` on its own network `<prefix>-<id>`; its
 * folder `<stateDir>/containers/<id>/` keeps its spec, last status, port, image and SSH keys.
 * conmon keeps a container running without the agent; `list()` finds it again by its label.
 */
export class ContainerDriver implements InstanceDriver {
  readonly images: PodmanImages;
  readonly podman: Podman;
  readonly networks: Networks;
  readonly instancesDir: string;
  /** `<stateDir>/container-ssh/`: the SSH bundle (ssh.ts), also `--check`'s trial. */
  readonly bundleDir: string;
  private readonly ports: SshPortBook;
  private readonly o: Required<Omit<ContainerDriverOptions, 'log'>> & { log?: Log };
  private prepared: Promise<{ limits: { nofile: number; nproc: number }; disk: boolean }> | null =
    null;

  constructor(options: ContainerDriverOptions) {
    this.o = {
      bootTimeoutMs: 120_000,
      stopTimeoutMs: 30_000,
      podmanBinary: 'podman',
      podmanFlags: [],
      podmanEnv: {},
      runtime: 'runc',
      cgroupManager: 'cgroupfs',
      cdiKind: 'nvidia.com/gpu',
      cdiDeviceName: 'uuid',
      dropbearBinary: '/usr/sbin/dropbear',
      dropbearkeyBinary: '/usr/bin/dropbearkey',
      sshBinary: 'ssh',
      sshKeygenBinary: 'ssh-keygen',
      iptablesBinary: 'iptables',
      ip6tablesBinary: 'ip6tables',
      defaultImage: null,
      pidsLimit: 4096,
      maxImageBytes: 100 * 1024 ** 3,
      pullTmpDir: '/var/tmp',
      failedPullMs: 10 * 60_000,
      pullTimeoutMs: 30 * 60_000,
      namePrefix: 'rentgpu',
      ...options,
    };
    this.podman = new Podman(
      this.o.podmanBinary,
      [
        '--runtime',
        this.o.runtime,
        '--cgroup-manager',
        this.o.cgroupManager,
        '--events-backend',
        'file',
        ...this.o.podmanFlags,
      ],
      Object.keys(this.o.podmanEnv).length ? this.o.podmanEnv : undefined,
      path.resolve(this.o.stateDir, 'podman'),
    );
    this.instancesDir = path.join(this.o.stateDir, 'containers');
    this.bundleDir = path.join(this.o.stateDir, 'container-ssh');
    this.images = new PodmanImages(this.podman, this.o);
    this.networks = new Networks(this.podman, {
      iptables: this.o.iptablesBinary,
      ip6tables: this.o.ip6tablesBinary,
    });
    const networks = this.networks;
    this.ports = new SshPortBook({
      instancesDir: this.instancesDir,
      listenHost: this.o.listenHost,
      sshPorts: this.o.sshPorts,
      // Nothing listens on a published port (CNI forwards it in the nat table): a port a
      // leftover rule still forwards would send the new container's logins elsewhere.
      claimed: () => networks.forwardedPorts(),
    });
  }

  nameOf(id: string) {
    return `${this.o.namePrefix}-${id}`;
  }
  dirOf(id: string) {
    return path.join(this.instancesDir, id);
  }

  /** Once per driver: the SSH bundle, the rlimits, whether disks can be limited. */
  private prepare() {
    this.prepared ??= (async () => {
      await mkdir(this.instancesDir, { recursive: true, mode: 0o700 });
      await ensureBundle(this.bundleDir, this.o.dropbearBinary);
      const disk = await diskLimitSupport(this.podman);
      return { limits: await hardLimits(), disk: disk.enforced };
    })();
    this.prepared.catch(() => (this.prepared = null));
    return this.prepared;
  }

  private async containers(): Promise<Map<string, PodmanContainer>> {
    const all = await this.podman.json<PodmanContainer[]>([
      'ps',
      '--all',
      '--filter',
      'label=rentgpu.instance',
      '--format',
      'json',
    ]);
    const found = new Map<string, PodmanContainer>();
    for (const c of all) {
      const id = c.Labels?.['rentgpu.instance'];
      if (id && c.Names.includes(this.nameOf(id))) found.set(id, c);
    }
    return found;
  }

  private async container(id: string): Promise<PodmanContainer | null> {
    return (await this.containers()).get(id) ?? null;
  }

  /** Instance folders and labelled containers (either alone is a half-made or half-gone one). */
  async list(): Promise<HostInstance[]> {
    await mkdir(this.instancesDir, { recursive: true, mode: 0o700 });
    const containers = await this.containers();
    const dirs = (await readdir(this.instancesDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
    const ids = [...new Set([...dirs, ...containers.keys()])].sort();
    return Promise.all(
      ids.map(async (id) => {
        const c = containers.get(id);
        const running = c?.State === 'running';
        return {
          id,
          running,
          runningAs: running && c ? c.Id.slice(0, 12) : null,
          status: await readJson(path.join(this.dirOf(id), 'status.json'), (v) =>
            instanceStatus.parse(v),
          ),
        };
      }),
    );
  }

  async saveStatus(status: InstanceStatus): Promise<void> {
    const dir = this.dirOf(status.id);
    if (!(await fileExists(dir))) return;
    await writeAtomic(path.join(dir, 'status.json'), JSON.stringify(status));
  }

  create(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    return this.boot(spec, options);
  }

  async start(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    if (!(await fileExists(this.dirOf(spec.id))) && !(await this.container(spec.id))) {
      throw new DriverError(`unknown instance ${spec.id}`);
    }
    return this.boot(spec, options);
  }

  /**
   * Create (first time) or start (same container, its files kept) and wait for a login.
   * Repeatable after a crash at any step: each step checks what is done.
   */
  private async boot(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    const { limits, disk } = await this.prepare();
    const dir = this.dirOf(spec.id);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeAtomic(path.join(dir, 'spec.json'), JSON.stringify(spec));
    const name = this.nameOf(spec.id);
    const existing = await this.container(spec.id);
    if (existing?.State === 'running') return this.awaitReady(spec, options.signal);
    const network = await this.networks.ensure(name, spec.id);
    const { sshPort } = await this.ports.ensure(spec.id);
    await writeAccess(dir, spec, {
      dropbearkey: this.o.dropbearkeyBinary,
      sshKeygen: this.o.sshKeygenBinary,
    });
    await writeKnownHosts(dir, this.probeHost(), sshPort);
    if (!existing) {
      const image = await this.imageFor(spec, options);
      const devices = cdiDevices(spec.gpuIndexes, options.gpus, {
        kind: this.o.cdiKind,
        name: this.o.cdiDeviceName,
      });
      options.progress?.({ step: 'booting', percent: null });
      await this.podman.run(
        createArgs({
          name,
          id: spec.id,
          spec,
          imageId: image.id,
          imageCommand: await this.imageCommand(image.id),
          network: network.name,
          listenHost: this.o.listenHost,
          sshPort,
          bundleDir: this.bundleDir,
          accessDir: accessFiles(dir).access,
          devices,
          pidsLimit: this.o.pidsLimit,
          limits,
          diskLimit: disk,
        }),
      );
    }
    if (options.signal?.aborted) throw new DriverError('boot superseded');
    await this.startContainer(name);
    return this.awaitReady(spec, options.signal);
  }

  /** The image of a new container: the boot's (BootOptions.image), the spec's, the default. */
  private async imageFor(spec: DesiredInstance, options: BootOptions): Promise<ResolvedImage> {
    const file = path.join(this.dirOf(spec.id), 'image.json');
    const reference = options.image
      ? await options.image()
      : (spec.container?.image ?? this.o.defaultImage);
    if (!reference) throw new DriverError('no container image given');
    const progress = options.progress;
    let percent = -1;
    if (progress && !(await this.images.holdsReference(reference))) {
      percent = 0;
      progress({ step: 'downloading-image', percent });
    }
    const image = await this.images.resolve(reference, {
      ...(options.signal ? { signal: options.signal } : {}),
      // The pull's compressed bytes so far of its manifest's total (0% while unknown, at most
      // 99% until pulled). Told only when the percent moves.
      ...(progress && percent === 0
        ? {
            onProgress: (p: ImageProgress) => {
              const now = pullPercent(p.bytes, p.totalBytes);
              if (now <= percent) return;
              percent = now;
              progress({ step: 'downloading-image', percent });
            },
          }
        : {}),
    });
    if (progress && percent >= 0) progress({ step: 'downloading-image', percent: 100 });
    await writeAtomic(file, JSON.stringify(image));
    this.o.log?.('container-image', { reference, digest: image.digest, bytes: image.sizeBytes });
    return image;
  }

  private async imageCommand(imageId: string): Promise<string[]> {
    const out = await this.podman.run([
      'image',
      'inspect',
      '--format',
      '{{json .Config.Entrypoint}}\t{{json .Config.Cmd}}',
      imageId,
    ]);
    const [entrypoint, cmd] = out
      .trim()
      .split('\t')
      .map((j) => JSON.parse(j) as string[] | null);
    return [...(entrypoint ?? []), ...(cmd ?? [])];
  }

  private probeHost() {
    return this.o.listenHost === '0.0.0.0' ? '127.0.0.1' : this.o.listenHost;
  }

  /** Ready = the probe key logs in as the renter's user over the published port. */
  async awaitReady(spec: DesiredInstance, signal?: AbortSignal): Promise<Endpoints> {
    const name = this.nameOf(spec.id);
    const running = async () => (await this.container(spec.id))?.State === 'running';
    if (!(await running())) throw new DriverError(`container ${name} is not running`);
    // After a host reboot the host's firewall rules are gone: put them back before anything.
    await this.networks.ensure(name, spec.id);
    const ports = await this.ports.read(spec.id);
    if (!ports) throw new DriverError('instance has no SSH port');
    const f = accessFiles(this.dirOf(spec.id));
    const deadline = Date.now() + this.o.bootTimeoutMs;
    let why = 'SSH not answering';
    for (;;) {
      if (signal?.aborted) throw new DriverError('boot superseded');
      if (await readSshBanner(this.probeHost(), ports.sshPort, 5000)) {
        const login = await sshLogin({
          ssh: this.o.sshBinary,
          keyFile: f.probeKey,
          knownHosts: f.knownHosts,
          host: this.probeHost(),
          port: ports.sshPort,
          user: spec.sshUser,
          command: 'true',
          timeoutMs: Math.max(1000, Math.min(30_000, deadline - Date.now())),
          strict: true,
        });
        if (login.ok) return this.endpointsFor(spec.id, ports.sshPort, spec.sshUser);
        why = login.why;
      }
      if (!(await running())) {
        throw new DriverError(`container ${name} exited during boot${await this.logTail(name)}`);
      }
      if (Date.now() > deadline) {
        const seen = why === 'SSH not answering' ? await this.sshPath(name, ports.sshPort) : '';
        throw new DriverError(`no SSH login after ${this.o.bootTimeoutMs} ms (${why})${seen}`);
      }
      await sleep(200);
    }
  }

  async endpoints(id: string, sshUser: string): Promise<Endpoints | null> {
    const ports = await this.ports.read(id);
    return ports ? this.endpointsFor(id, ports.sshPort, sshUser) : null;
  }

  private async endpointsFor(id: string, port: number, user: string): Promise<Endpoints> {
    const hostKey = await hostKeyOf(this.dirOf(id));
    const image = await readJson(path.join(this.dirOf(id), 'image.json'), (v) => {
      const digest = (v as ResolvedImage).digest;
      if (typeof digest !== 'string') throw new Error('bad');
      return digest;
    });
    return {
      ssh: { host: this.o.publicHost, port, user },
      vnc: null,
      ...(hostKey ? { hostKeys: [hostKey] } : {}),
      ...(image ? { imageDigest: image } : {}),
    };
  }

  /**
   * `podman start`; once more after its network is torn down when a stop's cleanup still held
   * its address ("duplicate allocation is not allowed": the stop's teardown had not run yet).
   */
  private async startContainer(name: string): Promise<void> {
    try {
      await this.podman.run(['start', name]);
    } catch (err) {
      if (!/duplicate allocation|has been allocated to/.test((err as Error).message)) throw err;
      await this.podman.run(['container', 'cleanup', name]).catch(() => {});
      await this.podman.run(['start', name]);
    }
  }

  /**
   * SIGTERM to the container's processes, SIGKILL after the grace time; files stay. Stopped
   * means its network is released too: conmon's cleanup (`podman container cleanup`) runs on
   * its own a moment after the stop, and a start before it finds its address still held, so
   * the stop runs that cleanup itself (under the container's lock: the second one does nothing).
   */
  async stop(id: string): Promise<void> {
    if ((await this.container(id))?.State !== 'running') return;
    const grace = Math.ceil(this.o.stopTimeoutMs / 1000);
    const name = this.nameOf(id);
    await this.podman.run(['stop', '--time', String(grace), name], {
      timeoutMs: this.o.stopTimeoutMs + 30_000,
    });
    await this.podman.run(['container', 'cleanup', name]).catch(() => {});
  }

  async forceOff(id: string): Promise<void> {
    if ((await this.container(id))?.State !== 'running') return;
    await this.podman.run(['kill', this.nameOf(id)]).catch(async (err) => {
      if ((await this.container(id))?.State === 'running') throw err;
    });
    // `kill` returns once signalled; the container is "stopped" once conmon saw it exit.
    await this.podman.run(['wait', this.nameOf(id)], { timeoutMs: 30_000 }).catch(() => {});
  }

  /** The container (its files and anonymous volumes), its network and rules, its folder. */
  async terminate(id: string): Promise<void> {
    const name = this.nameOf(id);
    if (await this.container(id)) {
      await this.podman.run(['stop', '--time', '0', name]).catch(() => {});
      // conmon's own cleanup (`podman container cleanup`) may still hold the container's
      // /dev/shm mount a moment after it stopped: "userdata/shm: device or resource busy".
      for (let attempt = 1; ; attempt++) {
        try {
          await this.podman.run(['rm', '--force', '--volumes', '--time', '0', name]);
          break;
        } catch (err) {
          if (attempt >= 5 || !/busy/.test((err as Error).message)) throw err;
          await sleep(500 * attempt);
        }
      }
    }
    await this.networks.remove(name);
    await rm(this.dirOf(id), { recursive: true, force: true });
  }

  /**
   * Where the way to a container's SSH breaks, for a boot that saw no banner: whether its
   * server listens inside (its /proc/<pid>/net/tcp), whether its address answers from the host
   * directly, and what podman publishes, so a failure says which side to look at.
   */
  private async sshPath(name: string, port: number): Promise<string> {
    const seen: string[] = [];
    const info = await this.podman
      .json<
        {
          State?: { Pid?: number };
          NetworkSettings?: { Networks?: Record<string, { IPAddress?: string }> };
        }[]
      >(['container', 'inspect', name])
      .then((list) => list[0])
      .catch(() => undefined);
    const pid = info?.State?.Pid ?? 0;
    let tcp = '';
    for (const file of ['tcp', 'tcp6']) {
      tcp += pid > 0 ? await readFile(`/proc/${pid}/net/${file}`, 'utf8').catch(() => '') : '';
    }
    // Local port 0016 (22) in state 0A (LISTEN).
    seen.push(`listening inside: ${/:0016 [0-9A-F]+:[0-9A-F]{4} 0A /.test(tcp) ? 'yes' : 'no'}`);
    const address = Object.values(info?.NetworkSettings?.Networks ?? {})[0]?.IPAddress;
    if (address) {
      const direct = await readSshBanner(address, 22, 3000);
      seen.push(`${address}:22 from the host: ${direct ? 'banner' : 'no banner'}`);
    }
    seen.push(...(await this.networks.routing(name, address)));
    const published = await this.podman.run(['port', name]).catch(() => '');
    seen.push(`published: ${published.trim().replace(/\n/g, ', ') || 'nothing'} (probed ${port})`);
    return `; ${seen.join('; ')}`;
  }

  private async logTail(name: string) {
    const out = await this.podman.run(['logs', '--tail', '5', name]).catch(() => '');
    const tail = out.trim().split('\n').join(' | ');
    return tail ? `; log: ${tail.slice(-400)}` : '';
  }

  /** The spec the instance was last booted with (for tests and logs). */
  async specOf(id: string): Promise<DesiredInstance | null> {
    return readJson(path.join(this.dirOf(id), 'spec.json'), (v) => desiredInstance.parse(v));
  }

  /** The image an instance runs, as resolved at its create. */
  async imageOf(id: string): Promise<ResolvedImage | null> {
    const text = await readFile(path.join(this.dirOf(id), 'image.json'), 'utf8').catch(() => null);
    return text ? (JSON.parse(text) as ResolvedImage) : null;
  }
}

import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  type DesiredInstance,
  desiredInstance,
  type GpuInfo,
  type InstanceStatus,
  instanceStatus,
} from '../../shared/contracts/agent-protocol';
import { PortBook, type Ports } from '../access/ports';
import {
  type BootOptions,
  DriverError,
  type Endpoints,
  type HostInstance,
  type InstanceDriver,
} from '../driver';
import { fileExists, readJson, writeAtomic } from '../files';
import { ImageCache } from '../images/cache';
import type { Log } from '../log';
import { instanceFiles, qemuArgs, vfioAddresses } from './args';
import { bootModeOf, ensureBootMode, ensureFirmwareVars, ensureProbeKey } from './boot-setup';
import { backingFiles, ensureDisk } from './disk';
import { knownHostKeys, probeCloudInit } from './probe';
import { findQemuProcesses, isAlive, readSshBanner, waitForExit } from './processes';
import { QmpClient } from './qmp';
import { buildSeedFiles, guestHostname, writeSeedIso } from './seed';

const run = promisify(execFile);

export interface DriverConfig {
  stateDir: string;
  qemuBinary: string;
  qemuImgBinary: string;
  genisoimageBinary: string;
  accelerator: 'kvm' | 'tcg' | 'none';
  /** The provider's base image; instance disks are qcow2 overlays over it. */
  baseImage: string | null;
  kernel: { kernel: string; initrd: string; append: string } | null;
  listenHost: string;
  publicHost: string;
  sshPorts: readonly [number, number];
  vncDisplays: readonly [number, number];
  bootTimeoutMs: number;
  stopTimeoutMs: number;
  gpuPassthrough: boolean;
  /** The user QEMU switches to (-runas) when the agent runs as root; null: no switch. */
  qemuRunAs?: string | null;
  /**
   * UEFI firmware (OVMF, Debian's and Ubuntu's `ovmf` package): its code and the template of
   * the variable store each instance gets a copy of. null: images boot with the default BIOS.
   */
  firmware?: { code: string; varsTemplate: string } | null;
  /** The OpenSSH client and key generator (the readiness probe). */
  sshBinary?: string;
  sshKeygenBinary?: string;
  /**
   * AGENT_IMAGE_CACHE_GIB in bytes (default 50 GiB): the OS image cache under
   * `<stateDir>/images/` the overlays are backed by.
   */
  imageCacheBytes?: number;
  log?: Log;
}

export interface LocalInstance extends HostInstance {
  /** pid of its QEMU when one runs. */
  runningAs: number | null;
  spec: DesiredInstance | null;
}

export interface QemuBootOptions {
  /**
   * The image the instance's overlay is backed by (a verified catalogue image, fetched first
   * when needed), asked only when the overlay does not exist yet. Absent: the configured base
   * image (AGENT_BASE_IMAGE), else a blank disk.
   */
  backingImage?: () => Promise<string>;
  /** How the image boots (its catalogue entry's `firmware`); absent: what the host is set up for. */
  firmware?: 'uefi' | 'bios';
}

/**
 * The QEMU driver: one folder per instance under `<stateDir>/instances/<id>/` holding its
 * overlay disk, seed, QMP socket, pid file, ports and last status. No libvirt: QEMU is
 * started daemonized and controlled through QMP. Its images are the verified qcow2 files of
 * `<stateDir>/images/` (agent/images/), never evicted while an overlay is backed by one.
 */
export class QemuDriver implements InstanceDriver {
  readonly instancesDir: string;
  readonly images: ImageCache;
  private readonly ports: PortBook;

  constructor(private readonly config: DriverConfig) {
    this.instancesDir = path.join(config.stateDir, 'instances');
    this.ports = new PortBook({
      instancesDir: this.instancesDir,
      listenHost: config.listenHost,
      sshPorts: config.sshPorts,
      vncDisplays: config.vncDisplays,
    });
    this.images = new ImageCache({
      dir: path.join(config.stateDir, 'images'),
      limitBytes: config.imageCacheBytes ?? 50 * 1024 ** 3,
      qemuImgBinary: config.qemuImgBinary,
      inUse: () => this.backingFiles(),
      ...(config.log ? { log: config.log } : {}),
    });
  }

  dirOf(id: string) {
    return path.join(this.instancesDir, id);
  }

  /** Every instance folder and whether its QEMU runs (found by command line, not pid file). */
  async list(): Promise<LocalInstance[]> {
    await mkdir(this.instancesDir, { recursive: true });
    const ids = (await readdir(this.instancesDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
    const pids = await findQemuProcesses(
      new Map(ids.map((id) => [id, instanceFiles(this.dirOf(id)).pid])),
    );
    return Promise.all(
      ids.map(async (id) => ({
        id,
        running: (pids.get(id) ?? null) !== null,
        runningAs: pids.get(id) ?? null,
        spec: await readJson(instanceFiles(this.dirOf(id)).spec, (v) => desiredInstance.parse(v)),
        status: await readJson(instanceFiles(this.dirOf(id)).status, (v) =>
          instanceStatus.parse(v),
        ),
      })),
    );
  }

  async runningPid(id: string): Promise<number | null> {
    const pids = await findQemuProcesses(new Map([[id, instanceFiles(this.dirOf(id)).pid]]));
    return pids.get(id) ?? null;
  }

  /** Remembers the last transition in the instance's folder, when it has one. */
  async saveStatus(status: InstanceStatus) {
    const dir = this.dirOf(status.id);
    if (!(await fileExists(dir))) return;
    await writeAtomic(instanceFiles(dir).status, JSON.stringify(status));
  }

  create(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    return this.boot(spec, options.gpus, options.signal, qemuBootOptions(options));
  }

  async start(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    if (!(await fileExists(this.dirOf(spec.id)))) {
      throw new DriverError(`unknown instance ${spec.id}`);
    }
    return this.boot(spec, options.gpus, options.signal, qemuBootOptions(options));
  }

  /**
   * Create (first time) or start (same disk) an instance and wait until its SSH server
   * answers. Safe to repeat after a crash at any step: each step checks what is done.
   */
  async boot(
    spec: DesiredInstance,
    gpus: readonly GpuInfo[],
    signal?: AbortSignal,
    options: QemuBootOptions = {},
  ): Promise<Endpoints> {
    if (this.config.accelerator === 'none') {
      throw new DriverError(
        'no hardware virtualisation (kvm_intel/kvm_amd not loaded) and software emulation is not allowed',
      );
    }
    const dir = this.dirOf(spec.id);
    const f = instanceFiles(dir);
    if (f.qmp.length > 100)
      throw new DriverError(`state folder path too long for a socket: ${f.qmp}`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeAtomic(f.spec, JSON.stringify(spec));
    if (await this.runningPid(spec.id)) return this.awaitReady(spec, signal);

    const vfio = this.config.gpuPassthrough ? vfioAddresses(spec.gpuIndexes, gpus) : [];
    const ports = await this.ports.ensure(spec.id);
    const host = { kernel: this.config.kernel !== null, firmware: this.config.firmware ?? null };
    const mode = await ensureBootMode(dir, options.firmware, host);
    await ensureDisk(
      this.config.qemuImgBinary,
      f.disk,
      spec.diskGib,
      options.backingImage ?? this.config.baseImage,
    );
    const firmware = mode === 'uefi' ? await ensureFirmwareVars(dir, host.firmware) : null;
    const probeKey =
      mode === 'kernel' ? null : await ensureProbeKey(dir, this.config.sshKeygenBinary);
    await writeSeedIso(f.seed, buildSeedFiles(spec, { probeKey }), this.config.genisoimageBinary);
    await rm(f.qmp, { force: true });
    await rm(f.pid, { force: true });
    await writeFile(f.serial, '');
    const args = qemuArgs({
      id: spec.id,
      dir,
      accelerator: this.config.accelerator,
      cpus: spec.cpus,
      memoryMib: spec.memoryMib,
      hostname: guestHostname(spec.id),
      listenHost: this.config.listenHost,
      sshPort: ports.sshPort,
      vncDisplay: ports.vncDisplay,
      kernel: mode === 'kernel' ? this.config.kernel : null,
      firmware,
      vfioPciAddresses: vfio,
      runAs: this.config.qemuRunAs ?? null,
    });
    try {
      // -daemonize: the parent returns once the VM is set up; QEMU lives on without us.
      const out = await run(this.config.qemuBinary, args, { timeout: 60_000 });
      await writeFile(f.log, `${out.stdout}${out.stderr}`);
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      await writeFile(f.log, e.stderr ?? e.message).catch(() => {});
      throw new DriverError(
        `qemu failed to start: ${(e.stderr || e.message).trim().slice(0, 500)}`,
      );
    }
    return this.awaitReady(spec, signal);
  }

  /** For a QEMU already running (just started, or adopted after a restart). */
  async awaitReady(spec: DesiredInstance, signal?: AbortSignal): Promise<Endpoints> {
    const pid = await this.runningPid(spec.id);
    if (!pid) throw new DriverError('qemu is not running');
    await this.withQmp(spec.id, (qmp) =>
      qmp.execute('change-vnc-password', { password: spec.vncPassword }),
    );
    const ports = await this.ports.read(spec.id);
    if (!ports) throw new DriverError('instance has no ports');
    const host = this.config.listenHost === '0.0.0.0' ? '127.0.0.1' : this.config.listenHost;
    const deadline = Date.now() + this.config.bootTimeoutMs;
    // A generous read timeout: a slow guest's SSH server (dropbear allows few unauthenticated
    // connections per address) must not be flooded with half-open probes.
    while (!(await readSshBanner(host, ports.sshPort, 10_000))) {
      if (signal?.aborted) throw new DriverError('boot superseded');
      if (!(await isAlive(pid)))
        throw new DriverError(`qemu exited during boot${await this.serialTail(spec.id)}`);
      if (Date.now() > deadline) {
        throw new DriverError(
          `SSH not answering after ${this.config.bootTimeoutMs} ms${await this.serialTail(spec.id)}`,
        );
      }
      await sleep(250);
    }
    if ((await bootModeOf(this.dirOf(spec.id))) !== 'kernel') {
      await this.awaitCloudInit(spec.id, host, ports.sshPort, pid, deadline, signal);
    }
    return this.endpointsFor(spec.id, ports, spec.sshUser);
  }

  /**
   * Ready means the renter can log in and their machine is set up: the probe logs in once
   * cloud-init has written the keys and answers when this boot's final stage is done. A
   * module that failed (a template's setup) fails the boot with its name.
   */
  private async awaitCloudInit(
    id: string,
    host: string,
    port: number,
    pid: number,
    deadline: number,
    signal?: AbortSignal,
  ) {
    const f = instanceFiles(this.dirOf(id));
    let why = 'no login yet';
    for (;;) {
      if (signal?.aborted) throw new DriverError('boot superseded');
      if (!(await isAlive(pid)))
        throw new DriverError(`qemu exited during boot${await this.serialTail(id)}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DriverError(
          `cloud-init did not finish within ${this.config.bootTimeoutMs} ms (${why})${await this.serialTail(id)}`,
        );
      }
      const result = await probeCloudInit({
        ssh: this.config.sshBinary ?? 'ssh',
        keyFile: f.probeKey,
        knownHosts: f.knownHosts,
        host,
        port,
        timeoutMs: left,
      });
      if (result.kind === 'done') {
        if (result.errors.length > 0) {
          throw new DriverError(`setup failed: ${result.errors.join('; ')}`.slice(0, 1500));
        }
        return;
      }
      why = result.why;
      await sleep(2000);
    }
  }

  async endpoints(id: string, sshUser: string): Promise<Endpoints | null> {
    const ports = await this.ports.read(id);
    return ports ? this.endpointsFor(id, ports, sshUser) : null;
  }

  /** ACPI power button, then `quit` after the timeout, then SIGKILL. The disk stays. */
  async stop(id: string): Promise<void> {
    const pid = await this.runningPid(id);
    if (!pid) return;
    const asked = await this.withQmp(id, (qmp) => qmp.execute('system_powerdown')).then(
      () => true,
      () => false,
    );
    if (asked && (await waitForExit(pid, this.config.stopTimeoutMs))) return;
    await this.kill(id, pid);
  }

  /** Quit and delete the folder (disk included). */
  async terminate(id: string): Promise<void> {
    const pid = await this.runningPid(id);
    if (pid) await this.kill(id, pid);
    await rm(this.dirOf(id), { recursive: true, force: true });
  }

  /** Off at once, without waiting for the guest (after a failed boot). The disk stays. */
  async forceOff(id: string): Promise<void> {
    const pid = await this.runningPid(id);
    if (pid) await this.kill(id, pid);
  }

  private async kill(id: string, pid: number) {
    await this.withQmp(id, (qmp) => qmp.execute('quit')).catch(() => {});
    if (await waitForExit(pid, 5000)) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    if (!(await waitForExit(pid, 5000))) throw new DriverError(`qemu pid ${pid} does not exit`);
  }

  private async withQmp<T>(id: string, fn: (qmp: QmpClient) => Promise<T>): Promise<T> {
    const qmp = await QmpClient.connectWhenReady(instanceFiles(this.dirOf(id)).qmp).catch(
      (err: Error) => {
        throw new DriverError(`QMP unreachable: ${err.message}`);
      },
    );
    try {
      return await fn(qmp);
    } finally {
      qmp.close();
    }
  }

  /** The files instances' overlays are backed by (the image cache never evicts them). */
  backingFiles(): Promise<string[]> {
    return backingFiles(this.config.qemuImgBinary, this.instancesDir);
  }

  private async endpointsFor(id: string, ports: Ports, sshUser: string): Promise<Endpoints> {
    const hostKeys = await knownHostKeys(instanceFiles(this.dirOf(id)).knownHosts);
    return {
      ssh: { host: this.config.publicHost, port: ports.sshPort, user: sshUser },
      vnc: { host: this.config.publicHost, port: 5900 + ports.vncDisplay },
      ...(hostKeys.length > 0 ? { hostKeys } : {}),
    };
  }

  private async serialTail(id: string) {
    try {
      const text = await readFile(instanceFiles(this.dirOf(id)).serial, 'utf8');
      const tail = text.trim().split('\n').slice(-3).join(' | ');
      return tail ? `; console: ${tail.slice(-400)}` : '';
    } catch {
      return '';
    }
  }
}

function qemuBootOptions(options: BootOptions): QemuBootOptions {
  return {
    ...(options.image ? { backingImage: options.image } : {}),
    ...(options.firmware ? { firmware: options.firmware } : {}),
  };
}

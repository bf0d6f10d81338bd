import type { DesiredInstance, InstanceStatus } from '../../shared/contracts/agent-protocol';
import type { CatalogueImage, HostImageStatus } from '../../shared/contracts/images';
import {
  type BootOptions,
  DriverError,
  type Endpoints,
  type HostInstance,
  type ImageInventory,
  type InstanceDriver,
} from '../driver';

/** created: being made (its disk not ready yet); running: booting or ready; stopped: disk kept. */
export type MemoryPhase = 'created' | 'running' | 'stopped';

export interface MemoryDriverOptions {
  /** The address endpoints name (the agent puts the host's own in its reports). */
  publicHost?: string;
  /**
   * `immediate`: an instance is ready as soon as it starts. `manual`: each boot waits until
   * the test calls `finishBoot(id)` (or fails it with an error), as a guest takes its time.
   */
  readiness?: 'immediate' | 'manual';
  /**
   * The host's image inventory, given the images instances' disks are made from (never to be
   * evicted). Default: a host that holds no image and cannot fetch one.
   */
  images?: (inUse: () => Promise<string[]>) => ImageInventory;
}

interface Gate {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface MemoryInstance {
  phase: MemoryPhase;
  ready: boolean;
  /** Its disk, once made: the image it was made from (null: the host's default). */
  disk: { image: string | null } | null;
  /** Its endpoints' number (SSH 22000 + slot, VNC 5900 + slot), kept across stop and start. */
  slot: number;
  status: InstanceStatus | null;
  /** The boot in progress (manual readiness): settled by finishBoot, stop or terminate. */
  booting: Gate | null;
}

/**
 * A driver that runs instances in memory: the agent's unit tests converge through it instead
 * of QEMU, and `driver-contract.ts` holds it to what agent/driver.ts promises. It keeps the
 * same state machine as a real host (created → running → stopped → terminated, ready only
 * after a start, unknown ids refused where the contract says so) and records each call the
 * agent makes, so a test can say what the agent asked for.
 */
export class MemoryDriver implements InstanceDriver {
  readonly images: ImageInventory;
  /** `create a@1`, `start a@2`, `await-ready a`, `stop a`, `terminate a`, in the order asked. */
  readonly calls: string[] = [];
  /**
   * Set: every create and start fails at once with this reason, before the host makes
   * anything of the instance (as QEMU on a host without hardware virtualisation).
   */
  refuseBoots: string | null = null;
  private readonly instances = new Map<string, MemoryInstance>();
  private readonly publicHost: string;
  private readonly readiness: 'immediate' | 'manual';

  constructor(options: MemoryDriverOptions = {}) {
    this.publicHost = options.publicHost ?? 'localhost';
    this.readiness = options.readiness ?? 'immediate';
    const inUse = async () =>
      [...this.instances.values()].flatMap((i) => (i.disk?.image ? [i.disk.image] : []));
    this.images = options.images ? options.images(inUse) : new NoImages();
  }

  async list(): Promise<HostInstance[]> {
    return [...this.instances].map(([id, i]) => ({
      id,
      running: i.phase === 'running',
      runningAs: i.phase === 'running' ? `memory:${id}` : null,
      status: i.status,
    }));
  }

  async create(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    this.calls.push(`create ${spec.id}@${spec.generation}`);
    if (this.refuseBoots !== null) throw new DriverError(this.refuseBoots);
    let instance = this.instances.get(spec.id);
    if (!instance) {
      instance = {
        phase: 'created',
        ready: false,
        disk: null,
        slot: this.freeSlot(),
        status: null,
        booting: null,
      };
      this.instances.set(spec.id, instance);
    }
    return this.boot(spec, instance, options);
  }

  async start(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    this.calls.push(`start ${spec.id}@${spec.generation}`);
    if (this.refuseBoots !== null) throw new DriverError(this.refuseBoots);
    return this.boot(spec, this.known(spec.id), options);
  }

  async awaitReady(spec: DesiredInstance, signal?: AbortSignal): Promise<Endpoints> {
    this.calls.push(`await-ready ${spec.id}`);
    return this.untilReady(spec, this.known(spec.id), signal);
  }

  async endpoints(id: string, sshUser: string): Promise<Endpoints | null> {
    const instance = this.instances.get(id);
    return instance ? this.endpointsOf(instance, sshUser) : null;
  }

  async stop(id: string): Promise<void> {
    this.calls.push(`stop ${id}`);
    this.off(id, 'stopped during boot');
  }

  async forceOff(id: string): Promise<void> {
    this.off(id, 'forced off during boot');
  }

  async terminate(id: string): Promise<void> {
    this.calls.push(`terminate ${id}`);
    this.off(id, 'terminated during boot');
    this.instances.delete(id);
  }

  async saveStatus(status: InstanceStatus): Promise<void> {
    const instance = this.instances.get(status.id);
    if (instance) instance.status = status;
  }

  /** An instance an earlier agent process left on the host (a running one had booted). */
  leftBehind(id: string, phase: 'running' | 'stopped', status: InstanceStatus | null = null) {
    this.instances.set(id, {
      phase,
      ready: phase === 'running',
      disk: { image: null },
      slot: this.freeSlot(),
      status,
      booting: null,
    });
  }

  /** Where an instance is, for assertions; undefined once terminated (or never created). */
  inspect(id: string) {
    const i = this.instances.get(id);
    return i && { phase: i.phase, ready: i.ready, image: i.disk ? i.disk.image : undefined };
  }

  hasPendingBoot(id: string): boolean {
    return this.instances.get(id)?.booting != null;
  }

  /** Manual readiness: the guest is ready now (or its boot fails with `error`). */
  finishBoot(id: string, error?: Error) {
    const instance = this.instances.get(id);
    const gate = instance?.booting;
    if (!instance || !gate) throw new Error(`no boot of ${id} is waiting`);
    instance.booting = null;
    if (error) {
      gate.reject(error);
    } else {
      instance.ready = true;
      gate.resolve();
    }
  }

  private async boot(
    spec: DesiredInstance,
    instance: MemoryInstance,
    options: BootOptions,
  ): Promise<Endpoints> {
    if (instance.phase === 'running') return this.untilReady(spec, instance, options.signal);
    for (const index of spec.gpuIndexes) {
      if (!options.gpus.some((g) => g.index === index)) {
        throw new DriverError(`GPU ${index} is not on this host`);
      }
    }
    if (!instance.disk) {
      const image = options.image ? await options.image() : null;
      instance.disk = { image };
    }
    if (this.instances.get(spec.id) !== instance) throw new DriverError('boot superseded');
    instance.phase = 'running';
    instance.ready = false;
    return this.untilReady(spec, instance, options.signal);
  }

  private async untilReady(
    spec: DesiredInstance,
    instance: MemoryInstance,
    signal?: AbortSignal,
  ): Promise<Endpoints> {
    if (instance.phase !== 'running') throw new DriverError(`instance ${spec.id} is not running`);
    if (!instance.ready && this.readiness === 'immediate') instance.ready = true;
    if (!instance.ready) {
      instance.booting ??= gate();
      const booting = instance.booting.promise;
      await (signal ? abortable(booting, signal) : booting);
    }
    return this.endpointsOf(instance, spec.sshUser);
  }

  private off(id: string, why: string) {
    const instance = this.instances.get(id);
    if (!instance) return;
    instance.booting?.reject(new DriverError(why));
    instance.booting = null;
    if (instance.phase === 'running') instance.phase = 'stopped';
    instance.ready = false;
  }

  private known(id: string): MemoryInstance {
    const instance = this.instances.get(id);
    if (!instance) throw new DriverError(`unknown instance ${id}`);
    return instance;
  }

  private freeSlot(): number {
    const taken = new Set([...this.instances.values()].map((i) => i.slot));
    let slot = 1;
    while (taken.has(slot)) slot++;
    return slot;
  }

  private endpointsOf(instance: MemoryInstance, sshUser: string): Endpoints {
    return {
      ssh: { host: this.publicHost, port: 22000 + instance.slot, user: sshUser },
      vnc: { host: this.publicHost, port: 5900 + instance.slot },
    };
  }
}

/** A host that holds no image and cannot fetch one. */
class NoImages implements ImageInventory {
  async load() {}
  holds() {
    return false;
  }
  async ensure(image: CatalogueImage): Promise<string> {
    throw new DriverError(`image ${image.name} is not held on this host`);
  }
  release() {}
  statuses(): HostImageStatus[] {
    return [];
  }
}

function gate(): Gate {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A boot nobody waits for any more (superseded) must not be an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** Stops waiting (not the boot) when the signal fires, as a superseded boot does. */
function abortable(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new DriverError('boot superseded'));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new DriverError('boot superseded'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

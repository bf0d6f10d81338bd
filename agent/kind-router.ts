import type { DesiredInstance, InstanceStatus } from '../shared/contracts/agent-protocol';
import type { InstanceKind } from '../shared/contracts/instance-kind';
import {
  type BootOptions,
  DriverError,
  type Endpoints,
  type HostInstance,
  type ImageInventory,
  type InstanceDriver,
} from './driver';

/**
 * One host, two kinds of instance (docs/decisions/025): VMs on the QEMU driver and containers
 * on the Podman driver, side by side. The agent's loop sees one `InstanceDriver`; this routes
 * what names a kind (create, start, adopt) to that kind's driver, and what names only an id
 * to every driver — each ignores ids it does not have, as the driver contract requires. An
 * instance never changes kind, and the two drivers' names never meet (`rentgpu-<id>`
 * containers, `<id>/` folders of VMs), so an id is held by one driver at most.
 */
export class KindRouter implements InstanceDriver {
  readonly images: ImageInventory;
  private readonly drivers: [InstanceKind, InstanceDriver][];

  constructor(drivers: Partial<Record<InstanceKind, InstanceDriver>>) {
    this.drivers = Object.entries(drivers).filter(
      (entry): entry is [InstanceKind, InstanceDriver] => entry[1] !== undefined,
    );
    if (this.drivers.length === 0) throw new Error('a host runs at least one kind of instance');
    // OS images (catalogue names, qcow2 files) are the VM driver's; a container's OCI image is
    // pulled by its own driver during create, with its progress given through BootOptions.
    this.images = drivers.vm?.images ?? new NoImages();
  }

  /** The kinds this host runs, in a fixed order (the heartbeat's `host.drivers`). */
  get kinds(): InstanceKind[] {
    return this.drivers.map(([kind]) => kind).sort();
  }

  private driverFor(spec: DesiredInstance): InstanceDriver {
    const found = this.drivers.find(([kind]) => kind === spec.kind)?.[1];
    if (!found) {
      throw new DriverError(
        spec.kind === 'container'
          ? 'This host does not run containers (AGENT_DRIVERS has no container).'
          : 'This host does not run virtual machines (AGENT_DRIVERS has no vm).',
      );
    }
    return found;
  }

  async list(): Promise<HostInstance[]> {
    const lists = await Promise.all(this.drivers.map(([, d]) => d.list()));
    return lists.flat();
  }

  async create(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    return this.driverFor(spec).create(spec, options);
  }

  async start(spec: DesiredInstance, options: BootOptions): Promise<Endpoints> {
    return this.driverFor(spec).start(spec, options);
  }

  async awaitReady(spec: DesiredInstance, signal?: AbortSignal): Promise<Endpoints> {
    return this.driverFor(spec).awaitReady(spec, signal);
  }

  async endpoints(id: string, sshUser: string): Promise<Endpoints | null> {
    for (const [, d] of this.drivers) {
      const found = await d.endpoints(id, sshUser);
      if (found) return found;
    }
    return null;
  }

  async stop(id: string): Promise<void> {
    await this.everyDriver((d) => d.stop(id));
  }

  async forceOff(id: string): Promise<void> {
    await this.everyDriver((d) => d.forceOff(id));
  }

  async terminate(id: string): Promise<void> {
    await this.everyDriver((d) => d.terminate(id));
  }

  async saveStatus(status: InstanceStatus): Promise<void> {
    await this.everyDriver((d) => d.saveStatus(status));
  }

  /** One after the other: a failure of one driver is not hidden by the other's success. */
  private async everyDriver(act: (d: InstanceDriver) => Promise<void>) {
    for (const [, d] of this.drivers) await act(d);
  }
}

/** A host without VMs holds no OS images. */
class NoImages implements ImageInventory {
  async load() {}
  holds() {
    return false;
  }
  ensure(): Promise<string> {
    return Promise.reject(new DriverError('This host keeps no OS images (it runs no VMs).'));
  }
  release() {}
  statuses() {
    return [];
  }
}

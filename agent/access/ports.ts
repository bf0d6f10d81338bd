import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DriverError } from '../driver';
import { readJson, writeAtomic } from '../files';
import { portIsFree } from './net';

/** An instance's SSH port and VNC display, kept in its folder (`ports.json`). */
export interface Ports {
  sshPort: number;
  vncDisplay: number;
}

/** The file in an instance's folder that holds its ports (both drivers). */
export const PORTS_FILE = 'ports.json';

interface PortRanges {
  instancesDir: string;
  listenHost: string;
  sshPorts: readonly [number, number];
  vncDisplays: readonly [number, number];
  /**
   * Ports a new allocation must also pass over though nothing listens on them (the container
   * driver: host ports a forwarding rule already claims, Networks.forwardedPorts).
   */
  claimed?: () => Promise<ReadonlySet<number>>;
}

/** One kind of port an instance holds: its range, and what is added to reach a TCP port. */
type Kinds<P> = { [K in keyof P]: { range: readonly [number, number]; offset: number } };

/**
 * The instances' ports: an instance keeps its ports across stop/start unless another process
 * took them; a new one gets the first ones no instance folder holds and nothing listens on.
 * One allocation at a time, so two boots never pick the same port. Shared by the QEMU driver
 * (SSH and VNC: `PortBook`) and the container driver (SSH only: `SshPortBook`).
 */
class Book<P extends { [K in keyof P]: number }> {
  private allocating: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly instancesDir: string,
    private readonly listenHost: string,
    private readonly kinds: Kinds<P>,
    private readonly claimed: () => Promise<ReadonlySet<number>> = async () => new Set(),
  ) {}

  ensure(id: string): Promise<P> {
    const next = this.allocating.then(() => this.allocate(id));
    this.allocating = next.catch(() => {});
    return next;
  }

  read(id: string): Promise<P | null> {
    return readJson(path.join(this.instancesDir, id, PORTS_FILE), (v) => {
      const p = v as P;
      for (const k of this.keys()) if (!Number.isInteger(p[k])) throw new Error('bad');
      return p;
    });
  }

  private keys() {
    return Object.keys(this.kinds) as (keyof P & string)[];
  }

  private async allocate(id: string): Promise<P> {
    const host = this.listenHost;
    const mine = await this.read(id);
    if (mine) {
      let free = true;
      for (const k of this.keys()) {
        free &&= await portIsFree(host, (mine[k] as number) + this.kinds[k].offset);
      }
      if (free) return mine;
    }
    const taken = new Map(this.keys().map((k) => [k, new Set<number>()]));
    for (const other of await readdir(this.instancesDir).catch(() => [])) {
      if (other === id) continue;
      const p = await this.read(other);
      if (p) for (const k of this.keys()) taken.get(k)?.add(p[k] as number);
    }
    const claimed = await this.claimed();
    const ports: Record<string, number> = {};
    for (const k of this.keys()) {
      const { range, offset } = this.kinds[k];
      let found: number | null = null;
      for (let n = range[0]; n <= range[1] && found === null; n++) {
        if (taken.get(k)?.has(n) || claimed.has(n + offset)) continue;
        if (await portIsFree(host, n + offset)) found = n;
      }
      if (found === null) throw new DriverError(`no free ${k === 'sshPort' ? 'SSH' : 'VNC'} port`);
      ports[k] = found;
    }
    await writeAtomic(path.join(this.instancesDir, id, PORTS_FILE), JSON.stringify(ports));
    return ports as unknown as P;
  }
}

/** A VM's SSH port and VNC display. */
export class PortBook extends Book<Ports> {
  constructor(config: PortRanges) {
    super(config.instancesDir, config.listenHost, {
      sshPort: { range: config.sshPorts, offset: 0 },
      vncDisplay: { range: config.vncDisplays, offset: 5900 },
    });
  }
}

/** A container's SSH port (containers have no console). */
export class SshPortBook extends Book<{ sshPort: number }> {
  constructor(config: Omit<PortRanges, 'vncDisplays'>) {
    super(
      config.instancesDir,
      config.listenHost,
      { sshPort: { range: config.sshPorts, offset: 0 } },
      config.claimed,
    );
  }
}

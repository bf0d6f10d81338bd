import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DriverError } from '../driver';
import { readJson, writeAtomic } from '../files';
import { instanceFiles } from './args';
import { portIsFree } from './processes';

/** An instance's SSH port and VNC display, kept in its folder. */
export interface Ports {
  sshPort: number;
  vncDisplay: number;
}

interface PortRanges {
  instancesDir: string;
  listenHost: string;
  sshPorts: readonly [number, number];
  vncDisplays: readonly [number, number];
}

/**
 * The instances' ports: an instance keeps its ports across stop/start unless another process
 * took them; a new one gets the first pair no instance folder holds and nothing listens on.
 * One allocation at a time, so two boots never pick the same port.
 */
export class PortBook {
  private allocating: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: PortRanges) {}

  ensure(id: string): Promise<Ports> {
    const next = this.allocating.then(() => this.allocate(id));
    this.allocating = next.catch(() => {});
    return next;
  }

  read(id: string): Promise<Ports | null> {
    return readJson(instanceFiles(path.join(this.config.instancesDir, id)).ports, (v) => {
      const p = v as Ports;
      if (!Number.isInteger(p.sshPort) || !Number.isInteger(p.vncDisplay)) throw new Error('bad');
      return p;
    });
  }

  private async allocate(id: string): Promise<Ports> {
    const host = this.config.listenHost;
    const mine = await this.read(id);
    if (
      mine &&
      (await portIsFree(host, mine.sshPort)) &&
      (await portIsFree(host, 5900 + mine.vncDisplay))
    ) {
      return mine;
    }
    const taken = { ssh: new Set<number>(), vnc: new Set<number>() };
    for (const other of await readdir(this.config.instancesDir)) {
      if (other === id) continue;
      const p = await this.read(other);
      if (p) {
        taken.ssh.add(p.sshPort);
        taken.vnc.add(p.vncDisplay);
      }
    }
    const pick = async (range: readonly [number, number], used: Set<number>, offset: number) => {
      for (let n = range[0]; n <= range[1]; n++) {
        if (!used.has(n) && (await portIsFree(host, n + offset))) return n;
      }
      return null;
    };
    const sshPort = await pick(this.config.sshPorts, taken.ssh, 0);
    const vncDisplay = await pick(this.config.vncDisplays, taken.vnc, 5900);
    if (sshPort === null || vncDisplay === null) throw new DriverError('no free SSH or VNC port');
    const ports = { sshPort, vncDisplay };
    await writeAtomic(
      instanceFiles(path.join(this.config.instancesDir, id)).ports,
      JSON.stringify(ports),
    );
    return ports;
  }
}

import { readFile } from 'node:fs/promises';
import type { InstanceStatus } from '../../shared/contracts/agent-protocol';

/**
 * SSH sessions on the host's forwarded guest ports, for idle stop (docs/decisions/019): an
 * instance is active while someone is logged in over SSH, even with its GPUs quiet.
 *
 * QEMU's user-mode network (`hostfwd`) accepts each SSH connection on the host, so every
 * connection to a guest is an ESTABLISHED TCP socket in the host's tables whose local port is
 * the guest's SSH port. The host cannot see whether a connection has logged in, so a
 * connection counts only once it has stayed open `minAgeMs` (default 2 minutes, OpenSSH's
 * LoginGraceTime): sshd closes one that has not authenticated by then, so scanners and
 * password guessers on a public port never keep an instance running.
 */

/** The kernel's TCP tables (IPv4, IPv6): `sl local rem st … inode …` per socket. */
const TCP_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
/** `st` of an established connection (include/net/tcp_states.h: TCP_ESTABLISHED = 1). */
const ESTABLISHED = '01';
export const SSH_SESSION_MIN_AGE_MS = 120_000;

/** An established socket in a TCP table: its local port and inode (unique while it lives). */
export interface TcpConnection {
  localPort: number;
  inode: string;
}

/** The established connections of one `/proc/net/tcp`-format table (its header line skipped). */
export function establishedConnections(table: string): TcpConnection[] {
  const out: TcpConnection[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl, local_address, rem_address, st, tx:rx, tr:when, retrnsmt, uid, timeout, inode
    if (fields.length < 10 || fields[3] !== ESTABLISHED) continue;
    const local = fields[1] ?? '';
    const port = Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    const inode = fields[9] ?? '';
    // Inode 0: a socket already closed by its process (TIME_WAIT-like leftovers).
    if (!Number.isInteger(port) || inode === '' || inode === '0') continue;
    out.push({ localPort: port, inode });
  }
  return out;
}

export type ReadTable = (path: string) => Promise<string>;

const readTable: ReadTable = async (path) => {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return ''; // no IPv6 on this host
  }
};

/**
 * Counts, per watched port, the connections open at least `minAgeMs`. Each call is one sample
 * (a heartbeat's); a connection's age is from the first sample that saw it.
 */
export class SshSessionWatch {
  /** Every established connection on a watched port seen so far: inode → first seen (ms). */
  private readonly firstSeen = new Map<string, number>();

  constructor(
    private readonly options: {
      minAgeMs?: number;
      now?: () => number;
      read?: ReadTable;
      tables?: readonly string[];
    } = {},
  ) {}

  async sample(ports: Iterable<number>): Promise<Map<number, number>> {
    const watched = new Set(ports);
    const counts = new Map<number, number>();
    if (watched.size === 0) {
      this.firstSeen.clear();
      return counts;
    }
    const read = this.options.read ?? readTable;
    const now = (this.options.now ?? Date.now)();
    const minAge = this.options.minAgeMs ?? SSH_SESSION_MIN_AGE_MS;
    const seen = new Set<string>();
    for (const path of this.options.tables ?? TCP_TABLES) {
      for (const c of establishedConnections(await read(path))) {
        if (!watched.has(c.localPort) || seen.has(c.inode)) continue;
        seen.add(c.inode);
        const since = this.firstSeen.get(c.inode) ?? now;
        this.firstSeen.set(c.inode, since);
        if (now - since >= minAge) counts.set(c.localPort, (counts.get(c.localPort) ?? 0) + 1);
      }
    }
    for (const inode of this.firstSeen.keys()) if (!seen.has(inode)) this.firstSeen.delete(inode);
    return counts;
  }

  /**
   * The statuses a heartbeat carries (`carried`), each running one with its SSH sessions.
   * Every running instance (`all`) is sampled, not only the carried ones, so a session's age
   * is known whichever heartbeat page reports it.
   */
  async annotate(
    all: Iterable<InstanceStatus>,
    carried: InstanceStatus[],
  ): Promise<InstanceStatus[]> {
    const ports = [...all].map(sshPortOf).filter((p): p is number => p !== undefined);
    const counts = await this.sample(ports);
    return carried.map((s) => {
      const port = sshPortOf(s);
      return port === undefined ? s : { ...s, sshSessions: counts.get(port) ?? 0 };
    });
  }
}

/** A running instance's SSH port (the host's forwarded one); none otherwise. */
const sshPortOf = (s: InstanceStatus) => (s.state === 'running' ? s.ssh?.port : undefined);

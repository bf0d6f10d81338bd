import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { promisify } from 'node:util';
import { DriverError } from '../driver';
import type { Podman } from './podman';

const run = promisify(execFile);

/**
 * Each container has a network of its own (docs/decisions/025):
 *  - `podman network create --opt isolate=true`: CNI's firewall plugin drops what one isolated
 *    bridge forwards to another, so a renter cannot reach another renter's container;
 *  - an INPUT rule per bridge (iptables and ip6tables, for the bridge's link-local address)
 *    dropping every connection a container opens to the host itself: the gateway, the host's
 *    other addresses and, through the `route_localnet` CNI's portmap turns on, 127.0.0.1. Only
 *    replies pass (conntrack ESTABLISHED,RELATED): published ports still answer. Forwarded
 *    traffic (the internet) is not INPUT and stays allowed.
 * The rules carry the comment `rentgpu:<network>` so terminate finds and deletes them.
 */
export interface InstanceNetwork {
  name: string;
  bridge: string;
}

export class Networks {
  constructor(
    private readonly podman: Podman,
    private readonly tools: { iptables: string; ip6tables: string | null },
  ) {}

  /** The instance's network, made when missing, with its host rule in place. */
  async ensure(name: string, id: string): Promise<InstanceNetwork> {
    if (!(await this.podman.exists('network', name))) await this.create(name, id);
    const bridge = await this.bridgeOf(name);
    if (!BRIDGE_NAME.test(bridge)) throw new DriverError(`network ${name} has no bridge`);
    await this.guard(name, bridge);
    await routeLoopback(bridge);
    return { name, bridge };
  }

  /**
   * Makes network `name` on a /24 and a bridge of its own on the host. Podman 4.3 names a new
   * network's bridge `cni-podman<N>`, the first N that neither its store's networks nor a live
   * interface of the host holds, and has no flag to choose it (`--interface-name` came in 4.4);
   * the bridge itself appears only when the network's first container starts. So two stores on
   * one host (a test's beside an agent's) gave two networks the same bridge, and removing one
   * network deleted the other's bridge under its running container (2026-11-30: "cni-podman1
   * route_localnet ENOENT", the container's address routed out of eth0). Here, under a lock of
   * the whole host (`holdingHostLock`), the network is made and its bridge at once, with the
   * gateway's address (`ip link add … type bridge`; CNI's bridge plugin takes an existing bridge
   * with its own address as its own): the next network made anywhere on the host sees both the
   * name and the /24 taken. A bridge of that name made meanwhile outside the lock (a Podman that
   * is not this agent's) is left alone, as before: removing this network again would delete it.
   */
  private async create(name: string, id: string): Promise<void> {
    await holdingHostLock(async () => {
      const subnet = await this.freeSubnet(name);
      await this.podman.run([
        'network',
        'create',
        '--opt',
        'isolate=true',
        '--subnet',
        subnet,
        '--label',
        `rentgpu.instance=${id}`,
        name,
      ]);
      await makeBridge(await this.bridgeOf(name), subnet.replace(/\.0\/24$/, '.1/24'));
    });
  }

  /**
   * A /24 for a new network that nothing on the host uses: neither a network podman knows (this
   * store) nor an address the host has up (another store's bridge, Docker's, the provider's
   * own). Podman alone numbers each store's subnets from 10.89.0.0/24 without looking at the
   * host, so two stores on one host (tests) would route the same /24 to two bridges.
   *
   * A network's bridge comes up only when its first container starts, so two networks made in
   * the same seconds (two stores, or two boots of one store at once) see neither the other's
   * subnet nor its address: the search starts at a place of the network's own name
   * (`firstSubnetOf`), not at 10.89.0.0, and two such networks take the same /24 only when their
   * names land together.
   */
  private async freeSubnet(name: string): Promise<string> {
    const known = await this.podman
      .json<{ subnets?: { subnet?: string }[] }[]>(['network', 'ls', '--format', 'json'])
      .catch(() => []);
    const subnets = new Set(known.flatMap((n) => (n.subnets ?? []).map((x) => x.subnet ?? '')));
    const addresses = await hostAddresses();
    const first = firstSubnetOf(name);
    for (let n = 0; n < SUBNETS; n++) {
      const i = (first + n) % SUBNETS;
      const prefix = `10.${89 + (i >> 8)}.${i & 255}`;
      const subnet = `${prefix}.0/24`;
      if (subnets.has(subnet) || addresses.has(`${prefix}.1`)) continue;
      return subnet;
    }
    throw new DriverError(
      `no free /24 left in 10.89.0.0-10.${88 + SUBNETS / 256}.255.0 for a network`,
    );
  }

  /** The network and its rules gone; a missing one is fine (terminate repeated). */
  async remove(name: string): Promise<void> {
    await this.unguard(name);
    if (await this.podman.exists('network', name)) {
      await this.podman.run(['network', 'rm', '-f', name]);
    }
  }

  /**
   * How the host routes to a container, for a boot that saw no banner: the interface the
   * kernel picks for its address, and each bridge's `route_localnet` (without it, a packet from
   * 127.0.0.1 that the published port's DNAT sends out of the bridge is dropped as a martian:
   * the loopback port answers nothing while the container's own address does).
   */
  async routing(name: string, address: string | undefined): Promise<string[]> {
    const seen: string[] = [];
    const bridge = await this.bridgeOf(name).catch(() => '');
    if (bridge) seen.push(`${bridge} route_localnet ${await localnet(bridge)}`);
    if (address) {
      const route = await run('ip', ['-o', '-4', 'route', 'get', address]).then(
        (r) => r.stdout.trim().replace(/\s+/g, ' '),
        (err: Error) => err.message,
      );
      const via = /\bdev (\S+)/.exec(route)?.[1];
      seen.push(`route to ${address}: ${route}`);
      if (via && via !== bridge) seen.push(`${via} route_localnet ${await localnet(via)}`);
    }
    return seen;
  }

  /** The bridge interface podman named for network `name`. */
  private async bridgeOf(name: string): Promise<string> {
    const out = await this.podman.run([
      'network',
      'inspect',
      name,
      '--format',
      '{{.NetworkInterface}}',
    ]);
    return out.trim();
  }

  /**
   * Host ports CNI's portmap forwards now (its CNI-HOSTPORT-DNAT chain in the nat table),
   * whichever container or store they were made for. A new instance's port must not be one of
   * them: a rule left behind by a container whose network teardown never ran (a crash, a store
   * deleted under it) keeps matching its port first, and a new container published there gets
   * nothing (its own address answers, the published port does not). Empty when the chain or
   * iptables is missing.
   */
  async forwardedPorts(): Promise<Set<number>> {
    const out = await run(this.tools.iptables, ['-w', '-t', 'nat', '-S', 'CNI-HOSTPORT-DNAT']).then(
      (r) => r.stdout,
      () => '',
    );
    return forwardedPortsIn(out);
  }

  /** The INPUT rules of `name` as `iptables -S` prints them (tests look for leftovers). */
  async rules(name: string): Promise<string[]> {
    const found: string[] = [];
    for (const tool of this.binaries()) {
      const out = await run(tool, ['-w', '-S', 'INPUT']).then((r) => r.stdout);
      found.push(...out.split('\n').filter((l) => l.includes(`"${comment(name)}"`)));
    }
    return found;
  }

  private binaries() {
    return [this.tools.iptables, ...(this.tools.ip6tables ? [this.tools.ip6tables] : [])];
  }

  private async guard(name: string, bridge: string) {
    for (const tool of this.binaries()) {
      const rule = [
        'INPUT',
        '-i',
        bridge,
        '-m',
        'conntrack',
        '!',
        '--ctstate',
        'ESTABLISHED,RELATED',
        '-m',
        'comment',
        '--comment',
        comment(name),
        '-j',
        'DROP',
      ];
      const present = await run(tool, ['-w', '-C', ...rule]).then(
        () => true,
        () => false,
      );
      if (present) continue;
      await run(tool, ['-w', '-I', ...rule]).catch((err: { stderr?: string; message: string }) => {
        throw new DriverError(
          `cannot keep the container from the host (${tool}): ${(err.stderr || err.message).trim()}`,
        );
      });
    }
  }

  private async unguard(name: string) {
    for (const tool of this.binaries()) {
      const out = await run(tool, ['-w', '-S', 'INPUT']).then(
        (r) => r.stdout,
        () => '',
      );
      for (const line of out.split('\n')) {
        if (!line.startsWith('-A INPUT ') || !line.includes(`"${comment(name)}"`)) continue;
        // `-S` prints the rule as it was added; `-D` takes the same words.
        const words = line
          .slice(3)
          .match(/"[^"]*"|\S+/g)
          ?.map((w) => w.replace(/^"(.*)"$/, '$1'));
        if (words) await run(tool, ['-w', '-D', ...words]).catch(() => {});
      }
    }
  }
}

const comment = (name: string) => `rentgpu:${name}`;

/** A bridge name podman may print and `ip` and iptables take as one word (IFNAMSIZ: 15). */
const BRIDGE_NAME = /^[\w.-]{1,15}$/;

/** The host-wide lock of network creation (flock(1)); /run/lock is tmpfs, so a reboot clears it. */
const HOST_LOCK_FILE = '/run/lock/rentgpu-networks.lock';
/** How long a network's creation waits for the lock before it goes on without it. */
const HOST_LOCK_WAIT_S = 60;

/**
 * Runs `work` holding an exclusive flock(1) on HOST_LOCK_FILE, across every process on the host
 * (agents, tests). The lock is held by a `flock … cat` child reading this process's pipe: it
 * goes when the pipe closes, so a process that dies holding it lets it go too. Without flock, or
 * after HOST_LOCK_WAIT_S, `work` runs without the lock.
 */
async function holdingHostLock<T>(work: () => Promise<T>): Promise<T> {
  const holder = spawn(
    'flock',
    ['-x', '-w', String(HOST_LOCK_WAIT_S), HOST_LOCK_FILE, '-c', 'echo held; exec cat'],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  holder.stdin.on('error', () => {}); // a holder gone already (no flock, timed out)
  await new Promise<void>((resolve) => {
    holder.stdout.once('data', () => resolve());
    holder.once('error', () => resolve());
    holder.once('exit', () => resolve());
  });
  try {
    return await work();
  } finally {
    holder.stdin.end();
    holder.stdout.destroy();
  }
}

/**
 * Bridge `bridge` made on the host with address `gateway` (10.x.y.1/24), for a network podman
 * just made (`Networks.create`). An interface already there is left as it is; without iproute2,
 * CNI makes the bridge at the container's start, as before.
 */
async function makeBridge(bridge: string, gateway: string): Promise<void> {
  if (!BRIDGE_NAME.test(bridge)) return;
  const made = await run('ip', ['link', 'add', bridge, 'type', 'bridge']).then(
    () => true,
    () => false,
  );
  if (made) await run('ip', ['addr', 'add', gateway, 'dev', bridge]).catch(() => {});
}

/**
 * `route_localnet` on the container's bridge, once the bridge is there (made with its network,
 * `Networks.create`; after a reboot, by CNI at the container's first start). The published
 * port is bound to 127.0.0.1 (or to every address, and the agent's readiness probe goes to
 * 127.0.0.1): the port's DNAT sends a packet from 127.0.0.1 out of the bridge, and without this
 * bit the kernel drops it as a martian — the port answers nothing while the container's own address does.
 * CNI's portmap sets the bit too, but only at the container's start and only on the interface
 * that routed to the container's address at that moment; a bridge made again later (same name,
 * new interface) has it off. The host-side INPUT rule (`guard`) is what keeps the container
 * from the host's loopback services, with this bit on as with it off.
 */
async function routeLoopback(bridge: string): Promise<void> {
  const file = localnetFile(bridge);
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now === null || now.trim() === '1') return;
  await writeFile(file, '1').catch((err: Error) => {
    throw new DriverError(`cannot route the published port to ${bridge}: ${err.message}`);
  });
}

const localnetFile = (device: string) => `/proc/sys/net/ipv4/conf/${device}/route_localnet`;

/** An interface's `route_localnet` (0 or 1), or why it could not be read. */
const localnet = (device: string) =>
  readFile(localnetFile(device), 'utf8').then(
    (v) => v.trim(),
    (err: NodeJS.ErrnoException) => err.code ?? 'unreadable',
  );

/**
 * Every IPv4 address the host's interfaces hold, those that are down included: a bridge whose
 * last container stopped has no carrier, and Node's `os.networkInterfaces()` (libuv) leaves out
 * interfaces that are not up and running — yet the bridge keeps its address and its route, so a
 * new network on the same /24 would take a second route to it (CI: a container's published
 * loopback port answered nothing while its own address did). `ip -o -4 addr` lists them all;
 * without iproute2, the running ones.
 */
async function hostAddresses(): Promise<Set<string>> {
  const running = Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((a) => a.address),
  );
  const all = await run('ip', ['-o', '-4', 'addr', 'show']).then(
    (r) => [...r.stdout.matchAll(/\binet (\d+\.\d+\.\d+\.\d+)\//g)].map((m) => m[1] ?? ''),
    () => [],
  );
  return new Set([...running, ...all]);
}

/** /24s a host's containers may take: 10.89.0.0 to 10.96.255.0 (2048 networks). */
const SUBNETS = 2048;

/** Where the search for a network's /24 starts: its name's FNV-1a hash, as an index of SUBNETS. */
export function firstSubnetOf(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % SUBNETS;
}

/** The host ports of `iptables -S CNI-HOSTPORT-DNAT`'s rules (`--dports 2222,2223` or `--dport 2222`). */
export function forwardedPortsIn(rules: string): Set<number> {
  const ports = new Set<number>();
  for (const match of rules.matchAll(/--dports? ([\d,:]+)/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const [from, to = from] = part.split(':').map(Number);
      if (
        from === undefined ||
        to === undefined ||
        !Number.isInteger(from) ||
        !Number.isInteger(to)
      )
        continue;
      for (let port = from; port <= Math.min(to, from + 1024); port++) ports.add(port);
    }
  }
  return ports;
}

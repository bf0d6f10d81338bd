import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import os from 'node:os';

/**
 * Where the server may open a connection on a user's behalf (the web console's SSH): never to
 * loopback, private, link-local, shared (CGNAT), multicast or reserved addresses, nor to one of
 * this machine's own — unless the operator allows them (CONSOLE_PRIVATE_TARGETS=allow, for
 * development and tests, where agents run on this machine). A name is resolved once and the
 * connection goes to the address that was checked, so a second lookup cannot answer otherwise
 * (DNS rebinding). docs/decisions/013-hosts-are-untrusted.md.
 */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

/** Why an address is refused, or null when it is a public one. */
export function internalReason(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  // IPv4 inside IPv6 (`::ffff:127.0.0.1`, NAT64 `64:ff9b::7f00:1`): judge the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return internalReason(mapped);
  if (family === 6 && /^(::ffff:|64:ff9b::)/i.test(address)) {
    const v4 = embeddedIpv4(address);
    if (v4) return internalReason(v4);
  }
  if (internal.check(address, family === 4 ? 'ipv4' : 'ipv6')) return 'an internal address';
  if (ownAddresses().has(address.toLowerCase())) return "this server's own address";
  return null;
}

function embeddedIpv4(v6: string): string | null {
  const url = new URL(`http://[${v6}]/`).hostname.slice(1, -1);
  const m = /:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(url);
  if (!m) return null;
  const hi = Number.parseInt(m[1] ?? '0', 16);
  const lo = Number.parseInt(m[2] ?? '0', 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) own.add(a.address.toLowerCase());
  }
  return own;
}

export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

export type Resolve = (host: string) => Promise<{ address: string }[]>;

/**
 * The address to connect to for `host` (an IP literal or a DNS name), after the checks above.
 * Throws OutboundRefused, with the real reason for the server's log, when it may not.
 */
export async function outboundAddress(
  host: string,
  options: { allowInternal: boolean; resolve?: Resolve },
): Promise<string> {
  const resolve = options.resolve ?? ((name) => lookup(name, { all: true, verbatim: true }));
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (error) {
      throw new OutboundRefused(`${host} did not resolve: ${(error as Error).message}`);
    }
  }
  const first = addresses[0];
  if (first === undefined) throw new OutboundRefused(`${host} has no address`);
  if (options.allowInternal) return first;
  // Every answer must be public: a name that also points inside is refused whole.
  for (const address of addresses) {
    const reason = internalReason(address);
    if (reason) throw new OutboundRefused(`${host} is ${address}, ${reason}`);
  }
  return first;
}

import { parseHostAddress } from './host-address';

/**
 * Which addresses renters may be sent to and the server's console may connect to
 * (docs/decisions/013-hosts-are-untrusted.md): never this machine, a private network, a cloud
 * metadata service or another provider's host. One rule for the provider's public name, the
 * host's reports, the console and the CLI; each caller resolves a name first where it can and
 * asks again for every address the name stands for. Pure: no DNS, no `node:` imports.
 *
 * `allowPrivate` is the operator's lab setting (ALLOW_PRIVATE_HOST_ADDRESSES): loopback,
 * private, link-local, shared (CGNAT) addresses and local names are then let through — agents
 * on this machine or on a lab's network. Metadata services, multicast, unspecified and
 * reserved addresses, and another host's address, never are.
 */

export type TargetKind =
  | 'not-an-address'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'local-name'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'another-host';

export interface TargetRefusal {
  kind: TargetKind;
  /** What the address is, to follow "ADDRESS is": "a loopback address". */
  reason: string;
}

export interface TargetOptions {
  /** ALLOW_PRIVATE_HOST_ADDRESSES: a lab, where hosts are on loopback or a private network. */
  allowPrivate?: boolean;
  /** Addresses (IP literals or names, any spelling) of hosts this one must not be sent to. */
  otherHosts?: Iterable<string | null | undefined>;
}

const REASONS: Record<TargetKind, string> = {
  'not-an-address': 'not an IP address or host name',
  loopback: 'a loopback address (the machine itself)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  shared: 'a shared (carrier-grade NAT) address',
  'local-name': 'a local name, not one the internet can resolve',
  metadata: "a cloud metadata service's address",
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  'another-host': "another provider's host's address",
};

/** What the lab setting lets through; everything else is refused in every environment. */
const LAB_KINDS: ReadonlySet<TargetKind> = new Set([
  'loopback',
  'private',
  'link-local',
  'shared',
  'local-name',
]);

/** Cloud instance metadata services, by name: they answer with the server's own secrets. */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.platformequinix.com',
  'metadata.tencentyun.com',
]);

/** …and by address (AWS, GCP, Azure, Oracle, OpenStack; ECS and EKS; Alibaba; Azure's wire server). */
const METADATA_IPV4: ReadonlySet<string> = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '168.63.129.16',
]);
/** AWS's IPv6 metadata address, fd00:ec2::254. */
const METADATA_IPV6 = [0xfd, 0x00, 0x0e, 0xc2, ...Array<number>(10).fill(0), 0x02, 0x54].join();

const LOOPBACK_NAMES: ReadonlySet<string> = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
]);

/** Suffixes only a local resolver answers (RFC 6761, 6762, 8375, ICANN's `.internal`). */
const LOCAL_SUFFIXES = [
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
];

type V4Range = [a: number, b: number, c: number, d: number, prefix: number, kind: TargetKind];

const IPV4_RANGES: V4Range[] = [
  [0, 0, 0, 0, 8, 'unspecified'],
  [10, 0, 0, 0, 8, 'private'],
  [100, 64, 0, 0, 10, 'shared'],
  [127, 0, 0, 0, 8, 'loopback'],
  [169, 254, 0, 0, 16, 'link-local'],
  [172, 16, 0, 0, 12, 'private'],
  [192, 0, 0, 0, 24, 'reserved'],
  [192, 88, 99, 0, 24, 'reserved'],
  [192, 168, 0, 0, 16, 'private'],
  [198, 18, 0, 0, 15, 'private'],
  [224, 0, 0, 0, 4, 'multicast'],
  [240, 0, 0, 0, 4, 'reserved'],
];

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX = /^[0-9a-f]{1,4}$/;

function ipv4Bytes(text: string): number[] | null {
  return IPV4.test(text) ? text.split('.').map(Number) : null;
}

/** The 16 bytes of an IPv6 literal (an IPv4 tail allowed, a `%zone` dropped), or null. */
function ipv6Bytes(input: string): number[] | null {
  const text = input.replace(/%.*$/, '');
  if (!text.includes(':')) return null;
  let tail: number[] = [];
  let head = text;
  const last = text.slice(text.lastIndexOf(':') + 1);
  if (last.includes('.')) {
    const v4 = ipv4Bytes(last);
    if (!v4) return null;
    tail = v4;
    head = text.slice(0, text.length - last.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  if (![...left, ...right].every((g) => HEX.test(g))) return null;
  const room = 8 - tail.length / 2;
  const count = left.length + right.length;
  if (halves.length === 2 ? count > room - 1 : count !== room) return null;
  const words = [...left, ...Array<string>(room - count).fill('0'), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return [...words.flatMap((w) => [w >> 8, w & 255]), ...tail];
}

function inV4(bytes: number[], [a, b, c, d, prefix]: V4Range): boolean {
  const net = [a, b, c, d];
  for (let bit = 0; bit < prefix; bit += 1) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyV4(bytes: number[]): TargetKind | null {
  if (METADATA_IPV4.has(bytes.join('.'))) return 'metadata';
  return IPV4_RANGES.find((range) => inV4(bytes, range))?.[5] ?? null;
}

const zeros = (bytes: number[], from: number, to: number) =>
  bytes.slice(from, to).every((b) => b === 0);

/** The IPv4 address an IPv6 one carries (mapped, SIIT, NAT64, 6to4), or null. */
function embeddedIpv4(b: number[]): number[] | null {
  // ::ffff:a.b.c.d and ::ffff:0:a.b.c.d
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12);
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return b.slice(12);
  // NAT64's well-known prefix, 64:ff9b::/96
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) {
    return b.slice(12);
  }
  // 6to4, 2002:AABB:CCDD::/48
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6);
  return null;
}

function classifyV6(b: number[]): TargetKind | null {
  const v4 = embeddedIpv4(b);
  if (v4) return classifyV4(v4);
  if (b.join() === METADATA_IPV6) return 'metadata';
  if (zeros(b, 0, 16)) return 'unspecified';
  if (zeros(b, 0, 15) && b[15] === 1) return 'loopback';
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = b;
  // Local-use NAT64, 64:ff9b:1::/48: a translator on the operator's own network.
  if (b0 === 0 && b1 === 0x64 && b2 === 0xff && b3 === 0x9b) return 'private';
  if (b0 === 0xff) return 'multicast';
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return 'link-local';
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return 'private'; // site-local, deprecated
  if ((b0 & 0xfe) === 0xfc) return 'private'; // unique local, fc00::/7
  // Teredo (2001::/32): a tunnel whose far end is anyone's.
  if (b0 === 0x20 && b1 === 0x01 && b2 === 0 && b3 === 0) return 'reserved';
  // Only 2000::/3 is global unicast; the rest (::/8, 100::/64, …) is nobody's to connect to.
  if ((b0 & 0xe0) !== 0x20) return 'reserved';
  return null;
}

function classifyName(name: string): TargetKind | null {
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return 'loopback';
  if (!name.includes('.')) return 'local-name';
  if (LOCAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return 'local-name';
  }
  return null;
}

type Parsed = { kind: 'ipv4' | 'ipv6'; bytes: number[] } | { kind: 'name'; name: string };

function parse(input: string): Parsed | null {
  const text = input
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  const v4 = ipv4Bytes(text);
  if (v4) return { kind: 'ipv4', bytes: v4 };
  const v6 = ipv6Bytes(text);
  if (v6) return { kind: 'ipv6', bytes: v6 };
  const host = parseHostAddress(text);
  return host?.kind === 'name' ? { kind: 'name', name: host.value } : null;
}

function formatV6(bytes: number[]): string {
  const words = Array.from(
    { length: 8 },
    (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0),
  );
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes `::`.
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j += 1;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.at < 0) return hex.join(':');
  const left = hex.slice(0, best.at).join(':');
  const right = hex.slice(best.at + best.length).join(':');
  return `${left}::${right}`;
}

/**
 * One spelling per address, for comparing: IPv4 dotted, an IPv4-mapped IPv6 address as its
 * IPv4, other IPv6 compressed (RFC 5952), a name lower case without its trailing dot; null
 * for text that is none of these.
 */
export function comparableAddress(input: string | null | undefined): string | null {
  if (!input) return null;
  const parsed = parse(input);
  if (!parsed) return null;
  if (parsed.kind === 'name') return parsed.name;
  if (parsed.kind === 'ipv4') return parsed.bytes.join('.');
  const b = parsed.bytes;
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.');
  return formatV6(b);
}

/**
 * Why `address` (an IP literal or a name; for a name, only what its text says) may not be
 * where renters are sent or the console connects; null when it may.
 */
export function targetRefusal(address: string, options: TargetOptions = {}): TargetRefusal | null {
  const parsed = parse(address);
  const refuse = (kind: TargetKind): TargetRefusal => ({ kind, reason: REASONS[kind] });
  if (!parsed) return refuse('not-an-address');
  const kind =
    parsed.kind === 'name'
      ? classifyName(parsed.name)
      : parsed.kind === 'ipv4'
        ? classifyV4(parsed.bytes)
        : classifyV6(parsed.bytes);
  if (kind && !(options.allowPrivate && LAB_KINDS.has(kind))) return refuse(kind);
  const self = comparableAddress(address);
  for (const other of options.otherHosts ?? []) {
    if (self !== null && comparableAddress(other) === self) return refuse('another-host');
  }
  return null;
}

/** "ADDRESS is REASON": the words a refusal is logged or shown with. */
export function describeTargetRefusal(address: string, refusal: TargetRefusal): string {
  return `${address} is ${refusal.reason}`;
}

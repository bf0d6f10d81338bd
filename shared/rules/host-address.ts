/**
 * Host addresses a provider's host may name (docs/decisions/013-hosts-are-untrusted.md): an
 * IPv4 literal in dotted-quad form, an IPv6 literal (no zone, no brackets), or a DNS name of
 * letters, digits and inner hyphens. Nothing else: no shell or ssh metacharacters, no leading
 * `-` (an ssh option), and no numeric shorthand such as `127.1` or `2130706433`, which
 * resolvers read as addresses and which would slip past a check of the text.
 */

export type HostAddress =
  | { kind: 'ipv4'; value: string }
  | { kind: 'ipv6'; value: string }
  | { kind: 'name'; value: string };

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HEX = /^[0-9a-f]{1,4}$/;

export const HOST_ADDRESS_MAX = 253;

function isIpv6(text: string): boolean {
  if (text.length < 2 || text.length > 45 || !text.includes(':')) return false;
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) counts as two groups.
  let tail = text;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!IPV4.test(last)) return false;
    tail = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = tail.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (![...head, ...rest].every((g) => HEX.test(g))) return false;
  const count = head.length + rest.length;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** The address in a canonical form (lower case, no trailing dot), or null when it is none. */
export function parseHostAddress(input: string): HostAddress | null {
  if (input.length === 0 || input.length > HOST_ADDRESS_MAX + 1) return null;
  const text = input.toLowerCase();
  if (IPV4.test(text)) return { kind: 'ipv4', value: text };
  if (isIpv6(text)) return { kind: 'ipv6', value: text };
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  if (name.length === 0 || name.length > HOST_ADDRESS_MAX) return null;
  const labels = name.split('.');
  if (!labels.every((l) => LABEL.test(l))) return null;
  // A last label of digits only is no DNS name: resolvers read `127.1` or `0x7f.1` as addresses.
  const top = labels[labels.length - 1] ?? '';
  if (/^\d+$/.test(top) || /^0x[0-9a-f]*$/.test(top)) return null;
  return { kind: 'name', value: name };
}

/** An IPv4-mapped IPv6 address (`::ffff:203.0.113.5`, as a dual-stack socket reports) as IPv4. */
export function unmapIpv4(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m?.[1] ?? address.toLowerCase();
}

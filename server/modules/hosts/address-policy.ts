import { parseHostAddress, unmapIpv4 } from '../../../shared/rules/host-address';

/**
 * Which addresses a host may report for its instances (docs/decisions/013-hosts-are-untrusted.md):
 * its own — the public name its provider set for it, or the address its agent calls from (now
 * or at its last heartbeat) — or one the operator allows for every host (HOST_ADDRESS_ALLOWLIST:
 * development and tests, where agents run on this machine). Anything else is refused, so a host
 * can neither send renters elsewhere nor point the server's console at someone else's machine.
 */
export interface HostAddresses {
  publicHost: string | null;
  agentAddress: string | null;
  /** The address the request being handled came from. */
  callerAddress?: string | null;
}

/** The canonical form of an address for comparing (IPv6 compressed and lower case), or null. */
export function canonicalAddress(text: string | null | undefined): string | null {
  if (!text) return null;
  const parsed = parseHostAddress(unmapIpv4(text));
  if (!parsed) return null;
  if (parsed.kind !== 'ipv6') return parsed.value;
  // The URL parser writes IPv6 in its one compressed form (RFC 5952).
  return new URL(`http://[${parsed.value}]/`).hostname.slice(1, -1);
}

export function createAddressPolicy(allowlist: readonly string[]) {
  const everyHost = new Set(allowlist.map(canonicalAddress).filter((a) => a !== null));
  return {
    /** The address in canonical form when this host may report it; null when it may not. */
    accept(host: HostAddresses, reported: string): string | null {
      const address = canonicalAddress(reported);
      if (address === null) return null;
      if (everyHost.has(address)) return address;
      const own = [host.publicHost, host.agentAddress, host.callerAddress].map(canonicalAddress);
      return own.includes(address) ? address : null;
    },
  };
}

export type AddressPolicy = ReturnType<typeof createAddressPolicy>;

import { parseHostAddress, unmapIpv4 } from '../../../shared/rules/host-address';
import { targetRefusal } from '../../../shared/rules/target-address';
import { hostAddressRefused } from '../../lib/errors';

/**
 * Which addresses a host may report for its instances (docs/decisions/013-hosts-are-untrusted.md):
 * its own — the public name its provider set for it, or the address its agent calls from (now
 * or at its last heartbeat) — or one the operator allows for every host (HOST_ADDRESS_ALLOWLIST),
 * and of those only what the address rule allows: no loopback, private or link-local address
 * outside a lab (ALLOW_PRIVATE_HOST_ADDRESSES), no metadata service ever. Anything else is
 * refused, so a host can neither send renters elsewhere nor point the server's console at
 * someone else's machine or inside the server's own network.
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

export function createAddressPolicy(
  allowlist: readonly string[],
  /** ALLOW_PRIVATE_HOST_ADDRESSES: a lab, where hosts report loopback or private addresses. */
  options: { allowPrivate?: boolean } = {},
) {
  const everyHost = new Set(allowlist.map(canonicalAddress).filter((a) => a !== null));
  return {
    /**
     * The reported address in canonical form when this host may send renters there: one of its
     * own that the address rule (shared/rules/target-address.ts) allows. Otherwise 409
     * HOST_ADDRESS_REFUSED naming `field`.
     */
    accept(host: HostAddresses, field: string, reported: string): string {
      const address = canonicalAddress(reported);
      const own = [host.publicHost, host.agentAddress, host.callerAddress].map(canonicalAddress);
      if (address === null || !(everyHost.has(address) || own.includes(address))) {
        throw hostAddressRefused(field, reported);
      }
      const refusal = targetRefusal(address, { allowPrivate: options.allowPrivate ?? false });
      if (refusal) throw hostAddressRefused(field, reported, refusal.reason);
      return address;
    },
  };
}

export type AddressPolicy = ReturnType<typeof createAddressPolicy>;

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import os from 'node:os';
import {
  comparableAddress,
  type TargetOptions,
  targetRefusal,
} from '../../shared/rules/target-address';

/**
 * The address rule (shared/rules/target-address.ts) where the server can look a name up: each
 * address a name resolves to must pass it, and none may be one of this machine's own — unless
 * the operator runs a lab (ALLOW_PRIVATE_HOST_ADDRESSES). The web console resolves once and
 * connects to the address it checked, so a second lookup cannot answer otherwise (DNS
 * rebinding). docs/decisions/013-hosts-are-untrusted.md.
 */

export type Resolve = (host: string) => Promise<{ address: string }[]>;

export const systemResolve: Resolve = (name) => lookup(name, { all: true, verbatim: true });

/** A name that has not answered within this is taken as one that does not resolve. */
const LOOKUP_TIMEOUT_MS = 5000;

export interface TargetCheck extends TargetOptions {
  resolve?: Resolve;
}

/** Why one IP address (or a name's text) is refused here, or null when it may be used. */
export function addressRefusal(address: string, options: TargetOptions): string | null {
  const refusal = targetRefusal(address, options);
  if (refusal) return refusal.reason;
  if (!options.allowPrivate && isIP(address) !== 0) {
    const own = ownAddresses();
    if (own.has(comparableAddress(address) ?? '')) return "this server's own address";
  }
  return null;
}

function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) own.add(comparableAddress(a.address) ?? a.address);
  }
  return own;
}

/** The addresses `host` stands for: itself when an IP literal, else what DNS answers. */
export async function lookupTarget(host: string, resolve: Resolve = systemResolve) {
  if (isIP(host) !== 0) return [host];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), LOOKUP_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([resolve(host), late]);
    return answers.map((a) => a.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why `host` (an IP literal or a name) may not be where renters are sent: what its text says,
 * then each address it resolves to now. A name that does not resolve (yet) passes: whoever
 * connects to it checks again then (the console, the CLI).
 */
export async function hostTargetRefusal(host: string, check: TargetCheck): Promise<string | null> {
  const own = addressRefusal(host, check);
  if (own) return `${host} is ${own}`;
  if (isIP(host) !== 0) return null;
  const addresses = await lookupTarget(host, check.resolve).catch(() => []);
  for (const address of addresses) {
    const reason = addressRefusal(address, check);
    if (reason) return `${host} resolves to ${address}, ${reason}`;
  }
  return null;
}

export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/**
 * The address to connect to for `host` (an IP literal or a DNS name), after the checks above:
 * every answer must pass, so a name that also points inside is refused whole. Throws
 * OutboundRefused, with the real reason for the server's log, when it may not.
 */
export async function outboundAddress(host: string, check: TargetCheck): Promise<string> {
  let addresses: string[];
  try {
    addresses = await lookupTarget(host, check.resolve);
  } catch (error) {
    throw new OutboundRefused(`${host} did not resolve: ${(error as Error).message}`);
  }
  const first = addresses[0];
  if (first === undefined) throw new OutboundRefused(`${host} has no address`);
  for (const text of new Set([host, ...addresses])) {
    const reason = addressRefusal(text, check);
    if (reason) throw new OutboundRefused(`${host} is ${text}, ${reason}`);
  }
  return first;
}

import { createHash } from 'node:crypto';
import type { ServerHostKeyAlgorithm } from 'ssh2';

/**
 * The web console's guards (docs/architecture.md, "Web console"): the instance's SSH host key
 * (stored on the instance: reported by its host, else pinned by the first console of the
 * run) and how many consoles a user may have open (counted by console/slots.ts).
 */

/** An SSH host key's fingerprint as OpenSSH and dropbear print it: `SHA256:` + base64, unpadded. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The signature algorithms an ssh2 client may negotiate for a host key of this type. */
export function hostKeyAlgorithms(type: string): ServerHostKeyAlgorithm[] {
  return type === 'ssh-rsa'
    ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']
    : [type as ServerHostKeyAlgorithm];
}

/**
 * The host key stored for an instance (its host reported it with this run's readiness; the
 * server computed the fingerprint renters see): the key the guest shows must be that one.
 * Null when the stored line is not a key.
 */
export function storedHostKey(line: string): { type: string; fingerprint: string } | null {
  const [type, base64] = line.trim().split(/\s+/);
  if (!type || !base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  return { type, fingerprint: hostKeyFingerprint(Buffer.from(base64, 'base64')) };
}

/**
 * An SSH host key as the server stores it (`type base64`, a known_hosts entry's key part),
 * from the key blob a guest showed; null when the blob does not name its type.
 */
export function hostKeyLine(key: Buffer): string | null {
  if (key.length < 4) return null;
  const length = key.readUInt32BE(0);
  if (length === 0 || length > 64 || key.length < 4 + length) return null;
  const type = key.subarray(4, 4 + length).toString('latin1');
  if (!/^[a-z0-9@.-]+$/i.test(type)) return null;
  return `${type} ${key.toString('base64')}`;
}

/** Consoles one user may have open at once, across every server process (console/slots.ts). */
export const MAX_CONSOLES_PER_USER = 4;

export const tooManyConsolesMessage = (limit: number) =>
  `You have ${limit} web consoles open, the most at once. Close one to open another.`;

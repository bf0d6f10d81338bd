import { createHash } from 'node:crypto';
import type { ServerHostKeyAlgorithm } from 'ssh2';

/**
 * Two guards of the web console (docs/architecture.md, "Web console"), kept in the server's
 * memory: the SSH host key each running instance showed first, and how many consoles each
 * user has open.
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
 * Null when the stored line is not a key (then the per-run pin decides).
 */
export function storedHostKey(line: string): { type: string; fingerprint: string } | null {
  const [type, base64] = line.trim().split(/\s+/);
  if (!type || !base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  return { type, fingerprint: hostKeyFingerprint(Buffer.from(base64, 'base64')) };
}

export type HostKeyVerdict =
  | { ok: true; fingerprint: string; firstUse: boolean }
  | { ok: false; fingerprint: string; pinned: string };

/**
 * Trust on first use, per run of an instance: the first console connection of a generation
 * (a run, from ready to stop) pins the host key the guest showed; later connections of the
 * same generation must show the same key. A new generation (stopped and started again)
 * pins anew. One entry per instance, so the map is bounded by the number of instances.
 */
export class HostKeyPins {
  private readonly pins = new Map<number, { generation: number; fingerprint: string }>();

  verify(instanceId: number, generation: number, key: Buffer): HostKeyVerdict {
    const fingerprint = hostKeyFingerprint(key);
    const pin = this.pins.get(instanceId);
    if (!pin || pin.generation !== generation) {
      this.pins.set(instanceId, { generation, fingerprint });
      return { ok: true, fingerprint, firstUse: true };
    }
    return pin.fingerprint === fingerprint
      ? { ok: true, fingerprint, firstUse: false }
      : { ok: false, fingerprint, pinned: pin.fingerprint };
  }
}

/** Consoles one user may have open at once (in this server process). */
export const MAX_CONSOLES_PER_USER = 4;

export const tooManyConsolesMessage = (limit: number) =>
  `You have ${limit} web consoles open, the most at once. Close one to open another.`;

/** Open console sessions per user. */
export class ConsoleSessionCounter {
  private readonly open = new Map<string, number>();

  constructor(readonly limit = MAX_CONSOLES_PER_USER) {}

  count(userId: string): number {
    return this.open.get(userId) ?? 0;
  }

  /** Takes a place for a new session; false when the user already has `limit` open. */
  acquire(userId: string): boolean {
    const n = this.count(userId);
    if (n >= this.limit) return false;
    this.open.set(userId, n + 1);
    return true;
  }

  release(userId: string): void {
    const n = this.count(userId) - 1;
    if (n > 0) this.open.set(userId, n);
    else this.open.delete(userId);
  }
}

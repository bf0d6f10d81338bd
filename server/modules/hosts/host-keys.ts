import { parseSshPublicKey } from '../../../shared/rules/ssh-key';
import { validationFailed } from '../../lib/errors';
import { hostKeyFingerprint } from '../instances/console/guards';

/** The host key the server keeps for an instance, and its fingerprint (`ssh-keygen -lf`). */
export interface GuestHostKey {
  /** `type base64`, without the comment: a known_hosts entry's key part. */
  line: string;
  /** `SHA256:` + base64 of the key blob's SHA-256, unpadded. */
  fingerprint: string;
}

/**
 * The guest's SSH host keys as its host reports them (OpenSSH public key lines): every line
 * must be a well-formed key (else 400 naming `hostKeys`), and the server keeps the ed25519
 * one, else the first, with the fingerprint it computes itself (docs/decisions/015): a host
 * never tells renters a fingerprint. None reported: null.
 */
export function guestHostKey(lines: readonly string[] | undefined): GuestHostKey | null {
  if (!lines || lines.length === 0) return null;
  const parsed = lines.map((line, i) => {
    const key = parseSshPublicKey(line);
    if (!key.ok) throw validationFailed({ [`hostKeys.${i}`]: [key.error] });
    return key;
  });
  const chosen = parsed.find((k) => k.type === 'ssh-ed25519') ?? parsed[0];
  if (!chosen) return null;
  return {
    line: `${chosen.type} ${chosen.base64}`,
    fingerprint: hostKeyFingerprint(Buffer.from(chosen.blob)),
  };
}

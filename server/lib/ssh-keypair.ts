import { generateKeyPairSync } from 'node:crypto';

/** One SSH "string": a 4-byte big-endian length, then the bytes (RFC 4251 section 5). */
function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
}

export interface SshKeyPair {
  /** OpenSSH `authorized_keys` form: `ssh-ed25519 AAAA… comment`. */
  publicKey: string;
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), which OpenSSH and ssh2 both read. */
  privateKey: string;
}

/**
 * A fresh ed25519 key pair for the platform's own login to an instance (the web console).
 * Node exports the raw public key only inside an SPKI structure; its last 32 bytes are the
 * key, which OpenSSH wants as the wire blob string("ssh-ed25519") + string(key) in base64.
 */
export function generateSshKeyPair(comment = 'rentgpu-console'): SshKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const raw = spki.subarray(spki.length - 32);
  const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
  return {
    publicKey: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

import {
  type ED25519KeyPairOptions,
  generateKeyPair,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';

/** An SSH key pair: an authorized_keys line and an OpenSSH private key. */
export interface SshKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * Both halves as DER, whose Ed25519 layouts are fixed (RFC 8410): the 32-byte seed ends the
 * 48-byte PKCS #8, the 32-byte public key the 44-byte SPKI.
 *
 * Not through a JWK export of a KeyObject, as before: on Node 20.20 that deadlocks the process.
 * `KeyObjectHandle::ExportJWK` holds the key's mutex while it makes the JWK's strings; when that
 * allocation collects garbage, the weak callback of the key's own (finished) generation job
 * runs and its destructor takes the same mutex (gdb: `~KeyGenJob` under
 * `InvokeFirstPassWeakCallbacks` under `ExportJWKEdKey`). A loop of generate-and-export hung
 * after about 8,000 pairs here, every time; one pair is made for every instance launched. The
 * DER encodings are written by the generation job itself: 120,000 pairs, no hang.
 */
const KEY_ENCODING: ED25519KeyPairOptions<'der', 'der'> = {
  privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  publicKeyEncoding: { type: 'spki', format: 'der' },
};

/**
 * A fresh ed25519 key pair for SSH, from node:crypto: the public key as an authorized_keys
 * line (`ssh-ed25519 AAAA… comment`), the private key in OpenSSH's own format
 * (`-----BEGIN OPENSSH PRIVATE KEY-----`, unencrypted). Not PEM PKCS8: ssh2 (the web
 * console's client) cannot read an ed25519 key in PKCS8 ("Unsupported key format").
 */
export function generateSshKeyPair(comment = 'rentgpu-platform'): SshKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', KEY_ENCODING);
  return sshKeyPairOf(privateKey, publicKey, comment);
}

/**
 * generateSshKeyPair off the event loop: the key is made on libuv's thread pool, and only
 * the OpenSSH text here (issue 43: made on the server thread, the pair was 3–5% of its CPU
 * under rent-then-stop).
 */
export function generateSshKeyPairAsync(comment = 'rentgpu-platform'): Promise<SshKeyPair> {
  return new Promise((resolve, reject) => {
    // Node's callback order: the public key first.
    generateKeyPair('ed25519', KEY_ENCODING, (error, publicKey, privateKey) => {
      if (error) reject(error);
      else {
        try {
          resolve(sshKeyPairOf(privateKey, publicKey, comment));
        } catch (failed) {
          reject(failed);
        }
      }
    });
  });
}

function sshKeyPairOf(pkcs8: Buffer, spki: Buffer, comment: string): SshKeyPair {
  if (pkcs8.length !== 48 || spki.length !== 44) throw new Error('unexpected Ed25519 DER');
  const seed = pkcs8.subarray(16);
  const pub = spki.subarray(12);
  const type = Buffer.from('ssh-ed25519');
  const publicBlob = Buffer.concat([sshString(type), sshString(pub)]);

  // PROTOCOL.key: check integers, then the key, then padding 1, 2, 3, … to the block size (8).
  const check = randomBytes(4);
  let secret = Buffer.concat([
    check,
    check,
    sshString(type),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(Buffer.from(comment)),
  ]);
  const padding = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);

  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString(Buffer.from('none')), // cipher
    sshString(Buffer.from('none')), // kdf
    sshString(Buffer.alloc(0)), // kdf options
    uint32(1), // one key
    sshString(publicBlob),
    sshString(secret),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
    privateKey: [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      ...lines,
      '-----END OPENSSH PRIVATE KEY-----',
      '',
    ].join('\n'),
  };
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function sshString(data: Buffer): Buffer {
  return Buffer.concat([uint32(data.length), data]);
}

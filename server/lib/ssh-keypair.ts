import { generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * A fresh ed25519 key pair for SSH, from node:crypto: the public key as an authorized_keys
 * line (`ssh-ed25519 AAAA… comment`), the private key in OpenSSH's own format
 * (`-----BEGIN OPENSSH PRIVATE KEY-----`, unencrypted). Not PEM PKCS8: ssh2 (the web
 * console's client) cannot read an ed25519 key in PKCS8 ("Unsupported key format").
 */
export function generateSshKeyPair(comment = 'rentgpu-platform'): {
  publicKey: string;
  privateKey: string;
} {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const pub = Buffer.from(jwk.x ?? '', 'base64url');
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

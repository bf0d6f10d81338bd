import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';

/** An SSH key pair: an authorized_keys line and an OpenSSH private key. */
export interface SshKeyPair {
  publicKey: string;
  privateKey: string;
}

/**
 * A fresh ed25519 key pair for SSH: the public key as an authorized_keys line
 * (`ssh-ed25519 AAAA… comment`), the private key in OpenSSH's own format
 * (`-----BEGIN OPENSSH PRIVATE KEY-----`, unencrypted). Not PEM PKCS8: ssh2 (the web
 * console's client) cannot read an ed25519 key in PKCS8 ("Unsupported key format").
 *
 * The private key is 32 random bytes (RFC 8032's seed); OpenSSL derives the public half.
 * One pair is made for every instance launched, so how matters (issue 43):
 * - Not through `generateKeyPair` with DER encodings: OpenSSL 3 sets up an encoder for each
 *   (`OSSL_ENCODER_CTX_new_for_pkey`), 200–300 µs of the event loop's CPU a pair even when
 *   generated on the thread pool, since the encoding runs back on the loop
 *   (`AfterThreadPoolWork`); reading a DER key back costs a decoder, 700 µs. The seed goes in
 *   as a JWK (`EVP_PKEY_new_raw_private_key`) and the public half comes out as one
 *   (`EVP_PKEY_get_raw_public_key`): about 55 µs a pair.
 * - Never a JWK export of a key a generation job made: on Node 20.20 that deadlocks the
 *   process. `KeyObjectHandle::ExportJWK` holds the key's mutex while it makes the JWK's
 *   strings; when that allocation collects garbage, the weak callback of the key's own
 *   (finished) generation job runs and its destructor takes the same mutex (gdb: `~KeyGenJob`
 *   under `InvokeFirstPassWeakCallbacks` under `ExportJWKEdKey`). `generateKeyPairSync` and a
 *   JWK export hung after about 8,000 pairs here, every time. These keys have no generation
 *   job: 600,000 pairs, no hang.
 */
export function generateSshKeyPair(comment = 'rentgpu-platform'): SshKeyPair {
  return sshKeyPairFromSeed(randomBytes(32), comment);
}

/** The pair of an RFC 8032 seed (exported for its test vector). */
export function sshKeyPairFromSeed(seed: Buffer, comment: string): SshKeyPair {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  // `x` is required by the JWK's shape; for a private key Node reads `d` only.
  const privateKey = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: '' },
    format: 'jwk',
  });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('no Ed25519 public key');
  const pub = Buffer.from(x, 'base64url');
  if (pub.length !== 32) throw new Error('unexpected Ed25519 public key');
  return sshKeyPairOf(seed, pub, comment);
}

const KEY_TYPE = Buffer.from('ssh-ed25519');
/** PROTOCOL.key's start: magic, cipher "none", kdf "none", no kdf options, one key. */
const HEADER = Buffer.concat([
  Buffer.from('openssh-key-v1\0'),
  sshString(Buffer.from('none')),
  sshString(Buffer.from('none')),
  sshString(Buffer.alloc(0)),
  uint32(1),
]);
/** The public key blob's length: string "ssh-ed25519", string of the 32-byte key. */
const PUBLIC_BLOB_LENGTH = 4 + KEY_TYPE.length + 4 + 32;

/** Both halves' text, written into one buffer (a launch makes one pair). */
function sshKeyPairOf(seed: Buffer, pub: Buffer, comment: string): SshKeyPair {
  const commentBytes = Buffer.from(comment);
  // PROTOCOL.key: check integers, then the key, then padding 1, 2, 3, … to the block size (8).
  const secretUnpadded = 8 + PUBLIC_BLOB_LENGTH + 4 + 64 + 4 + commentBytes.length;
  const secretLength = secretUnpadded + ((8 - (secretUnpadded % 8)) % 8);
  const body = Buffer.alloc(HEADER.length + 4 + PUBLIC_BLOB_LENGTH + 4 + secretLength);
  let at = HEADER.copy(body, 0);
  const string = (data: Buffer) => {
    at = body.writeUInt32BE(data.length, at);
    at += data.copy(body, at);
  };
  const publicBlob = () => {
    string(KEY_TYPE);
    string(pub);
  };
  at = body.writeUInt32BE(PUBLIC_BLOB_LENGTH, at);
  const blobStart = at;
  publicBlob();
  const blobEnd = at;
  at = body.writeUInt32BE(secretLength, at);
  const secretStart = at;
  const check = randomBytes(4);
  at += check.copy(body, at);
  at += check.copy(body, at);
  publicBlob();
  at = body.writeUInt32BE(64, at);
  at += seed.copy(body, at);
  at += pub.copy(body, at);
  string(commentBytes);
  for (let i = 1; at < secretStart + secretLength; i += 1) body[at++] = i;

  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    publicKey: `ssh-ed25519 ${body.toString('base64', blobStart, blobEnd)} ${comment}`,
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
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

import { hasControlCharacter } from './text';

/**
 * Checks an OpenSSH public key line ("type base64 [comment]") the way sshd reads it:
 * the base64 blob must decode to the same key type and a well-formed key of that type.
 * Runs in the browser and on the server (no Buffer).
 */
export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

const EC_POINT_BYTES: Record<string, number> = { nistp256: 65, nistp384: 97, nistp521: 133 };
const MIN_RSA_BITS = 2048;
const MAX_RSA_BITS = 16_384;
const MAX_COMMENT = 200;

export type ParsedSshKey =
  | { ok: true; type: SshKeyType; blob: Uint8Array; base64: string; comment: string | null }
  | { ok: false; error: string };

const fail = (error: string): ParsedSshKey => ({ ok: false, error });

export function parseSshPublicKey(input: string): ParsedSshKey {
  const text = input.trim();
  if (/PRIVATE KEY/.test(text)) {
    return fail('This is a private key. Paste the public key (the .pub file) instead.');
  }
  const [type, base64, ...rest] = text.split(/\s+/);
  if (!type || !base64) return fail('A public key looks like "ssh-ed25519 AAAA… you@host".');
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type)) {
    return fail('Only ed25519, RSA and ECDSA public keys are supported.');
  }
  const blob = decodeBase64(base64);
  if (!blob) return fail('The key data is not valid base64.');
  const reader = new Reader(blob);
  const problem = checkBlob(type as SshKeyType, reader);
  if (problem) return fail(problem);
  // The comment reaches authorized_keys through cloud-init's YAML and is shown in terminals.
  const fullComment = rest.join(' ');
  if (hasControlCharacter(fullComment)) {
    return fail('The key comment contains a control character. Remove it from the comment.');
  }
  const comment = truncate(fullComment, MAX_COMMENT) || null;
  return { ok: true, type: type as SshKeyType, blob, base64, comment };
}

/** The first `max` UTF-16 units of `text`, not ending in half of a surrogate pair. */
function truncate(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) && text.length > max ? cut.slice(0, -1) : cut;
}

function checkBlob(type: SshKeyType, reader: Reader): string | null {
  const invalid = 'The key data does not hold a valid key of its type.';
  const embedded = reader.string();
  if (!embedded || text(embedded) !== type) return 'The key data does not match its type.';
  if (type === 'ssh-ed25519') {
    const key = reader.string();
    if (key?.length !== 32) return invalid;
  } else if (type === 'ssh-rsa') {
    const exponent = reader.string();
    const modulus = reader.string();
    if (!exponent?.length || !modulus) return invalid;
    const bits = bitLength(modulus);
    if (bits < MIN_RSA_BITS) return `RSA keys must have at least ${MIN_RSA_BITS} bits.`;
    if (bits > MAX_RSA_BITS) return invalid;
  } else {
    const curve = reader.string();
    const point = reader.string();
    const expected = type.slice('ecdsa-sha2-'.length);
    if (!curve || text(curve) !== expected || !point) return invalid;
    if (point.length !== EC_POINT_BYTES[expected] || point[0] !== 0x04) return invalid;
  }
  return reader.done() ? null : invalid;
}

class Reader {
  private offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  string(): Uint8Array | null {
    if (this.offset + 4 > this.bytes.length) return null;
    const b = this.bytes;
    const length = new DataView(b.buffer, b.byteOffset + this.offset, 4).getUint32(0);
    const start = this.offset + 4;
    if (start + length > b.length) return null;
    this.offset = start + length;
    return b.subarray(start, start + length);
  }

  done(): boolean {
    return this.offset === this.bytes.length;
  }
}

function text(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/** Bits of an SSH mpint (big-endian, a leading zero byte keeps it positive). */
function bitLength(mpint: Uint8Array): number {
  let i = 0;
  while (i < mpint.length && mpint[i] === 0) i += 1;
  if (i === mpint.length) return 0;
  const top = mpint[i] ?? 0;
  return (mpint.length - i - 1) * 8 + (32 - Math.clz32(top));
}

function decodeBase64(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return null;
  try {
    const binary = atob(value);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

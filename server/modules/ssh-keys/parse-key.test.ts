import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSshPublicKey } from '../../../shared/rules/ssh-key';

/** OpenSSH wire encoding, to build real keys from node:crypto's output. */
function sshString(bytes: Uint8Array | string): Buffer {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

function mpint(base64url: string): Buffer {
  let bytes = Buffer.from(base64url, 'base64url');
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return sshString(bytes);
}

function ed25519Line(comment = 'me@laptop'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

function rsaLine(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshString('ssh-rsa'), mpint(jwk.e ?? ''), mpint(jwk.n ?? '')]);
  return `ssh-rsa ${blob.toString('base64')}`;
}

function ecdsaLine(): string {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  const blob = Buffer.concat([
    sshString('ecdsa-sha2-nistp256'),
    sshString('nistp256'),
    sshString(point),
  ]);
  return `ecdsa-sha2-nistp256 ${blob.toString('base64')} ci`;
}

describe('parseSshPublicKey', () => {
  it('accepts ed25519, RSA of 2048+ bits and ECDSA keys', () => {
    const ed = parseSshPublicKey(ed25519Line('me@laptop'));
    expect(ed).toMatchObject({ ok: true, type: 'ssh-ed25519', comment: 'me@laptop' });
    expect(parseSshPublicKey(rsaLine(2048))).toMatchObject({ ok: true, type: 'ssh-rsa' });
    expect(parseSshPublicKey(ecdsaLine())).toMatchObject({
      ok: true,
      type: 'ecdsa-sha2-nistp256',
    });
  });

  it('refuses short RSA keys, other types, broken data and private keys', () => {
    expect(parseSshPublicKey(rsaLine(1024))).toEqual({
      ok: false,
      error: 'RSA keys must have at least 2048 bits.',
    });
    expect(parseSshPublicKey('ssh-dss AAAAB3NzaC1kc3M=')).toMatchObject({ ok: false });
    expect(parseSshPublicKey('ssh-ed25519 not*base64')).toMatchObject({ ok: false });
    expect(parseSshPublicKey('hello')).toMatchObject({ ok: false });
    expect(parseSshPublicKey('-----BEGIN OPENSSH PRIVATE KEY-----\nabc')).toMatchObject({
      ok: false,
      error: 'This is a private key. Paste the public key (the .pub file) instead.',
    });
  });

  it('refuses a blob whose embedded type differs or that has trailing bytes', () => {
    const line = ed25519Line();
    const [, b64] = line.split(' ');
    expect(parseSshPublicKey(`ssh-rsa ${b64}`)).toMatchObject({
      ok: false,
      error: 'The key data does not match its type.',
    });
    const longer = Buffer.concat([Buffer.from(b64 ?? '', 'base64'), Buffer.from([1, 2, 3])]);
    expect(parseSshPublicKey(`ssh-ed25519 ${longer.toString('base64')}`)).toMatchObject({
      ok: false,
    });
  });

  it('refuses a comment holding a control character, and keeps any other text', () => {
    const refused = [
      ...Array.from({ length: 0x20 }, (_, c) => c).filter(
        (c) => !/\s/.test(String.fromCharCode(c)),
      ),
      ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
    ].map((c) => String.fromCharCode(c));
    for (const char of [...refused, '\ud800', '\udfff']) {
      expect(parseSshPublicKey(ed25519Line(`a${char}b`))).toEqual({
        ok: false,
        error: 'The key comment contains a control character. Remove it from the comment.',
      });
    }
    for (const comment of ['"quotes" # : - ! & * | > % @ `', 'Grüße 😀']) {
      expect(parseSshPublicKey(ed25519Line(comment))).toMatchObject({ ok: true, comment });
    }
    // Tabs, U+2028 and U+2029 separate words as spaces do.
    expect(parseSshPublicKey(ed25519Line('a\tb\u2028c\u2029d'))).toMatchObject({
      comment: 'a b c d',
    });
  });

  it('cuts a long comment at 200 characters, never inside a surrogate pair', () => {
    expect(parseSshPublicKey(ed25519Line('x'.repeat(300)))).toMatchObject({
      comment: 'x'.repeat(200),
    });
    expect(parseSshPublicKey(ed25519Line(`${'x'.repeat(199)}😀`))).toMatchObject({
      comment: 'x'.repeat(199),
    });
  });
});

import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSshKeyPair } from './ssh-keypair';

describe('generateSshKeyPair', () => {
  it('writes a public key that ssh-keygen reads as ED25519, and a PKCS#8 private key', () => {
    const pair = generateSshKeyPair('console@test');
    expect(pair.publicKey).toMatch(
      /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+=* console@test$/,
    );
    expect(pair.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const dir = mkdtempSync(path.join(tmpdir(), 'sshkey-'));
    try {
      const file = path.join(dir, 'key.pub');
      writeFileSync(file, `${pair.publicKey}\n`);
      const out = execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' });
      expect(out).toMatch(/^256 SHA256:\S+ console@test \(ED25519\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pairs the two halves: what the private key signs, the public blob verifies', () => {
    const pair = generateSshKeyPair();
    const blob = Buffer.from(pair.publicKey.split(' ')[1] ?? '', 'base64');
    const raw = blob.subarray(blob.length - 32);
    // The SPKI prefix of every ed25519 public key, then the raw 32 bytes.
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
    const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    const message = Buffer.from('hello');
    const signature = sign(null, message, createPrivateKey(pair.privateKey));
    expect(verify(null, message, publicKey, signature)).toBe(true);
  });

  it('makes a new pair each time', () => {
    expect(generateSshKeyPair().publicKey).not.toBe(generateSshKeyPair().publicKey);
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSshKeyPair, sshKeyPairFromSeed } from './ssh-keypair';

describe('generateSshKeyPair', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-keypair-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives an authorized_keys line that ssh-keygen reads as ed25519', async () => {
    const { publicKey } = generateSshKeyPair();
    expect(publicKey).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5\S+ rentgpu-platform$/);
    const file = path.join(dir, 'key.pub');
    await writeFile(file, `${publicKey}\n`);
    expect(execFileSync('ssh-keygen', ['-l', '-f', file]).toString()).toMatch(
      /^256 SHA256:\S+ rentgpu-platform \(ED25519\)/,
    );
  });

  it('gives a private key that ssh2 parses and whose public half is the public key', () => {
    const { publicKey, privateKey } = generateSshKeyPair('console@test');
    expect(privateKey).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+\n-----END OPENSSH PRIVATE KEY-----\n$/,
    );
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) throw parsed;
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    expect(key?.type).toBe('ssh-ed25519');
    expect(`ssh-ed25519 ${key?.getPublicSSH().toString('base64')} console@test`).toBe(publicKey);
    // It signs, and the signature verifies with the public key (the pair belongs together).
    const data = Buffer.from('challenge');
    const signature = key?.sign(data);
    expect(signature instanceof Buffer && key?.verify(data, signature)).toBe(true);
  });

  it('ssh-keygen derives the same public key from the private key', async () => {
    const { publicKey, privateKey } = generateSshKeyPair();
    const file = path.join(dir, 'id');
    await writeFile(file, privateKey, { mode: 0o600 });
    expect(execFileSync('ssh-keygen', ['-y', '-f', file]).toString().trim()).toBe(publicKey);
  });

  it('makes a new pair every time', () => {
    expect(generateSshKeyPair().publicKey).not.toBe(generateSshKeyPair().publicKey);
  });
  it("derives RFC 8032's public key from its seed (test 1)", () => {
    // RFC 8032 section 7.1, TEST 1: SECRET KEY and PUBLIC KEY.
    const seed = Buffer.from(
      '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
      'hex',
    );
    const expected = Buffer.from(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
      'hex',
    );
    const { publicKey, privateKey } = sshKeyPairFromSeed(seed, 'rfc8032');
    const blob = Buffer.from(publicKey.split(' ')[1] ?? '', 'base64');
    // string "ssh-ed25519", then string of the 32-byte key
    expect(blob.subarray(blob.length - 32)).toEqual(expected);
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) throw parsed;
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    expect(key?.getPublicSSH().equals(blob)).toBe(true);
    expect(() => sshKeyPairFromSeed(seed.subarray(1), 'short')).toThrow();
  });

  it('makes 20,000 pairs in a row without hanging the process', () => {
    // A JWK export of a generated key deadlocked Node 20.20 after about 8,000 (ssh-keypair.ts);
    // these keys go through JWKs too, though not generated: in a child process, so a hang is
    // a failed test, not a stuck run.
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { generateSshKeyPair } from ${JSON.stringify(path.resolve(import.meta.dirname, 'ssh-keypair.ts'))};
         for (let i = 0; i < 20000; i += 1) generateSshKeyPair();
         console.log('made');`,
      ],
      { timeout: 60_000, encoding: 'utf8' },
    );
    expect(child.signal).toBeNull();
    expect(child.stdout.trim()).toBe('made');
  }, 70_000);
});

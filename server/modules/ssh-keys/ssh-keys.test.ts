import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey, v1Request } from '../../test/public-api';
import { ed25519PublicKey } from '../../test/ssh';
import { sshKeysService } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const add = (cookie: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/ssh-keys', payload, cookie });

function sshKeygenFingerprint(line: string): string | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sshkey-'));
  try {
    const file = path.join(dir, 'key.pub');
    writeFileSync(file, `${line}\n`);
    return (
      execFileSync('ssh-keygen', ['-l', '-f', file], { encoding: 'utf8' }).split(' ')[1] ?? null
    );
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('/api/ssh-keys', () => {
  it('adds a key with its fingerprint, lists it and deletes it', async () => {
    const { cookie, userId } = await t.signIn();
    const line = ed25519PublicKey('ada@laptop');
    const res = await add(cookie, { name: 'Laptop', publicKey: `  ${line}\n` });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(key).toMatchObject({ name: 'Laptop', type: 'ssh-ed25519', comment: 'ada@laptop' });
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const expected = sshKeygenFingerprint(line);
    if (expected) expect(key.fingerprint).toBe(expected);
    expect((await t.request({ method: 'GET', url: '/api/ssh-keys', cookie })).json()).toEqual([
      key,
    ]);
    expect(await sshKeysService.authorizedKeys(t.database.db, userId)).toEqual([line]);
    const del = await t.request({ method: 'DELETE', url: `/api/ssh-keys/${key.id}`, cookie });
    expect(del.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/ssh-keys', cookie })).json()).toEqual([]);
  });

  it('refuses the same key twice, other key types, broken keys and private keys', async () => {
    const { cookie } = await t.signIn();
    const line = ed25519PublicKey();
    expect((await add(cookie, { name: 'a', publicKey: line })).statusCode).toBe(201);
    const dup = await add(cookie, { name: 'b', publicKey: line });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('You have already added this SSH key.');
    for (const publicKey of [
      'ssh-dss AAAAB3NzaC1kc3MAAACBAP',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBroken',
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      '',
    ]) {
      const res = await add(cookie, { name: 'bad', publicKey });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().error.details.fields)).toEqual(['publicKey']);
    }
    expect((await add(cookie, { name: '', publicKey: ed25519PublicKey() })).statusCode).toBe(400);
  });

  it('refuses control characters in the comment or the name, naming the field (/api and /v1)', async () => {
    const me = await t.signIn();
    const { key } = await createApiKey(t, me.cookie, ['read', 'write']);
    const attempts: [Record<string, string>, string][] = [
      [{ name: 'k', publicKey: ed25519PublicKey('me\u007f@laptop') }, 'publicKey'],
      [{ name: 'k', publicKey: ed25519PublicKey('me\u0085@laptop') }, 'publicKey'],
      [{ name: 'k', publicKey: ed25519PublicKey('me\u009b[2J@laptop') }, 'publicKey'],
      [{ name: 'k', publicKey: ed25519PublicKey('me\u001b[2J') }, 'publicKey'],
      [{ name: 'k\u001b[31m', publicKey: ed25519PublicKey() }, 'name'],
      [{ name: 'k\u2028x', publicKey: ed25519PublicKey() }, 'name'],
    ];
    for (const [payload, field] of attempts) {
      for (const res of [
        await add(me.cookie, payload),
        await v1Request(t, key, 'POST', '/ssh-keys', payload),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(Object.keys(res.json().error.details.fields)).toEqual([field]);
      }
    }
    expect(
      (await t.request({ method: 'GET', url: '/api/ssh-keys', cookie: me.cookie })).json(),
    ).toEqual([]);
    const fine = await add(me.cookie, { name: 'Zoë', publicKey: ed25519PublicKey('"Zoë" #1: 😀') });
    expect(fine.statusCode).toBe(201);
    expect(fine.json().comment).toBe('"Zoë" #1: 😀');
  });

  it('another user cannot see or delete the key, nor install it', async () => {
    const owner = await t.signIn();
    const other = await t.signIn();
    const key = (await add(owner.cookie, { name: 'mine', publicKey: ed25519PublicKey() })).json();
    expect(
      (await t.request({ method: 'GET', url: '/api/ssh-keys', cookie: other.cookie })).json(),
    ).toEqual([]);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/ssh-keys/${key.id}`,
      cookie: other.cookie,
    });
    expect(del.statusCode).toBe(404);
    await expect(
      sshKeysService.authorizedKeys(t.database.db, other.userId, [key.id]),
    ).rejects.toThrow('SSH key not found.');
  });

  it('needs a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/ssh-keys' })).statusCode).toBe(401);
  });
});

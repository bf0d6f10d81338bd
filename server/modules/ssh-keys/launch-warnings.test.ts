import { describe, expect, it } from 'vitest';
import { NO_SSH_KEY_WARNING } from '../../../shared/contracts/launch-warnings';
import type { TestApp } from '../../test/app';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { ed25519PublicKey } from '../../test/ssh';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';

/**
 * Every launch answers `warnings` (issue 26 part 6): NO_SSH_KEY while the account has no SSH
 * key (and the public API call named none), nothing once it has one; the web API (rent,
 * create VM, deploy) and public API v1 (instances, rentals) alike, replays included.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const v1 = (...args: V1Args) => v1Request(t, ...args);
const NO_KEY = [{ code: 'NO_SSH_KEY', message: NO_SSH_KEY_WARNING }];
let seq = 0;

/** Each launch surface once, for this user; answers each launch's `warnings`. */
async function launchEverywhere(cookie: string, key: string, sshKeyId?: string) {
  const model = `Warn GPU ${++seq}`;
  const listing = await w.listing({ model, memory: '24GB', hourlyRate: '1.00', totalCount: 8 });
  const post = (url: string, payload: object) =>
    t.request({ method: 'POST', url, payload, cookie });
  const answers = {
    rent: await post('/api/rentals', w.rentBody(listing, 1)),
    vm: await post('/api/kvm/instances', { gpu_type: model }),
    deploy: await post('/api/deploy', { gpu_type: model, template: 'cuda-dev', storage_gb: 20 }),
    v1Instance: await v1(key, 'POST', '/instances', {
      gpuListingId: listing.id,
      ...(sshKeyId ? { sshKeyId } : {}),
    }),
    v1Rental: await v1(key, 'POST', '/rentals', { gpuListingId: listing.id, duration: 1 }),
  };
  return Object.fromEntries(
    Object.entries(answers).map(([where, res]) => {
      expect(res.statusCode, `${where}: ${res.body}`).toBe(201);
      return [where, res.json().warnings];
    }),
  );
}

describe('launch warnings', () => {
  it('NO_SSH_KEY on every launch surface without a key, none once the account has one', async () => {
    const user = await t.signIn({ credits: '200.00' });
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    expect(await launchEverywhere(user.cookie, key)).toEqual({
      rent: NO_KEY,
      vm: NO_KEY,
      deploy: NO_KEY,
      v1Instance: NO_KEY,
      v1Rental: NO_KEY,
    });

    const added = await t.request({
      method: 'POST',
      url: '/api/ssh-keys',
      payload: { name: 'Laptop', publicKey: ed25519PublicKey() },
      cookie: user.cookie,
    });
    expect(added.statusCode).toBe(201);
    expect(await launchEverywhere(user.cookie, key, added.json().id)).toEqual({
      rent: [],
      vm: [],
      deploy: [],
      v1Instance: [],
      v1Rental: [],
    });
  });

  it('a replayed launch answers the warnings it first answered', async () => {
    const user = await t.signIn({ credits: '50.00' });
    const model = `Warn GPU ${++seq}`;
    await w.listing({ model, memory: '24GB', hourlyRate: '1.00' });
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/kvm/instances',
        payload: { gpu_type: model },
        cookie: user.cookie,
        headers: { 'idempotency-key': `warn-${seq}` },
      });
    const first = await send();
    expect(first.json().warnings).toEqual(NO_KEY);
    const again = await send();
    expect(again.json()).toEqual(first.json());
  });
});

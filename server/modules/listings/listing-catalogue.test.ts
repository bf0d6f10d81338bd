import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { world } from '../../test/world';

/**
 * A listing sells a catalogue GPU as it is (shared/gpu-models.ts catalogueMemoryProblem): the
 * web's routes and the public API's refuse another memory with a 400 naming `memory`, on a
 * create and on a change of either field. A listing without a host stays its provider's to see.
 */
let t: TestApp;
let w: ReturnType<typeof world>;
const v1 = (...args: V1Args) => v1Request(t, ...args);

beforeAll(async () => {
  t = await createTestApp();
  w = world(t);
});
afterAll(async () => {
  await t.close();
});

const newListing = { location: 'Oslo, Norway', hourlyRate: '1.20' };

/** A provider signed in to the web, with a read/write API key as well. */
async function provider() {
  const owner = await w.provider();
  const { key } = await createApiKey(t, owner.cookie, ['read', 'write']);
  return { ...owner, key };
}
type Provider = Awaited<ReturnType<typeof provider>>;

/** The same call through the web's route and the public API's: [status, body] of each. */
const routes = {
  web: {
    create: (p: Provider, body: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: '/api/gpu-listings',
        payload: { providerId: p.providerId, ...body },
        cookie: p.cookie,
      }),
    update: (p: Provider, id: number, body: Record<string, unknown>) =>
      t.request({
        method: 'PATCH',
        url: `/api/gpu-listings/${id}`,
        payload: body,
        cookie: p.cookie,
      }),
    listing: (res: Awaited<ReturnType<TestApp['request']>>) => res.json() as ListingAnswer,
  },
  v1: {
    create: (p: Provider, body: Record<string, unknown>) =>
      v1(p.key, 'POST', '/provider/listings', body),
    update: (p: Provider, id: number, body: Record<string, unknown>) =>
      v1(p.key, 'PATCH', `/provider/listings/${id}`, body),
    listing: (res: Awaited<ReturnType<TestApp['request']>>) =>
      (res.json() as { listing: ListingAnswer }).listing,
  },
};
interface ListingAnswer {
  id: number;
  model: string;
  memory: string;
  hostStatus: string;
  hostId: string | null;
  status: string;
}

function expectMemoryRefused(res: Awaited<ReturnType<TestApp['request']>>, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  const { error } = res.json();
  expect(error.code).toBe('VALIDATION_FAILED');
  expect(error.details.fields).toEqual({ memory: [message] });
  expect(error.message).toBe(`memory: ${message}`);
}

describe.each(['web', 'v1'] as const)('listing model and memory (%s)', (via) => {
  const route = routes[via];

  it('refuses a create whose memory is not its model’s, naming the field and the right size', async () => {
    const p = await provider();
    expectMemoryRefused(
      await route.create(p, { ...newListing, model: 'RTX 4090', memory: '8GB' }),
      'An RTX 4090 has 24 GB',
    );
    expectMemoryRefused(
      await route.create(p, { ...newListing, model: 'T4', memory: '80GB' }),
      'A T4 has 16 GB',
    );
    const ok = await route.create(p, { ...newListing, model: 'RTX 4090', memory: '24GB' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(route.listing(ok)).toMatchObject({ model: 'RTX 4090', memory: '24GB' });
    // The V100's 32 GB is one of the choices now.
    const v100 = await route.create(p, { ...newListing, model: 'V100', memory: '32GB' });
    expect(v100.statusCode, v100.body).toBe(201);
  });

  it('refuses an unknown model with a 400 naming `model`', async () => {
    const p = await provider();
    for (const model of ['RTX 9999', '8x A100 80GB', 'rtx 4090']) {
      const res = await route.create(p, { ...newListing, model, memory: '24GB' });
      expect(res.statusCode, model).toBe(400);
      expect(Object.keys(res.json().error.details.fields), model).toEqual(['model']);
    }
  });

  it('refuses a change of memory alone, or of model alone, that leaves a GPU the catalogue does not know', async () => {
    const p = await provider();
    const created = await route.create(p, { ...newListing, model: 'RTX 4090', memory: '24GB' });
    const { id } = route.listing(created);

    expectMemoryRefused(await route.update(p, id, { memory: '8GB' }), 'An RTX 4090 has 24 GB');
    // The model changes and the stored 24GB would stay: refused, the reason on memory.
    expectMemoryRefused(await route.update(p, id, { model: 'H100' }), 'An H100 has 80 GB');
    expectMemoryRefused(
      await route.update(p, id, { model: 'A100 40GB', memory: '80GB' }),
      'An A100 40GB has 40 GB',
    );
    const unknown = await route.update(p, id, { model: 'Potato 9000' });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().error.details.fields)).toEqual(['model']);

    // Nothing of the refused changes was kept.
    const price = await route.update(p, id, { hourlyRate: '1.30' });
    expect(price.statusCode, price.body).toBe(200);
    expect(route.listing(price)).toMatchObject({ model: 'RTX 4090', memory: '24GB' });

    // Both together, as a catalogue GPU: saved.
    const moved = await route.update(p, id, { model: 'H100', memory: '80GB' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(route.listing(moved)).toMatchObject({ model: 'H100', memory: '80GB' });
    // And the model alone, to one of the same memory.
    const same = await route.update(p, id, { model: 'A100 80GB' });
    expect(same.statusCode, same.body).toBe(200);
    expect(route.listing(same)).toMatchObject({ model: 'A100 80GB', memory: '80GB' });
  });

  it('lists a listing without a host to its provider, saying it has none', async () => {
    const p = await provider();
    const created = await route.create(p, { ...newListing, model: 'A40', memory: '48GB' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = route.listing(created);
    expect(route.listing(created)).toMatchObject({ hostStatus: 'none', hostId: null });

    // The provider dashboard's read (web) and the public API's own listings (v1).
    const own =
      via === 'web'
        ? ((
            await t.request({
              method: 'GET',
              url: `/api/gpu-listings?providerId=${p.providerId}`,
              cookie: p.cookie,
            })
          ).json() as ListingAnswer[])
        : ((await v1(p.key, 'GET', '/provider/listings')).json() as { listings: ListingAnswer[] })
            .listings;
    expect(own.find((l) => l.id === id)).toMatchObject({
      model: 'A40',
      hostStatus: 'none',
      hostId: null,
      status: 'available',
    });
  });
});

describe('a listing whose stored pair the catalogue no longer allows', () => {
  it('still takes changes that leave model and memory alone', async () => {
    const owner = await w.provider();
    // Written straight to the database, as older data may be.
    const odd = await w.listing({ providerId: owner.providerId, model: 'RTX 4090', memory: '8GB' });
    const res = await t.request({
      method: 'PATCH',
      url: `/api/gpu-listings/${odd.id}`,
      payload: { hourlyRate: '0.90', location: 'Bergen, Norway' },
      cookie: owner.cookie,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ memory: '8GB', hourlyRate: '0.90' });
  });
});

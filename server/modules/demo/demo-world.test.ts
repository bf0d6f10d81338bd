import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GpuListingView } from '../../../shared/contracts/listings';
import { conflict } from '../../lib/errors';
import { seedDemoData } from '../../seed/seed';
import { createTestApp, type TestApp } from '../../test/app';
import { DEMO_HOST_NO_CONSOLE } from '../instances/reads/queries';

/**
 * Issue 26 part 4, a demo world that makes sense: the visitor's provider says it is theirs
 * beside the shared "Demo Compute Co."; a console on a demo host says there is none; no
 * answer carries a system error (ENOTFOUND, ECONNREFUSED, a stack frame).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.get('/api/test/system-error', async () => {
        throw conflict('Could not connect: getaddrinfo ENOTFOUND gpu-1.demo.rentgpu.dev');
      });
    },
  });
  await seedDemoData(t.database.db, t.app.deps, t.clock.now());
});
afterAll(async () => {
  await t.close();
});

async function demoLogin() {
  const res = await t.request({ method: 'POST', url: '/api/login', remoteAddress: '10.2.0.1' });
  expect(res.statusCode).toBe(200);
  const token = /rentgpu_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
  return { cookie: `rentgpu_session=${token}`, userId: res.json().user.id as string };
}

describe('a demo world that makes sense', () => {
  it('lists the visitor’s own provider as theirs beside the shared Demo Compute Co., which lists other GPUs', async () => {
    const visitor = await demoLogin();
    const res = await t.request({
      method: 'GET',
      url: '/api/gpu-listings?limit=100',
      cookie: visitor.cookie,
    });
    expect(res.statusCode).toBe(200);
    const listed = res.json() as GpuListingView[];
    const own = listed.filter((l) => l.provider.companyName === 'Your demo provider');
    const shared = listed.filter((l) => l.provider.companyName === 'Demo Compute Co.');
    expect(own).toHaveLength(3);
    expect(shared.length).toBeGreaterThan(0);
    // Not a copy: no GPU of the visitor's own is the shared one's at the same price.
    for (const mine of own) {
      expect(shared.some((s) => s.model === mine.model && s.hourlyRate === mine.hourlyRate)).toBe(
        false,
      );
    }
  });

  it('is a market worth comparing: several offers per popular model, shares of real machines, measured uptime', async () => {
    const res = await t.request({ method: 'GET', url: '/api/gpu-listings?limit=100' });
    const listed = res.json() as GpuListingView[];
    for (const model of ['H100', 'A100 80GB', 'RTX 4090']) {
      const offers = listed.filter((l) => l.model === model);
      expect(offers.length, model).toBeGreaterThanOrEqual(3);
      expect(new Set(offers.map((l) => l.hourlyRate)).size, model).toBe(offers.length);
      expect(new Set(offers.map((l) => l.location)).size, model).toBeGreaterThanOrEqual(3);
    }
    // Node shapes from one GPU to eight.
    expect(new Set(listed.map((l) => l.gpuCount))).toEqual(new Set([1, 2, 4, 8]));
    // Each GPU's share, disk and versions come from its machine: not one constant.
    expect(new Set(listed.map((l) => JSON.stringify(l.gpuShare))).size).toBeGreaterThan(4);
    expect(listed.every((l) => l.diskGb !== null && l.driverVersion && l.cudaVersion)).toBe(true);
    // Reliability measured from each machine's recorded outages: several figures, and listings
    // too new to say.
    const figures = listed.map((l) => l.reliability.uptimePercent);
    expect(new Set(figures.filter((f) => f !== null)).size).toBeGreaterThanOrEqual(4);
    expect(figures.filter((f) => f !== null).every((f) => (f ?? 0) < 100)).toBe(true);
    expect(figures).toContain(null);
  });

  it('a console on a demo host says there is no console there', async () => {
    const visitor = await demoLogin();
    const made = await t.request({
      method: 'POST',
      url: '/api/kvm/instances',
      payload: { gpu_type: 'RTX 3090' },
      cookie: visitor.cookie,
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().vm_id as number;
    // The demo host makes it ready after its delay: move the clock, run the worker.
    await vi.waitFor(async () => {
      t.clock.advance(30_000);
      await t.app.deps.worker.runOnce(t.clock.now());
      const vms = await t.request({
        method: 'GET',
        url: '/api/kvm/instances',
        cookie: visitor.cookie,
      });
      expect(vms.json().find((v: { vm_id: number }) => v.vm_id === id)?.status).toBe('running');
    });
    const res = await t.request({
      method: 'GET',
      url: `/api/kvm/instances/${id}/console`,
      cookie: visitor.cookie,
      headers: { origin: 'http://localhost' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(DEMO_HOST_NO_CONSOLE);
    expect(res.body).not.toMatch(/ENOTFOUND|getaddrinfo/);
  });

  it('an answer never carries a system error: it is replaced by a clear message', async () => {
    const res = await t.request({ method: 'GET', url: '/api/test/system-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'CONFLICT',
      message: 'This could not be done right now. Please try again in a moment.',
      details: {},
    });
  });
});

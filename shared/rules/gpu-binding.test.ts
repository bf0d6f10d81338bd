import { describe, expect, it } from 'vitest';
import {
  bindListing,
  demoGpuIndexes,
  freeGpu,
  gpuProblem,
  sellableUnits,
  unreadyGpuCount,
  usableGpus,
} from './gpu-binding';

const H100 = 'NVIDIA H100 80GB HBM3';
const twoH100 = [
  { index: 0, name: H100 },
  { index: 1, name: H100 },
];

describe('bindListing', () => {
  it('gives a listing the free GPUs of its model, one per unit', () => {
    expect(bindListing({ model: 'H100', units: 2, wanted: [], gpus: twoH100, others: [] })).toEqual(
      { ok: true, indexes: [0, 1] },
    );
    const others = [{ model: 'H100', hostGpuIndexes: [0] }];
    expect(bindListing({ model: 'H100', units: 1, wanted: [], gpus: twoH100, others })).toEqual({
      ok: true,
      indexes: [1],
    });
  });

  it('refuses more units than the host has, naming what it has', () => {
    const four = bindListing({ model: 'H100', units: 4, wanted: [], gpus: twoH100, others: [] });
    expect(four).toMatchObject({
      ok: false,
      message:
        'This host has 2 × H100 80GB; 0 are already listed. This listing can offer at most 2 H100 80GB.',
      hostGpus: { model: 'H100', count: 2, listed: 0 },
    });
    const full = bindListing({
      model: 'H100',
      units: 1,
      wanted: [],
      gpus: twoH100,
      others: [{ model: 'H100', hostGpuIndexes: [0, 1] }],
    });
    expect(full).toMatchObject({
      ok: false,
      message:
        'This host has 2 × H100 80GB; 2 are already listed. This listing can offer at most 0 H100 80GB.',
    });
  });

  it('refuses a model the host does not have, and a host with no GPUs', () => {
    expect(
      bindListing({ model: 'RTX 4090', units: 1, wanted: [], gpus: twoH100, others: [] }),
    ).toMatchObject({ ok: false, message: 'This host has 2 × H100 80GB and no RTX 4090 24GB.' });
    expect(
      bindListing({ model: 'H100', units: 1, wanted: [], gpus: null, others: [] }),
    ).toMatchObject({ ok: false, field: 'hostId' });
  });

  it('checks chosen indexes: of the model, one per unit, not listed elsewhere', () => {
    const base = { model: 'H100', units: 1, gpus: twoH100 };
    expect(bindListing({ ...base, wanted: [1], others: [] })).toEqual({ ok: true, indexes: [1] });
    expect(bindListing({ ...base, wanted: [5], others: [] })).toMatchObject({ ok: false });
    expect(bindListing({ ...base, wanted: [0, 1], others: [] })).toMatchObject({ ok: false });
    expect(
      bindListing({ ...base, wanted: [0], others: [{ model: 'H100', hostGpuIndexes: [0] }] }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/^GPU 0 is already listed/) });
  });

  it('keeps the GPUs a listing already sells when it is edited', () => {
    expect(
      bindListing({ model: 'H100', units: 1, wanted: [], keep: [1], gpus: twoH100, others: [] }),
    ).toEqual({ ok: true, indexes: [1] });
  });
});

describe('gpuProblem and freeGpu', () => {
  it('says which GPU the host lost, and nothing when all are there', () => {
    const listing = { model: 'H100', hostGpuIndexes: [0, 1] };
    expect(gpuProblem(listing, twoH100)).toBeNull();
    expect(gpuProblem(listing, twoH100.slice(0, 1))).toBe(
      'GPU 1 (H100 80GB) is no longer reported by this host, so this listing cannot be rented. Bring the GPU back or edit the listing.',
    );
  });

  it('finds the lowest GPU no live instance holds, and none when all are held', () => {
    const listing = { model: 'H100', hostGpuIndexes: [0, 1] };
    const usable = usableGpus(listing, twoH100);
    expect(freeGpu(usable, new Set())).toBe(0);
    expect(freeGpu(usable, new Set([0]))).toBe(1);
    expect(freeGpu(usable, new Set([0, 1]))).toBeNull();
    expect(usableGpus(listing, twoH100.slice(1))).toEqual([1]);
    expect(usableGpus({ model: 'RTX 4090', hostGpuIndexes: [0, 1] }, twoH100)).toEqual([]);
  });

  it('hands out only the GPUs the host says can serve a VM, once it has said', () => {
    const listing = { model: 'H100', hostGpuIndexes: [0, 1] };
    expect(usableGpus(listing, twoH100, [1])).toEqual([1]);
    expect(freeGpu(usableGpus(listing, twoH100, [1]), new Set())).toBe(1);
    expect(usableGpus(listing, twoH100, [])).toEqual([]);
    expect(usableGpus(listing, twoH100, null)).toEqual([0, 1]);
  });

  it('sells only the units whose GPUs the host says can serve, once it has said', () => {
    expect(unreadyGpuCount([0, 1], null)).toBe(0);
    expect(unreadyGpuCount([0, 1], { ready: true, readyGpus: [0, 1] })).toBe(0);
    expect(unreadyGpuCount([0, 1], { ready: true, readyGpus: [1, 2] })).toBe(1);
    expect(unreadyGpuCount([0, 1], { ready: false, readyGpus: [0, 1] })).toBe(2);
    // Two units, one GPU unready: one free unit is sellable while none is rented, none after.
    expect(sellableUnits(2, 1)).toBe(1);
    expect(sellableUnits(1, 1)).toBe(0);
    expect(sellableUnits(0, 2)).toBe(0);
  });

  it('gives each demo listing its own machine with its units as GPUs', () => {
    expect(demoGpuIndexes(3)).toEqual([0, 1, 2]);
    expect(freeGpu(demoGpuIndexes(3), new Set([0]))).toBe(1);
  });
});

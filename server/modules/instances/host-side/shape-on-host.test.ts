import { describe, expect, it } from 'vitest';
import { shapeOnHost } from './desired';

const GiB = 1024 ** 3;
const host = (cores: number, totalGiB: number, guestGiB?: number) => ({
  hostname: 'h',
  cpu: { model: 'x', cores },
  memory: {
    totalBytes: totalGiB * GiB,
    availableBytes: totalGiB * GiB,
    ...(guestGiB === undefined ? {} : { guestBytes: guestGiB * GiB }),
  },
  disk: { path: '/', totalBytes: 1, freeBytes: 1 },
  accelerator: 'kvm' as const,
});

describe('an instance shape on its host', () => {
  it('gets what it asks when the host has room for each GPU', () => {
    expect(shapeOnHost({ cpus: 8, memoryGb: 32 }, host(64, 512), 4)).toEqual({
      cpus: 8,
      memoryMib: 32 * 1024,
    });
  });

  it('never more than a per-GPU share of the cores and of 80% of the memory', () => {
    expect(shapeOnHost({ cpus: 8, memoryGb: 32 }, host(16, 64), 2)).toEqual({
      cpus: 8,
      memoryMib: Math.floor((64 * 1024 * 0.8) / 2),
    });
    expect(shapeOnHost({ cpus: 8, memoryGb: 32 }, host(2, 24), 2).cpus).toBe(1);
  });

  it('shares the memory the provider lets guests use, at least 512 MiB', () => {
    expect(shapeOnHost({ cpus: 2, memoryGb: 8 }, host(8, 64, 16), 4).memoryMib).toBe(4096);
    expect(shapeOnHost({ cpus: 2, memoryGb: 8 }, host(8, 64, 0.5), 2).memoryMib).toBe(512);
  });

  it('treats a host without GPUs as one share', () => {
    expect(shapeOnHost({ cpus: 4, memoryGb: 8 }, host(4, 16), 0)).toEqual({
      cpus: 4,
      memoryMib: 8 * 1024,
    });
  });
});

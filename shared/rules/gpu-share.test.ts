import { describe, expect, it } from 'vitest';
import {
  DEMO_GPU_SHARE,
  fitShape,
  gpuShare,
  mibAsGb,
  shapeBeyondShare,
  shareLabel,
  shownShare,
} from './gpu-share';

const GiB = 1024 ** 3;

describe("a GPU's share of its host", () => {
  it('divides the cores and 80% of the memory by the GPUs', () => {
    // 2 GPUs, 16 cores, 64 GB: 8 vCPUs and 25.6 GB each (25.5 shown: rounded down).
    expect(gpuShare({ cores: 16, totalBytes: 64 * GiB, gpuCount: 2 })).toEqual({
      vcpus: 8,
      memoryMib: Math.floor((64 * 1024 * 0.8) / 2),
    });
    expect(mibAsGb(gpuShare({ cores: 16, totalBytes: 64 * GiB, gpuCount: 2 }).memoryMib)).toBe(
      25.5,
    );
  });

  it('shares what the provider lets guests use when it says', () => {
    expect(gpuShare({ cores: 8, totalBytes: 64 * GiB, guestBytes: 16 * GiB, gpuCount: 4 })).toEqual(
      { vcpus: 2, memoryMib: 4096 },
    );
  });

  it('gives at least one vCPU and 512 MiB, and treats a host without GPUs as one share', () => {
    // The host: 1 core, a little memory, 2 GPUs.
    expect(gpuShare({ cores: 1, totalBytes: 1 * GiB, gpuCount: 2 })).toEqual({
      vcpus: 1,
      memoryMib: 512,
    });
    expect(gpuShare({ cores: 4, totalBytes: 10 * GiB, gpuCount: 0 })).toEqual({
      vcpus: 4,
      memoryMib: 8192,
    });
  });
});

describe('a guest within its share', () => {
  const share = { vcpus: 8, memoryMib: 26214 };

  it('gets what it asks when that fits, else the share', () => {
    expect(fitShape({ cpus: 4, memoryMib: 16384 }, share)).toEqual({ cpus: 4, memoryMib: 16384 });
    expect(fitShape({ cpus: 16, memoryMib: 65536 }, share)).toEqual({
      cpus: 8,
      memoryMib: 26214,
    });
  });

  it('names the maximum of each field asked beyond the share', () => {
    expect(shapeBeyondShare({ cpus: 8, memoryGb: 25 }, shownShare(share))).toEqual({});
    expect(shapeBeyondShare({ cpus: 9, memoryGb: 26 }, shownShare(share))).toEqual({
      cpu_cores: "This GPU's share of its host is at most 8 vCPUs",
      ram_gb: "This GPU's share of its host is at most 25.5 GB of RAM",
    });
    expect(shapeBeyondShare({ cpus: 2 }, shownShare({ vcpus: 1, memoryMib: 512 }))).toEqual({
      cpu_cores: "This GPU's share of its host is at most 1 vCPU",
    });
  });

  it('lets the demo host take any shape the VM dashboard allows', () => {
    expect(shapeBeyondShare({ cpus: 16, memoryGb: 128 }, shownShare(DEMO_GPU_SHARE))).toEqual({});
  });

  it('refuses exactly what exceeds the share itself, in whole GB', () => {
    // 25.59 GB shows as 25.5: 25 fits, 26 does not, as against the MiB themselves.
    for (const memoryMib of [26204, 26214, 26623, 26624]) {
      for (const memoryGb of [25, 26, 27]) {
        const refused =
          'ram_gb' in shapeBeyondShare({ memoryGb }, shownShare({ vcpus: 1, memoryMib }));
        expect(refused).toBe(memoryGb * 1024 > memoryMib);
      }
    }
  });

  it('reads as vCPUs and GB, rounded down', () => {
    expect(shareLabel({ vcpus: 8, memoryGb: mibAsGb(26214) })).toBe('8 vCPUs · 25.5 GB RAM');
    expect(shareLabel({ vcpus: 1, memoryGb: mibAsGb(512) })).toBe('1 vCPU · 0.5 GB RAM');
  });
});

import { describe, expect, it } from 'vitest';
import type { HostReadiness } from '../../../../shared/contracts/hosts';
import {
  bytesAsGb,
  gpuMemory,
  gpuSummary,
  minutesLeft,
  readinessLines,
  timeAgo,
  uptimeText,
} from './host-display';

const now = Date.parse('2026-06-01T12:00:00Z');
const earlier = (ms: number) => new Date(now - ms).toISOString();

describe('timeAgo', () => {
  it.each([
    [null, 'never'],
    [earlier(2_000), 'just now'],
    [earlier(45_000), '45 s ago'],
    [earlier(12 * 60_000), '12 min ago'],
    [earlier(3 * 3_600_000), '3 h ago'],
    [earlier(47 * 3_600_000), '47 h ago'],
    [earlier(3 * 86_400_000), '3 days ago'],
    [new Date(now + 5_000).toISOString(), 'just now'],
  ])('%s → %s', (iso, text) => {
    expect(timeAgo(iso, now)).toBe(text);
  });
});

describe('minutesLeft', () => {
  it('rounds up while the time is ahead, null once it passed', () => {
    expect(minutesLeft(new Date(now + 3_600_000).toISOString(), now)).toBe(60);
    expect(minutesLeft(new Date(now + 61_000).toISOString(), now)).toBe(2);
    expect(minutesLeft(new Date(now).toISOString(), now)).toBeNull();
    expect(minutesLeft(earlier(1), now)).toBeNull();
  });
});

describe('GPU and size texts', () => {
  it('shows MiB as whole GB and bytes as decimal GB', () => {
    expect(gpuMemory(24_564)).toBe('24 GB');
    expect(gpuMemory(81_920)).toBe('80 GB');
    expect(gpuMemory(null)).toBeNull();
    expect(bytesAsGb(137_438_953_472)).toBe('137 GB');
    expect(bytesAsGb(null)).toBeNull();
  });

  it('groups identical GPUs', () => {
    const gpu = (index: number, name: string, memoryTotalMib: number | null) => ({
      index,
      name,
      model: null,
      memoryTotalMib,
      utilizationPercent: null,
      temperatureC: null,
    });
    expect(
      gpuSummary([
        gpu(0, 'NVIDIA GeForce RTX 4090', 24_564),
        gpu(1, 'NVIDIA GeForce RTX 4090', 24_564),
        gpu(2, 'NVIDIA A100 80GB PCIe', 81_920),
        gpu(3, 'Mystery GPU', null),
      ]),
    ).toEqual([
      '2 × NVIDIA GeForce RTX 4090 (24 GB)',
      'NVIDIA A100 80GB PCIe (80 GB)',
      'Mystery GPU',
    ]);
    expect(gpuSummary([])).toEqual([]);
  });

  it('uptime: one decimal, a whole 100, a dash before enrolment', () => {
    expect(uptimeText(99.9)).toBe('99.9%');
    expect(uptimeText(90)).toBe('90.0%');
    expect(uptimeText(100)).toBe('100%');
    expect(uptimeText(null)).toBe('—');
  });
});

describe('readinessLines', () => {
  const notReady: HostReadiness = {
    ready: false,
    virtualisation: 'none',
    problems: [
      { reason: 'No hardware virtualisation.', fix: 'Enable VT-x.' },
      { reason: 'Disk full.', fix: 'Free space.' },
    ],
    notes: [{ reason: 'No OS image is held yet.', fix: 'Fetch one.' }],
    gpus: [
      { index: 0, ready: true, problems: [] },
      { index: 1, ready: false, problems: [{ reason: 'No IOMMU.', fix: 'intel_iommu=on.' }] },
    ],
    readyGpus: [],
  };
  it('says "Online — not ready: reason Fix: fix", each GPU that is not, and the rest', () => {
    expect(readinessLines({ status: 'online', readiness: notReady })).toEqual({
      headline: 'Online — not ready: No hardware virtualisation. Fix: Enable VT-x.',
      gpus: ['GPU 1 — not ready: No IOMMU. Fix: intel_iommu=on.'],
      notes: ['Also: Disk full. Fix: Free space.', 'No OS image is held yet. Fetch one.'],
    });
  });
  it('says nothing before a verdict, or while awaiting enrolment', () => {
    expect(readinessLines({ status: 'online', readiness: null }).headline).toBeNull();
    expect(
      readinessLines({ status: 'awaiting_enrolment', readiness: notReady }).headline,
    ).toBeNull();
  });
});

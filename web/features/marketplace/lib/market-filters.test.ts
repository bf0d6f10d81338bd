import { describe, expect, it } from 'vitest';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import {
  DEFAULT_FILTERS,
  filterAndSort,
  type MarketFilters,
  PRICE_PER_GPU_SORT,
  readMarketFilters,
  writeMarketFilters,
} from './market-filters';

function listing(id: number, model: string, hourlyRate: string, more: Partial<GpuListingView>) {
  return {
    id,
    providerId: 1,
    model,
    memory: '80GB',
    cudaCores: null,
    tensorCores: null,
    location: 'Frankfurt, Germany',
    bandwidth: '100 Gbps',
    hourlyRate,
    dailyRate: '0',
    status: 'available',
    availableCount: 1,
    totalCount: 1,
    specifications: '{}',
    isDemoHost: false,
    hostStatus: 'online',
    hostId: 'host',
    kinds: ['vm'],
    hostUptimePercent: 99.5,
    gpuShare: null,
    gpuCount: 1,
    gpuMemoryGb: 80,
    pricePerGpuHour: hourlyRate,
    diskGb: null,
    driverVersion: null,
    cudaVersion: null,
    reliability: { uptimePercent: 99.5, windowDays: 30, observedDays: 30 },
    provider: {
      id: 1,
      companyName: 'Nimbus',
      location: 'Frankfurt',
      isVerified: true,
      reputation: '4.9',
    },
    ...more,
  } satisfies GpuListingView;
}

describe("the marketplace's filters in the address", () => {
  it('leaves the defaults out and reads back what it wrote', () => {
    expect(writeMarketFilters(DEFAULT_FILTERS)).toBe('');
    const filters: MarketFilters = {
      ...DEFAULT_FILTERS,
      q: 'H100',
      kind: 'container',
      sort: PRICE_PER_GPU_SORT,
      gpus: 4,
      minVram: 80,
      minReliability: 99,
      maxPricePerGpuHour: 5,
    };
    const text = writeMarketFilters(filters);
    expect(text).toBe(
      'q=H100&kind=container&sort=gpu-price-asc&gpus=4&vram=80&reliability=99&maxGpuHour=5',
    );
    expect(readMarketFilters(`?${text}`)).toEqual(filters);
  });

  it('ignores values that are not among the choices', () => {
    expect(
      readMarketFilters('type=GTX+480&kind=lxc&sort=random&gpus=3&vram=abc&reliability=50'),
    ).toEqual(DEFAULT_FILTERS);
  });
});

describe('filtering and sorting what is loaded', () => {
  const single = listing(1, 'H100', '4.50', {});
  const node = listing(2, '4x H100', '16.50', {
    gpuCount: 4,
    pricePerGpuHour: '4.13',
    reliability: { uptimePercent: 97.2, windowDays: 30, observedDays: 30 },
  });
  const fresh = listing(3, 'RTX 4090', '1.45', {
    memory: '24GB',
    gpuMemoryGb: 24,
    reliability: { uptimePercent: null, windowDays: 30, observedDays: 1.5 },
  });

  it('keeps the listings that pass each filter', () => {
    const all = [single, node, fresh];
    const ids = (filters: Partial<MarketFilters>) =>
      filterAndSort(all, { ...DEFAULT_FILTERS, ...filters }).map((l) => l.id);
    expect(ids({ gpus: 4 })).toEqual([2]);
    expect(ids({ minVram: 40 })).toEqual([1, 2]);
    // A host with too little history has no figure: it does not pass a reliability floor.
    expect(ids({ minReliability: 99 })).toEqual([1]);
    expect(ids({ maxPricePerGpuHour: 2 })).toEqual([3]);
  });

  it('sorts by price per GPU-hour: the 4x node ($4.13) before the single card ($4.50)', () => {
    const sorted = filterAndSort([single, node, fresh], {
      ...DEFAULT_FILTERS,
      sort: PRICE_PER_GPU_SORT,
    });
    expect(sorted.map((l) => l.id)).toEqual([3, 2, 1]);
  });
});

/**
 * Option lists of the Add New GPU Listing dialog. Memory holds every catalogue model's size
 * (shared/gpu-models.ts): 32GB is the V100's.
 */
export const MEMORY_OPTIONS = [
  '8GB',
  '12GB',
  '16GB',
  '24GB',
  '32GB',
  '40GB',
  '48GB',
  '80GB',
] as const;
export const BANDWIDTH_OPTIONS = ['1 Gbps', '10 Gbps', '25 Gbps', '100 Gbps'] as const;
export const PCIE_OPTIONS = ['8x', '16x'] as const;
export const COOLING_OPTIONS = ['Air Cooled', 'Liquid Cooled', 'Hybrid Cooled'] as const;
export const LISTING_DEFAULTS = {
  bandwidth: '1 Gbps',
  pcieLanes: '16x',
  cooling: 'Air Cooled',
  availableCount: 1,
} as const;

/** Marketplace filters and sorts. */
export const GPU_TYPE_FILTERS = [
  'All GPU Types',
  'RTX 4090',
  'RTX 4080',
  'RTX 3090',
  'A100',
  'H100',
] as const;
export const SORT_OPTIONS = [
  { value: 'price-asc', label: 'Price low to high' },
  { value: 'price-desc', label: 'Price high to low' },
  { value: 'memory', label: 'Memory' },
  { value: 'performance', label: 'Performance' },
  { value: 'gpu-price-asc', label: 'Price per GPU-hour' },
] as const;
export type ListingSort = (typeof SORT_OPTIONS)[number]['value'];

/** The marketplace's GPU count filter: GPUs one instance of a listing gets. */
export const GPU_COUNT_FILTERS = [1, 2, 4, 8] as const;

/**
 * NVIDIA GPUs by PCI device id (vendor 0x10de), for GPUs the agent finds in sysfs bound to
 * vfio-pci, where nvidia-smi cannot see them (agent/inventory/vfio-gpus.ts). Each id gives the
 * name nvidia-smi prints for that board (NVIDIA's driver names it so: the "Compatible GPUs"
 * table of NVIDIA's open-gpu-kernel-modules README), so the marketplace model follows from it
 * exactly as for a GPU nvidia-smi lists (shared/gpu-names.ts); `memoryMib` is the board's
 * nominal memory (GB × 1024), a little more than nvidia-smi reports (81,559 MiB for an
 * 80 GB H100).
 *
 * `chip` and `product` are how Debian's PCI id list (`/usr/share/misc/pci.ids`, package
 * `pci.ids`) names the id: `GH100 [H100 SXM5 80GB]` is chip GH100, product "H100 SXM5 80GB".
 * shared/gpu-pci-ids.test.ts checks every id against that file.
 */
export interface GpuPciId {
  /** Lower-case hex, four digits: `2330`. */
  deviceId: string;
  /** As nvidia-smi prints it (`--query-gpu=name`). */
  name: string;
  memoryMib: number | null;
  /** The chip pci.ids names (`GH100`, `AD102GL`). */
  chip: string;
  /** Words the product name in pci.ids holds, where it names one. */
  product: string;
}

const gib = (n: number) => n * 1024;

export const NVIDIA_VENDOR_ID = '10de';

export const GPU_PCI_IDS: readonly GpuPciId[] = [
  // Hopper
  {
    deviceId: '2330',
    name: 'NVIDIA H100 80GB HBM3',
    memoryMib: gib(80),
    chip: 'GH100',
    product: 'H100 SXM5 80GB',
  },
  {
    deviceId: '2331',
    name: 'NVIDIA H100 PCIe',
    memoryMib: gib(80),
    chip: 'GH100',
    product: 'H100 PCIe',
  },
  {
    deviceId: '2321',
    name: 'NVIDIA H100 NVL',
    memoryMib: gib(94),
    chip: 'GH100',
    product: 'H100 NVL',
  },
  { deviceId: '2339', name: 'NVIDIA H100', memoryMib: null, chip: 'GH100', product: 'H100' },
  { deviceId: '2335', name: 'NVIDIA H200', memoryMib: gib(141), chip: 'GH100', product: 'H200' },
  // Ampere data centre
  {
    deviceId: '20b0',
    name: 'NVIDIA A100-SXM4-40GB',
    memoryMib: gib(40),
    chip: 'GA100',
    product: 'A100 SXM4 40GB',
  },
  {
    deviceId: '20b1',
    name: 'NVIDIA A100-PCIE-40GB',
    memoryMib: gib(40),
    chip: 'GA100',
    product: 'A100 PCIe 40GB',
  },
  {
    deviceId: '20f1',
    name: 'NVIDIA A100-PCIE-40GB',
    memoryMib: gib(40),
    chip: 'GA100',
    product: 'A100 PCIe 40GB',
  },
  {
    deviceId: '20b2',
    name: 'NVIDIA A100-SXM4-80GB',
    memoryMib: gib(80),
    chip: 'GA100',
    product: 'A100 SXM4 80GB',
  },
  {
    deviceId: '20b5',
    name: 'NVIDIA A100 80GB PCIe',
    memoryMib: gib(80),
    chip: 'GA100',
    product: 'A100 PCIe 80GB',
  },
  { deviceId: '2235', name: 'NVIDIA A40', memoryMib: gib(48), chip: 'GA102GL', product: 'A40' },
  { deviceId: '2236', name: 'NVIDIA A10', memoryMib: gib(24), chip: 'GA102GL', product: 'A10' },
  {
    deviceId: '2230',
    name: 'NVIDIA RTX A6000',
    memoryMib: gib(48),
    chip: 'GA102GL',
    product: 'RTX A6000',
  },
  // Ada data centre and workstation
  { deviceId: '26b5', name: 'NVIDIA L40', memoryMib: gib(48), chip: 'AD102GL', product: 'L40' },
  { deviceId: '26b9', name: 'NVIDIA L40S', memoryMib: gib(48), chip: 'AD102GL', product: 'L40S' },
  { deviceId: '27b8', name: 'NVIDIA L4', memoryMib: gib(24), chip: 'AD104GL', product: 'L4' },
  {
    deviceId: '26b1',
    name: 'NVIDIA RTX 6000 Ada Generation',
    memoryMib: gib(48),
    chip: 'AD102GL',
    product: 'RTX 6000 Ada',
  },
  // Volta and Turing
  {
    deviceId: '1db1',
    name: 'Tesla V100-SXM2-16GB',
    memoryMib: gib(16),
    chip: 'GV100GL',
    product: 'V100 SXM2 16GB',
  },
  {
    deviceId: '1db4',
    name: 'Tesla V100-PCIE-16GB',
    memoryMib: gib(16),
    chip: 'GV100GL',
    product: 'V100 PCIe 16GB',
  },
  {
    deviceId: '1db5',
    name: 'Tesla V100-SXM2-32GB',
    memoryMib: gib(32),
    chip: 'GV100GL',
    product: 'V100 SXM2 32GB',
  },
  {
    deviceId: '1db6',
    name: 'Tesla V100-PCIE-32GB',
    memoryMib: gib(32),
    chip: 'GV100GL',
    product: 'V100 PCIe 32GB',
  },
  {
    deviceId: '1df6',
    name: 'Tesla V100S-PCIE-32GB',
    memoryMib: gib(32),
    chip: 'GV100GL',
    product: 'V100S PCIe 32GB',
  },
  { deviceId: '1eb8', name: 'Tesla T4', memoryMib: gib(16), chip: 'TU104GL', product: 'T4' },
  // GeForce
  {
    deviceId: '2204',
    name: 'NVIDIA GeForce RTX 3090',
    memoryMib: gib(24),
    chip: 'GA102',
    product: 'GeForce RTX 3090',
  },
  {
    deviceId: '2206',
    name: 'NVIDIA GeForce RTX 3080',
    memoryMib: gib(10),
    chip: 'GA102',
    product: 'GeForce RTX 3080',
  },
  {
    deviceId: '220a',
    name: 'NVIDIA GeForce RTX 3080',
    memoryMib: gib(12),
    chip: 'GA102',
    product: 'GeForce RTX 3080 12GB',
  },
  {
    deviceId: '2216',
    name: 'NVIDIA GeForce RTX 3080',
    memoryMib: gib(10),
    chip: 'GA102',
    product: 'GeForce RTX 3080',
  },
  {
    deviceId: '2484',
    name: 'NVIDIA GeForce RTX 3070',
    memoryMib: gib(8),
    chip: 'GA104',
    product: 'GeForce RTX 3070',
  },
  {
    deviceId: '2488',
    name: 'NVIDIA GeForce RTX 3070',
    memoryMib: gib(8),
    chip: 'GA104',
    product: 'GeForce RTX 3070',
  },
  {
    deviceId: '2684',
    name: 'NVIDIA GeForce RTX 4090',
    memoryMib: gib(24),
    chip: 'AD102',
    product: 'GeForce RTX 4090',
  },
  {
    deviceId: '2704',
    name: 'NVIDIA GeForce RTX 4080',
    memoryMib: gib(16),
    chip: 'AD103',
    product: 'GeForce RTX 4080',
  },
  {
    deviceId: '2786',
    name: 'NVIDIA GeForce RTX 4070',
    memoryMib: gib(12),
    chip: 'AD104',
    product: 'GeForce RTX 4070',
  },
  {
    deviceId: '2709',
    name: 'NVIDIA GeForce RTX 4070',
    memoryMib: gib(12),
    chip: 'AD104',
    product: 'GeForce RTX 4070',
  },
  {
    deviceId: '2b85',
    name: 'NVIDIA GeForce RTX 5090',
    memoryMib: gib(32),
    chip: 'GB202',
    product: 'GeForce RTX 5090',
  },
];

const BY_ID = new Map(GPU_PCI_IDS.map((g) => [g.deviceId, g]));

/** The table's entry for an NVIDIA PCI device id (`0x2330`, `2330`, any case), or null. */
export function gpuByPciDeviceId(deviceId: string): GpuPciId | null {
  const id = deviceId.trim().toLowerCase().replace(/^0x/, '');
  return BY_ID.get(id) ?? null;
}

/** A name for a GPU the table does not know: `NVIDIA GPU 10de:2b00`. It is no marketplace model. */
export function unknownGpuName(deviceId: string): string {
  return `NVIDIA GPU ${NVIDIA_VENDOR_ID}:${deviceId.trim().toLowerCase().replace(/^0x/, '')}`;
}

import { gpuModelInfo } from './gpu-models';

/**
 * The names `nvidia-smi --query-gpu=name` prints for each marketplace model (shared/
 * gpu-models.ts), one table (docs/decisions/020). Compared without case, a leading "NVIDIA "
 * or "Tesla " and repeated spaces, so "NVIDIA H100 80GB HBM3" and "H100 80GB HBM3" are one
 * name. A card the table does not name (an RTX 4080 SUPER, an A100 with 16 GB) is no model:
 * its host shows it, but it cannot be listed.
 */
export const NVIDIA_SMI_NAMES: Readonly<Record<string, readonly string[]>> = {
  'RTX 4090': ['NVIDIA GeForce RTX 4090'],
  'RTX 4080': ['NVIDIA GeForce RTX 4080'],
  'RTX 4070': ['NVIDIA GeForce RTX 4070'],
  'RTX 3090': ['NVIDIA GeForce RTX 3090'],
  'RTX 3080': ['NVIDIA GeForce RTX 3080'],
  'RTX 3070': ['NVIDIA GeForce RTX 3070'],
  'A100 80GB': [
    'NVIDIA A100-SXM4-80GB',
    'NVIDIA A100-PCIE-80GB',
    'NVIDIA A100 80GB PCIe',
    'NVIDIA A100-SXM-80GB',
  ],
  'A100 40GB': ['NVIDIA A100-SXM4-40GB', 'NVIDIA A100-PCIE-40GB', 'NVIDIA A100 40GB PCIe'],
  H100: [
    'NVIDIA H100 80GB HBM3',
    'NVIDIA H100 PCIe',
    'NVIDIA H100 NVL',
    'NVIDIA H100',
    'NVIDIA H100 SXM5 80GB',
  ],
  V100: ['Tesla V100-SXM2-32GB', 'Tesla V100-PCIE-32GB', 'Tesla V100S-PCIE-32GB'],
  T4: ['Tesla T4', 'NVIDIA T4'],
  A40: ['NVIDIA A40'],
  A6000: ['NVIDIA RTX A6000'],
};

function normalised(name: string): string {
  return name
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(nvidia|tesla) /i, '')
    .toLowerCase();
}

const MODEL_BY_NAME = new Map<string, string>(
  Object.entries(NVIDIA_SMI_NAMES).flatMap(([model, names]) =>
    names.map((name) => [normalised(name), model] as const),
  ),
);

/** The marketplace model of a GPU as nvidia-smi names it, or null when it is none of them. */
export function marketplaceModelOf(nvidiaSmiName: string): string | null {
  return MODEL_BY_NAME.get(normalised(nvidiaSmiName)) ?? null;
}

/** "H100 80GB", "RTX 4090 24GB", "A100 80GB": a model with its memory, for messages. */
export function modelWithMemory(model: string): string {
  const memory = gpuModelInfo(model)?.memory;
  return memory && !model.includes(memory) ? `${model} ${memory}` : model;
}

/**
 * The GPU models the marketplace knows: memory, core counts and a relative performance
 * score (FP16 tensor throughput, RTX 3070 = 100) used by the Performance sort.
 */
export interface GpuModelInfo {
  model: string;
  tier: 'consumer' | 'professional';
  memory: string;
  cudaCores: number;
  tensorCores: number;
  performance: number;
  powerWatts: number;
}

export const GPU_MODELS: readonly GpuModelInfo[] = [
  {
    model: 'RTX 4090',
    tier: 'consumer',
    memory: '24GB',
    cudaCores: 16384,
    tensorCores: 512,
    performance: 540,
    powerWatts: 450,
  },
  {
    model: 'RTX 4080',
    tier: 'consumer',
    memory: '16GB',
    cudaCores: 9728,
    tensorCores: 304,
    performance: 400,
    powerWatts: 320,
  },
  {
    model: 'RTX 4070',
    tier: 'consumer',
    memory: '12GB',
    cudaCores: 5888,
    tensorCores: 184,
    performance: 240,
    powerWatts: 200,
  },
  {
    model: 'RTX 3090',
    tier: 'consumer',
    memory: '24GB',
    cudaCores: 10496,
    tensorCores: 328,
    performance: 200,
    powerWatts: 350,
  },
  {
    model: 'RTX 3080',
    tier: 'consumer',
    memory: '12GB',
    cudaCores: 8960,
    tensorCores: 280,
    performance: 160,
    powerWatts: 350,
  },
  {
    model: 'RTX 3070',
    tier: 'consumer',
    memory: '8GB',
    cudaCores: 5888,
    tensorCores: 184,
    performance: 100,
    powerWatts: 220,
  },
  {
    model: 'A100 80GB',
    tier: 'professional',
    memory: '80GB',
    cudaCores: 6912,
    tensorCores: 432,
    performance: 1000,
    powerWatts: 400,
  },
  {
    model: 'A100 40GB',
    tier: 'professional',
    memory: '40GB',
    cudaCores: 6912,
    tensorCores: 432,
    performance: 960,
    powerWatts: 400,
  },
  {
    model: 'H100',
    tier: 'professional',
    memory: '80GB',
    cudaCores: 16896,
    tensorCores: 528,
    performance: 2400,
    powerWatts: 700,
  },
  {
    model: 'V100',
    tier: 'professional',
    memory: '32GB',
    cudaCores: 5120,
    tensorCores: 640,
    performance: 380,
    powerWatts: 300,
  },
  {
    model: 'T4',
    tier: 'professional',
    memory: '16GB',
    cudaCores: 2560,
    tensorCores: 320,
    performance: 200,
    powerWatts: 70,
  },
  {
    model: 'A40',
    tier: 'professional',
    memory: '48GB',
    cudaCores: 10752,
    tensorCores: 336,
    performance: 460,
    powerWatts: 300,
  },
  {
    model: 'A6000',
    tier: 'professional',
    memory: '48GB',
    cudaCores: 10752,
    tensorCores: 336,
    performance: 470,
    powerWatts: 300,
  },
];

/** The models a provider may list. */
export const LISTABLE_MODELS = GPU_MODELS.map((m) => m.model);

export function gpuModelInfo(model: string): GpuModelInfo | undefined {
  return GPU_MODELS.find((m) => m.model === model);
}

/** "An RTX 4090", "A T4": the model with the article its spoken name takes. */
function withArticle(model: string): string {
  // Letters whose names start with a vowel sound: A, E, F, H, I, L, M, N, O, R, S, X.
  return `${/^[AEFHILMNORSX]/i.test(model) ? 'An' : 'A'} ${model}`;
}

/**
 * A listing sells a catalogue GPU as it is: its memory must be the model's. The reason in
 * words ("An RTX 4090 has 24 GB") when it is not; null when it is, or the model is not a
 * catalogue one (the model's own check says so).
 */
export function catalogueMemoryProblem(model: string, memory: string): string | null {
  const info = gpuModelInfo(model);
  if (!info || info.memory === memory) return null;
  return `${withArticle(info.model)} has ${info.memory.replace(/GB$/, ' GB')}`;
}

/** "8x A100 80GB" → the A100 80GB entry and a count of 8. */
export function parseMultiGpu(model: string): { count: number; info: GpuModelInfo | undefined } {
  const match = /^(\d+)x\s+(.+)$/.exec(model.trim());
  if (!match) return { count: 1, info: gpuModelInfo(model.trim()) };
  const count = Number(match[1]);
  return { count, info: gpuModelInfo(match[2] ?? '') };
}

/** Relative score of a listing's model; a multi-GPU setup scores its cards together. */
export function performanceScore(model: string): number {
  const { count, info } = parseMultiGpu(model);
  return (info?.performance ?? 0) * count;
}

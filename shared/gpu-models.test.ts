import { describe, expect, it } from 'vitest';
import {
  catalogueMemoryProblem,
  GPU_MODELS,
  LISTABLE_MODELS,
  parseMultiGpu,
  performanceScore,
} from './gpu-models';
import { MEMORY_OPTIONS } from './listing-options';

describe('GPU models', () => {
  it('lists exactly the models a provider may list', () => {
    expect(LISTABLE_MODELS).toEqual([
      'RTX 4090',
      'RTX 4080',
      'RTX 4070',
      'RTX 3090',
      'RTX 3080',
      'RTX 3070',
      'A100 80GB',
      'A100 40GB',
      'H100',
      'V100',
      'T4',
      'A40',
      'A6000',
    ]);
  });
  it('scores multi-GPU setups as their cards together', () => {
    expect(parseMultiGpu('8x A100 80GB')).toMatchObject({ count: 8, info: { model: 'A100 80GB' } });
    expect(performanceScore('8x A100 80GB')).toBe(8 * performanceScore('A100 80GB'));
    expect(performanceScore('H100')).toBeGreaterThan(performanceScore('A100 80GB'));
    expect(performanceScore('Unknown GPU')).toBe(0);
  });
  it('accepts a listing only with its model’s own memory, and says which in words', () => {
    expect(catalogueMemoryProblem('RTX 4090', '24GB')).toBeNull();
    expect(catalogueMemoryProblem('RTX 4090', '8GB')).toBe('An RTX 4090 has 24 GB');
    expect(catalogueMemoryProblem('H100', '40GB')).toBe('An H100 has 80 GB');
    expect(catalogueMemoryProblem('T4', '24GB')).toBe('A T4 has 16 GB');
    expect(catalogueMemoryProblem('V100', '16GB')).toBe('A V100 has 32 GB');
    expect(catalogueMemoryProblem('A100 40GB', '80GB')).toBe('An A100 40GB has 40 GB');
    // Not a catalogue model: the model's own check refuses it.
    expect(catalogueMemoryProblem('Potato 9000', '8GB')).toBeNull();
  });
  it('offers every catalogue model’s memory among the dialog’s memory options', () => {
    for (const { model, memory } of GPU_MODELS) {
      expect(MEMORY_OPTIONS as readonly string[], model).toContain(memory);
    }
  });
});

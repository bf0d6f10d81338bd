import { describe, expect, it } from 'vitest';
import { LISTABLE_MODELS, parseMultiGpu, performanceScore } from './gpu-models';

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
});

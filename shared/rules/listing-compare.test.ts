import { describe, expect, it } from 'vitest';
import {
  bestPositions,
  MAX_COMPARED,
  parseCompareIds,
  pricePerGpuHour,
  toggleCompared,
} from './listing-compare';

describe('the ids of a compare address', () => {
  it('reads whole positive ids, each once, in the order given', () => {
    expect(parseCompareIds('12,3,12, 7')).toEqual([12, 3, 7]);
  });

  it('drops what is not an id and keeps at most four', () => {
    expect(parseCompareIds('a,0,-2,1.5,,5')).toEqual([5]);
    expect(parseCompareIds('1,2,3,4,5,6')).toHaveLength(MAX_COMPARED);
    expect(parseCompareIds(null)).toEqual([]);
    expect(parseCompareIds('99999999999')).toEqual([]);
  });
});

describe('the compare toggle', () => {
  it('adds a new id and drops a picked one', () => {
    expect(toggleCompared([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggleCompared([1, 2, 3], 2)).toEqual([1, 3]);
  });

  it('adds no fifth id', () => {
    expect(toggleCompared([1, 2, 3, 4], 5)).toEqual([1, 2, 3, 4]);
    expect(toggleCompared([1, 2, 3, 4], 4)).toEqual([1, 2, 3]);
  });
});

describe('the best value of a compare row', () => {
  it('is the lowest price and the highest memory, ties included', () => {
    expect(bestPositions([2.5, 1.2, 1.2, 3], 'lower')).toEqual([1, 2]);
    expect(bestPositions([24, 80, 48], 'higher')).toEqual([1]);
  });

  it('never picks an unknown value, and picks none when nothing differs', () => {
    expect(bestPositions([null, 99.5, 97], 'higher')).toEqual([1]);
    expect(bestPositions([null, 99.5], 'higher')).toEqual([]);
    expect(bestPositions([1.5, 1.5], 'lower')).toEqual([]);
    expect(bestPositions([null, null], 'lower')).toEqual([]);
  });
});

describe('the price of one GPU-hour', () => {
  it('divides the hourly rate by the GPUs a rental gets', () => {
    expect(pricePerGpuHour(16.5, 4)).toBe(4.125);
    expect(pricePerGpuHour(22, 8)).toBe(2.75);
    expect(pricePerGpuHour(1.45, 1)).toBe(1.45);
    expect(pricePerGpuHour(2, 0)).toBe(2);
  });
});

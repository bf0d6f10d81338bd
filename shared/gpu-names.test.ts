import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LISTABLE_MODELS } from './gpu-models';
import { marketplaceModelOf, modelWithMemory, NVIDIA_SMI_NAMES } from './gpu-names';

/** Real nvidia-smi output of an H100 host (fixtures/real-gpu/README.md). */
const REAL_GPU = new URL('./fixtures/real-gpu/', import.meta.url);
const real = (file: string) => readFileSync(new URL(file, REAL_GPU), 'utf8');

describe('nvidia-smi names to marketplace models', () => {
  it('names the real H100 host as H100, from the agent query, the extended CSV and -q', () => {
    const line = /^`(0, .*)`$/m.exec(real('README.md'))?.[1] ?? '';
    expect(marketplaceModelOf(line.split(', ')[1] ?? '')).toBe('H100');
    const csvName = real('extended-query.csv').split('\n')[1]?.split(', ')[1] ?? '';
    expect(marketplaceModelOf(csvName)).toBe('H100');
    const productName = /Product Name\s+: (.+)/.exec(real('nvidia-smi-q.txt'))?.[1] ?? '';
    expect(marketplaceModelOf(productName)).toBe('H100');
    const xmlName = /<product_name>(.+)<\/product_name>/.exec(real('nvidia-smi-q.xml'))?.[1];
    expect(marketplaceModelOf(xmlName ?? '')).toBe('H100');
  });

  it('has names for every listable model, and every name maps back to its model', () => {
    for (const model of LISTABLE_MODELS) {
      const names = NVIDIA_SMI_NAMES[model] ?? [];
      expect(names.length, model).toBeGreaterThan(0);
      for (const name of names) expect(marketplaceModelOf(name), name).toBe(model);
    }
    expect(Object.keys(NVIDIA_SMI_NAMES).sort()).toEqual([...LISTABLE_MODELS].sort());
  });

  it('maps the names nvidia-smi prints for common cards', () => {
    expect(marketplaceModelOf('NVIDIA GeForce RTX 4090')).toBe('RTX 4090');
    expect(marketplaceModelOf('NVIDIA A100-SXM4-80GB')).toBe('A100 80GB');
    expect(marketplaceModelOf('NVIDIA A100-PCIE-40GB')).toBe('A100 40GB');
    expect(marketplaceModelOf('Tesla V100-SXM2-32GB')).toBe('V100');
    expect(marketplaceModelOf('Tesla T4')).toBe('T4');
    expect(marketplaceModelOf('NVIDIA RTX A6000')).toBe('A6000');
    expect(marketplaceModelOf('  nvidia   h100 80gb hbm3 ')).toBe('H100');
  });

  it('is no model for cards the marketplace does not list', () => {
    expect(marketplaceModelOf('NVIDIA GeForce RTX 4080 SUPER')).toBeNull();
    expect(marketplaceModelOf('NVIDIA GeForce GTX 1080')).toBeNull();
    expect(marketplaceModelOf('Unknown GPU')).toBeNull();
    expect(marketplaceModelOf('')).toBeNull();
  });

  it('words a model with its memory once', () => {
    expect(modelWithMemory('H100')).toBe('H100 80GB');
    expect(modelWithMemory('A100 80GB')).toBe('A100 80GB');
    expect(modelWithMemory('RTX 4090')).toBe('RTX 4090 24GB');
  });
});

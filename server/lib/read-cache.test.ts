import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('serves a fresh value until it expires or is invalidated', async () => {
    let now = 0;
    let loads = 0;
    const cache = new ReadCache<number>(1000, 10, () => now);
    const load = async () => ++loads;
    expect(await cache.getOrLoad('a', load)).toBe(1);
    expect(await cache.getOrLoad('a', load)).toBe(1);
    now = 1001;
    expect(await cache.getOrLoad('a', load)).toBe(2);
    cache.invalidate();
    expect(await cache.getOrLoad('a', load)).toBe(3);
  });

  it('does not keep a value loaded across an invalidation', async () => {
    const cache = new ReadCache<string>(1000);
    let release: () => void = () => {};
    const slow = cache.getOrLoad(
      'k',
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve('old');
        }),
    );
    cache.invalidate();
    release();
    expect(await slow).toBe('old');
    expect(await cache.getOrLoad('k', async () => 'new')).toBe('new');
  });

  it('stays bounded', async () => {
    const cache = new ReadCache<number>(1000, 2);
    let loads = 0;
    for (const key of ['a', 'b', 'c']) await cache.getOrLoad(key, async () => ++loads);
    expect(await cache.getOrLoad('a', async () => ++loads)).toBe(4);
  });

  it('keeps an answer in its kept form, and with the cache off answers as loaded', async () => {
    const bytes = (v: string | Buffer) => (typeof v === 'string' ? Buffer.from(v) : v);
    const on = new ReadCache<string | Buffer>(1000, 10, Date.now, bytes);
    expect(await on.getOrLoad('p', async () => '[1]')).toEqual(Buffer.from('[1]'));
    expect(await on.getOrLoad('p', async () => '[2]')).toEqual(Buffer.from('[1]'));
    const off = new ReadCache<string | Buffer>(0, 10, Date.now, bytes);
    expect(await off.getOrLoad('p', async () => '[1]')).toBe('[1]');
    expect(await off.getOrLoad('p', async () => '[2]')).toBe('[2]');
  });
});

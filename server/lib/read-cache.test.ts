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

  it('loads once for every request that misses while the same answer is being loaded', async () => {
    let now = 0;
    let loads = 0;
    const cache = new ReadCache<string>(1000, 10, () => now);
    let release: () => void = () => {};
    const slow = () =>
      new Promise<string>((resolve) => {
        loads += 1;
        release = () => resolve(`answer ${loads}`);
      });
    const waiting = [1, 2, 3, 4, 5].map(() => cache.getOrLoad('stats', slow));
    await Promise.resolve();
    release();
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('answer 1'));
    expect(loads).toBe(1);
    // Another key is loaded on its own; an expired answer is loaded again, once.
    expect(await cache.getOrLoad('other', async () => 'other')).toBe('other');
    now = 1001;
    const again = [1, 2, 3].map(() => cache.getOrLoad('stats', slow));
    await Promise.resolve();
    release();
    expect(await Promise.all(again)).toEqual(Array(3).fill('answer 2'));
    expect(loads).toBe(2);
  });

  it('does not share a load begun before an invalidation with a request after it', async () => {
    const cache = new ReadCache<string>(1000);
    const releases: (() => void)[] = [];
    let loads = 0;
    const slow = () =>
      new Promise<string>((resolve) => {
        const n = ++loads;
        releases.push(() => resolve(`load ${n}`));
      });
    const before = cache.getOrLoad('k', slow);
    await Promise.resolve();
    cache.invalidate();
    const after = cache.getOrLoad('k', slow);
    const alsoAfter = cache.getOrLoad('k', slow);
    await Promise.resolve();
    for (const release of releases) release();
    expect(await before).toBe('load 1');
    expect(await after).toBe('load 2');
    expect(await alsoAfter).toBe('load 2');
    expect(loads).toBe(2);
    expect(await cache.getOrLoad('k', async () => 'new')).toBe('load 2');
  });

  it('fails every request of a failed load, keeps nothing, and loads again on the next', async () => {
    const cache = new ReadCache<string>(1000);
    let loads = 0;
    const failing = async () => {
      loads += 1;
      throw new Error('database gone');
    };
    const both = [cache.getOrLoad('k', failing), cache.getOrLoad('k', failing)];
    for (const request of both) await expect(request).rejects.toThrow('database gone');
    expect(loads).toBe(1);
    expect(await cache.getOrLoad('k', async () => 'back')).toBe('back');
  });

  it('with the cache off, loads for every request, however many ask at once', async () => {
    const cache = new ReadCache<number>(0);
    let loads = 0;
    const answers = await Promise.all(
      [1, 2, 3].map(() => cache.getOrLoad('k', async () => ++loads)),
    );
    expect(answers.sort()).toEqual([1, 2, 3]);
  });
});

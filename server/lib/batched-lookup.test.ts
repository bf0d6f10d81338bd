import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batchedLookup } from './batched-lookup';

/** A load that records each batch it was given and finds keys that start with "k". */
function recording() {
  const batches: string[][] = [];
  const load = async (keys: readonly string[]) => {
    batches.push([...keys]);
    return new Map(keys.filter((k) => k.startsWith('k')).map((k) => [k, `value of ${k}`]));
  };
  return { batches, load };
}

describe('batchedLookup', () => {
  it('sends the keys asked for in one turn as one load, each key once', async () => {
    const { batches, load } = recording();
    const lookup = batchedLookup(load);
    const answers = await Promise.all([lookup('k1'), lookup('k2'), lookup('k1'), lookup('x')]);
    expect(answers).toEqual(['value of k1', 'value of k2', 'value of k1', null]);
    expect(batches).toEqual([['k1', 'k2', 'x']]);
  });

  it('a key asked for after the batch was sent is loaded again, not answered from it', async () => {
    const { batches, load } = recording();
    const lookup = batchedLookup(load);
    expect(await lookup('k1')).toBe('value of k1');
    await nextTurn();
    expect(await lookup('k1')).toBe('value of k1');
    expect(batches).toEqual([['k1'], ['k1']]);
  });

  it('a full batch goes at once; the rest wait for the next', async () => {
    const { batches, load } = recording();
    const lookup = batchedLookup(load, 2);
    const answers = await Promise.all(['k1', 'k2', 'k3'].map((k) => lookup(k)));
    expect(answers).toEqual(['value of k1', 'value of k2', 'value of k3']);
    expect(batches).toEqual([['k1', 'k2'], ['k3']]);
  });

  it("a failed load fails its own batch's lookups only", async () => {
    let calls = 0;
    const lookup = batchedLookup(async (keys: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, k.length]));
    });
    const first = Promise.allSettled([lookup('a'), lookup('bb')]);
    expect((await first).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await lookup('ccc')).toBe(3);
  });

  it('a load that throws at once fails its batch the same way', async () => {
    const lookup = batchedLookup<string, number>(() => {
      throw new Error('no database');
    });
    await expect(lookup('a')).rejects.toThrow('no database');
  });
});

import { describe, expect, it } from 'vitest';
import { createHostWake } from './wake';

describe('host wake (the agent long poll)', () => {
  it('wakes every wait of that host, and only of that host', async () => {
    const wake = createHostWake();
    const a1 = wake.wait('a', 10_000);
    const a2 = wake.wait('a', 10_000);
    const b = wake.wait('b', 30);
    expect(wake.waiting).toBe(3);
    wake.wake('a');
    expect(await a1).toBe(true);
    expect(await a2).toBe(true);
    expect(await b).toBe(false);
    expect(wake.waiting).toBe(0);
  });

  it('keeps a wake that found no waiter for the next wait, until a heartbeat reads it', async () => {
    const wake = createHostWake();
    wake.wake('a');
    expect(await wake.wait('a', 10_000)).toBe(true);
    expect(await wake.wait('a', 10)).toBe(false);
    wake.wake('a');
    wake.heard('a');
    expect(await wake.wait('a', 10)).toBe(false);
  });

  it('frees a wait whose agent hangs up', async () => {
    const wake = createHostWake();
    const gone = new AbortController();
    const held = wake.wait('a', 10_000, gone.signal);
    gone.abort();
    expect(await held).toBe(false);
    expect(wake.waiting).toBe(0);
  });

  it('answers every held wait at shutdown', async () => {
    const wake = createHostWake();
    const held = [wake.wait('a', 10_000), wake.wait('b', 10_000)];
    wake.releaseAll();
    expect(await Promise.all(held)).toEqual([false, false]);
    expect(wake.waiting).toBe(0);
  });

  it('wakes every held wait when signals may have been missed', async () => {
    const wake = createHostWake();
    const held = [wake.wait('a', 10_000), wake.wait('b', 10_000)];
    wake.wakeAll();
    expect(await Promise.all(held)).toEqual([true, true]);
    expect(wake.waiting).toBe(0);
  });

  it('forgets pending wakes beyond its bound rather than grow', async () => {
    const wake = createHostWake(2);
    wake.wake('a');
    wake.wake('b');
    wake.wake('c');
    expect(await wake.wait('a', 10)).toBe(false);
    expect(await wake.wait('c', 10_000)).toBe(true);
  });
});

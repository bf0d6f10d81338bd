import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { type HeldLease, LeaseKeeper } from './leased-slots';

/**
 * A store in memory whose writes take a while, as a loaded database's do: a renewal puts back
 * a lease the store lost (as the real stores' upsert does).
 */
class SlowStore extends LeaseKeeper {
  readonly rows = new Set<string>();
  renewals = 0;

  async count(): Promise<number> {
    return this.rows.size;
  }
  protected async take(lease: HeldLease): Promise<boolean> {
    if (this.rows.size >= this.limit) return false;
    this.rows.add(lease.id);
    return true;
  }
  protected async renew(leases: HeldLease[]): Promise<void> {
    this.renewals += 1;
    await sleep(60);
    for (const lease of leases) this.rows.add(lease.id);
  }
  protected async remove(leases: HeldLease[]): Promise<void> {
    for (const lease of leases) this.rows.delete(lease.id);
  }
  protected async disconnect(): Promise<void> {}
}

describe('LeaseKeeper', () => {
  it('a lease released while its renewal is on its way stays released', async () => {
    const store = new SlowStore(4, new ManualClock(new Date()), { leaseMs: 300, renewEveryMs: 10 });
    const lease = await store.acquire('user');
    const other = await store.acquire('user');
    // Released once a renewal is under way (it lands 60 ms later).
    while (store.renewals === 0) await sleep(2);
    await lease?.release();
    expect(await store.count()).toBe(1);
    await other?.release();
    await store.releaseAll();
    await sleep(100);
    expect(await store.count()).toBe(0);
    await store.close();
  });

  it('releaseAll during a renewal leaves nothing held', async () => {
    const store = new SlowStore(4, new ManualClock(new Date()), { leaseMs: 300, renewEveryMs: 10 });
    await Promise.all([store.acquire('user'), store.acquire('user'), store.acquire('user')]);
    while (store.renewals === 0) await sleep(2);
    await store.releaseAll();
    await sleep(100);
    expect(await store.count()).toBe(0);
    await store.close();
  });
});

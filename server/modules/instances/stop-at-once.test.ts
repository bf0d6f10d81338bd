import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instances, ledgerAccounts } from '../../db/schema';
import type { TestApp } from '../../test/app';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { bookedSql } from './plans/booked-sql';
import { instancesRepo } from './repo';
import type { InstanceRow } from './repo-rows';

// A renter's stop of a rental in one statement, without a transaction (commands/stop.ts,
// plans/booked-settlement.ts settleBookedAtOnce): the same money as the locked path, both
// balances moved, and the locked path whenever the row changed after it was read.

let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, world) => {
  t = app;
  w = world;
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A rental of `owner`'s listing at $3.60/h for 10 h, ready (its hours begun). */
async function readyRental(owner: { providerId: number }) {
  const renter = await t.signIn({ credits: '100.00' });
  const listing = await w.listing({ hourlyRate: '3.60', providerId: owner.providerId });
  const rental = (await w.rentAs(renter.cookie, listing, 10)).json() as { id: number };
  t.clock.advance(20_000);
  await t.app.deps.worker.runOnce(t.clock.now());
  return { renter, rental };
}

const stop = (cookie: string, id: number) =>
  t.request({ method: 'PATCH', url: `/api/rentals/${id}/stop`, cookie });

async function earnings(providerId: number): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balanceMicros })
    .from(ledgerAccounts)
    .where(
      and(eq(ledgerAccounts.kind, 'provider_earnings'), eq(ledgerAccounts.providerId, providerId)),
    );
  return row?.balance ?? 0n;
}

/**
 * A ready rental of a provider whose earnings account this process already knows (a first
 * rental of it stopped), an hour of it used: what the one-statement stop needs.
 */
async function rentalOfKnownProvider() {
  const owner = await w.provider();
  await readyRental(owner).then(({ renter, rental }) => stop(renter.cookie, rental.id));
  const { renter, rental } = await readyRental(owner);
  t.clock.advance(60 * 60_000);
  return { owner, renter, rental };
}

/** The stop's unlocked read answers `change(row)` (after `change` did what it does). */
function readAs(change: (row: InstanceRow) => Promise<InstanceRow>) {
  const findView = instancesRepo.findView.bind(instancesRepo);
  vi.spyOn(instancesRepo, 'findView').mockImplementation(async (conn, id) => {
    const row = await findView(conn, id);
    return row && change(row);
  });
}

/** Whether each settlement statement ran without the row's lock (a generation given). */
function settlements() {
  const spy = vi.spyOn(bookedSql, 'settleBooked');
  spy.mockClear();
  return () => spy.mock.calls.map(([, settle]) => (settle.asRead === null ? 'locked' : 'at once'));
}

/**
 * The stop tries the one statement, finds the row changed, and settles once on the locked path:
 * the rental's 10 h at $3.60 held ($36 and the $2.50 storage add-on), `refund` back.
 */
async function stopsOnTheLockedPath(
  cookie: string,
  id: number,
  money: { usedCost: string; refund: string },
) {
  const made = settlements();
  const res = await stop(cookie, id);
  expect(res.statusCode).toBe(200);
  expect(made()).toEqual(['at once', 'locked']);
  expect(res.json()).toMatchObject({ status: 'completed', ...money });
  expect(await w.balance(cookie)).toBe((100 - 36 - 2.5 + Number(money.refund)).toFixed(2));
}

describe("a rental's stop in one statement", () => {
  it('moves the refund and the provider’s share as the locked path does, once its accounts are known', async () => {
    const owner = await w.provider();
    // The first settlement of this provider in this process learns its earnings account
    // (the locked path); the second knows every account and is one statement.
    for (const expected of [['locked'], ['at once']]) {
      const { renter, rental } = await readyRental(owner);
      const before = await earnings(owner.providerId);
      t.clock.advance(30 * 60_000 + 1_000);
      const made = settlements();
      const res = await stop(renter.cookie, rental.id);
      expect(res.statusCode).toBe(200);
      expect(made()).toEqual(expected);
      // 1801 s at $3.60/h = $1.81 used: $1.629 to the provider (less 10%), $34.19 back.
      expect(res.json()).toMatchObject({ status: 'completed', usedCost: '1.81', refund: '34.19' });
      expect(await w.balance(renter.cookie)).toBe((100 - 36 - 2.5 + 34.19).toFixed(2));
      expect((await earnings(owner.providerId)) - before).toBe(1_629_000n);
      expect(await w.invariants()).toEqual([]);
    }
  });

  it('takes the locked path when the row changed after it was read, and settles once', async () => {
    const { renter, rental } = await rentalOfKnownProvider();
    // The read answers the row one generation back, as if a host's report had moved it since.
    readAs(async (row) => ({
      ...row,
      instance: { ...row.instance, generation: row.instance.generation - 1 },
    }));
    // 3600 s at $3.60/h: $3.60 used, $32.40 back, settled once.
    await stopsOnTheLockedPath(renter.cookie, rental.id, { usedCost: '3.60', refund: '32.40' });
  });

  it('takes the locked path when its host went dark after the read, and refunds the dark time', async () => {
    const { renter, rental } = await rentalOfKnownProvider();
    // The read saw the host online; before the settlement, its outage was recorded (the
    // offline sweep writes unreachable_since without a new generation).
    readAs(async (row) => {
      await t.database.db
        .update(instances)
        .set({ unreachableSince: new Date(t.clock.now().getTime() - 30 * 60_000) })
        .where(eq(instances.id, row.instance.id));
      return row;
    });
    // 3600 s, 1800 of them dark: $1.80 used, $34.20 back.
    await stopsOnTheLockedPath(renter.cookie, rental.id, { usedCost: '1.80', refund: '34.20' });
  });

  it('settles once under ten stops at once', async () => {
    const { owner, renter, rental } = await rentalOfKnownProvider();
    const before = await earnings(owner.providerId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => stop(renter.cookie, rental.id)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    for (const a of answers) expect(a.json()).toMatchObject({ refund: '32.40' });
    expect(await w.balance(renter.cookie)).toBe((100 - 36 - 2.5 + 32.4).toFixed(2));
    expect((await earnings(owner.providerId)) - before).toBe(3_240_000n);
    const [row] = await t.database.db.select().from(instances).where(eq(instances.id, rental.id));
    expect(row?.endReason).toBe('user');
  });

  it('eight rentals of one renter from one provider stopped at once: both balances, no deadlock', async () => {
    const owner = await w.provider();
    await readyRental(owner).then(({ renter, rental }) => stop(renter.cookie, rental.id));
    const renter = await t.signIn({ credits: '500.00' });
    const listing = await w.listing({
      hourlyRate: '3.60',
      providerId: owner.providerId,
      totalCount: 8,
    });
    const rentals: { id: number }[] = [];
    for (let i = 0; i < 8; i += 1)
      rentals.push((await w.rentAs(renter.cookie, listing, 10)).json());
    t.clock.advance(20_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    t.clock.advance(60 * 60_000);
    const before = await earnings(owner.providerId);
    const made = settlements();
    // Each settlement credits the same wallet and the same earnings account: the two rows
    // are locked in the same order by every statement, or PostgreSQL would find a deadlock.
    const answers = await Promise.all(rentals.map((r) => stop(renter.cookie, r.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(made().filter((how) => how === 'at once')).toHaveLength(8);
    expect(await w.balance(renter.cookie)).toBe((500 - 8 * (36 + 2.5) + 8 * 32.4).toFixed(2));
    expect((await earnings(owner.providerId)) - before).toBe(8n * 3_240_000n);
  });
});

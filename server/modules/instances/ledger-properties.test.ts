import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { microsToDollars } from '../../../shared/rules/money';
import { testDatabaseUrl } from '../../env';
import { AppError } from '../../lib/errors';
import { createHost, createListing, createProvider, createUser } from '../../seed/factories';
import { createTestApp, type TestApp } from '../../test/app';
import { checkInvariants } from '../ledger/invariants';
import { ledgerService } from '../ledger/service';

/**
 * Random sequences mixing booked rentals and metered instances — rent, create, start, stop,
 * terminate, time passing (minute charges, expiry, provisioning deadlines, demo hosts
 * becoming ready, low-balance checks), credit grants and wallets drained to almost nothing;
 * after every step every invariant of docs/rules.md (Money; Hosts and instances) must hold. The database is
 * emptied between sequences, so each starts from the same small world and stays fast.
 * 200 sequences on every `npm test`; PROPERTY_RUNS asks for more (CI's run on PostgreSQL, in
 * `.ci/run`, asks for 1,000). fast-check's seed is printed on a failure, to replay it.
 */
const NUM_RUNS = Math.max(1, Number(process.env.PROPERTY_RUNS ?? 200) || 200);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { DEMO_PROVISIONING_DELAY_MS: '20000', PROVISIONING_TIMEOUT_MS: '600000' },
  });
});
afterAll(async () => {
  await t.close();
});

type Step =
  | { kind: 'rent'; user: number; listing: number; hours: number }
  | { kind: 'create'; user: number; listing: number; storageGb: number }
  | { kind: 'stop' | 'start' | 'terminate'; user: number; pick: number }
  | { kind: 'time'; ms: number }
  | { kind: 'grant'; user: number; cents: number }
  | { kind: 'drain'; user: number; leaveCents: number };

const user = fc.nat(2);
const pick = fc.nat(5);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('rent' as const),
    user,
    listing: fc.nat(2),
    hours: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('create' as const),
    user,
    listing: fc.nat(2),
    storageGb: fc.constantFrom(20, 50, 1000),
  }),
  fc.record({
    kind: fc.constantFrom('stop' as const, 'start' as const, 'terminate' as const),
    user,
    pick,
  }),
  fc.record({
    kind: fc.constant('time' as const),
    ms: fc.constantFrom(20_000, 60_000, 180_000, 600_000, 3_600_000),
  }),
  fc.record({ kind: fc.constant('grant' as const), user, cents: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('drain' as const), user, leaveCents: fc.nat(3) }),
);

/**
 * Empties what one sequence wrote; system accounts (made by the migration) stay. Rows are
 * deleted with triggers off for the transaction (session_replication_role = replica: the
 * ledger's append-only guard and the foreign keys' checks), not truncated: on PostgreSQL a
 * TRUNCATE gives every table new files, and it was half of each sequence's time.
 */
async function reset() {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const table of [
      'ledger_entries',
      'ledger_transactions',
      'instance_outages',
      'instances',
      'balance_alerts',
      'gpu_listings',
      'host_outages',
      'hosts',
      'providers',
    ]) {
      await tx.execute(sql.raw(`delete from ${table}`));
    }
    await tx.execute(
      sql`delete from ledger_accounts where kind in ('wallet', 'provider_earnings')`,
    );
    // The event log of what was deleted goes with it (checkInvariants compares the two).
    await tx.execute(sql`delete from events`);
    await tx.execute(sql`delete from event_subjects`);
  });
}

const EXPECTED = new Set([
  'INSUFFICIENT_CREDITS',
  'LISTING_UNAVAILABLE',
  'CAPACITY_UNAVAILABLE',
  // The third listing's host stops heartbeating once time passes.
  'HOST_OFFLINE',
  'INVALID_STATE_TRANSITION',
  'NOT_FOUND',
]);

async function allowingRefusals(work: () => Promise<unknown>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError && EXPECTED.has(error.code)) return;
    throw error;
  }
}

describe('ledger and instance invariants under random operations', () => {
  it(`hold after every step of ${NUM_RUNS} random sequences`, async () => {
    const started = performance.now();
    const svc = t.app.deps.instances;
    const db = t.database.db;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        await reset();
        const users = await db.transaction(async (tx) =>
          Promise.all(['3.00', '20.00', '150.00'].map((credits) => createUser(tx, { credits }))),
        );
        const provider = await createProvider(db, {});
        const listings = await Promise.all([
          createListing(db, { providerId: provider.id, hourlyRate: '0.75', totalCount: 1 }),
          createListing(db, { providerId: provider.id, hourlyRate: '2.40', totalCount: 2 }),
          // On an enrolled host that never reports (and goes dark as time passes).
          createListing(db, {
            providerId: provider.id,
            hourlyRate: '1.10',
            totalCount: 2,
            hostId: (
              await createHost(db, { providerId: provider.id, lastHeartbeatAt: t.clock.now() })
            ).id,
          }),
        ]);
        const mine: number[][] = [[], [], []];
        for (const s of steps) {
          const now = t.clock.now();
          let billedUpTo: Date | undefined;
          if (s.kind === 'time') {
            t.clock.advance(s.ms);
            await t.app.deps.worker.runOnce(t.clock.now());
            billedUpTo = t.clock.now();
          } else {
            const u = users[s.user];
            if (!u) throw new Error('no user');
            const ids = mine[s.user] ?? [];
            const target = ids[('pick' in s ? s.pick : 0) % Math.max(1, ids.length)];
            if (s.kind === 'rent') {
              const listing = listings[s.listing];
              if (!listing) throw new Error('no listing');
              await allowingRefusals(async () => {
                const rate = microsToDollars(listing.hourlyRateMicros);
                const row = await svc.rent(
                  u.id,
                  {
                    gpuListingId: listing.id,
                    providerId: listing.providerId,
                    durationHours: s.hours,
                    hourlyRate: rate,
                    totalCost: microsToDollars(listing.hourlyRateMicros * BigInt(s.hours)),
                  },
                  now,
                );
                ids.push(row.instance.id);
              });
            } else if (s.kind === 'create') {
              const listing = listings[s.listing];
              if (!listing) throw new Error('no listing');
              await allowingRefusals(async () => {
                const row = await svc.createMetered(
                  u.id,
                  { gpuListingId: listing.id, source: 'vm', storageGb: s.storageGb },
                  now,
                );
                ids.push(row.instance.id);
              });
            } else if (s.kind === 'stop' || s.kind === 'start' || s.kind === 'terminate') {
              if (target !== undefined) {
                await allowingRefusals(() => svc[s.kind](u.id, target, now));
              }
            } else if (s.kind === 'grant') {
              await db.transaction((tx) =>
                ledgerService.grant(tx, {
                  userId: u.id,
                  amountMicros: BigInt(s.cents) * 10_000n,
                  from: 'promotions',
                  memo: 'test grant',
                }),
              );
            } else if (s.kind === 'drain') {
              await db.transaction(async (tx) => {
                const balance = await ledgerService.walletBalance(tx, u.id);
                const spend = balance - BigInt(s.leaveCents) * 10_000n;
                if (spend <= 0n) return;
                await ledgerService.post(tx, {
                  kind: 'demo_credits_expired', // a debit no cap counts
                  memo: 'test spend',
                  lines: [
                    {
                      accountId: await ledgerService.walletAccount(tx, u.id),
                      amountMicros: -spend,
                    },
                    {
                      accountId: await ledgerService.systemAccount(tx, 'platform_revenue'),
                      amountMicros: spend,
                      system: true,
                    },
                  ],
                });
              });
            }
          }
          expect(
            await checkInvariants(db, billedUpTo ? { billedUpTo } : {}),
            JSON.stringify(s),
          ).toEqual([]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
    console.info(
      `invariant property: ${NUM_RUNS} sequences on ${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'} in ${Math.round(performance.now() - started)} ms`,
    );
  }, 900_000);
});

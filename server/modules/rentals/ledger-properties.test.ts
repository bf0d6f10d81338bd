import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { world } from '../../test/world';
import { ledgerService } from '../ledger/service';

/**
 * Random sequences of rent, stop, time passing (expiry, provisioning timeout, demo hosts
 * becoming ready) and credit grants; after every step every invariant of DESIGN.md
 * section 3 must hold.
 */
let t: TestApp;
let w: ReturnType<typeof world>;
beforeAll(async () => {
  t = await createTestApp({
    env: { DEMO_PROVISIONING_DELAY_MS: '20000', PROVISIONING_TIMEOUT_MS: '600000' },
  });
  w = world(t);
});
afterAll(async () => {
  await t.close();
});

type Step =
  | { kind: 'rent'; user: number; listing: number; hours: number }
  | { kind: 'stop'; user: number; pick: number }
  | { kind: 'time'; ms: number }
  | { kind: 'grant'; user: number; cents: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('rent' as const),
    user: fc.nat(2),
    listing: fc.nat(2),
    hours: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('stop' as const), user: fc.nat(2), pick: fc.nat(5) }),
  fc.record({
    kind: fc.constant('time' as const),
    ms: fc.constantFrom(5_000, 30_000, 600_000, 3_600_000, 7_200_000),
  }),
  fc.record({
    kind: fc.constant('grant' as const),
    user: fc.nat(2),
    cents: fc.integer({ min: 1, max: 5_000 }),
  }),
);

describe('ledger invariants under random operations', () => {
  it('hold after every step of 200 random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const users = await Promise.all(
          [0, 1, 2].map((i) => t.signIn({ credits: ['3.00', '20.00', '150.00'][i] })),
        );
        const listings = [
          await w.listing({ hourlyRate: '0.75', totalCount: 1 }),
          await w.listing({ hourlyRate: '2.40', totalCount: 2 }),
          await w.listing({ hourlyRate: '1.10', totalCount: 2, isDemoHost: false }),
        ];
        const rentalIds: number[][] = [[], [], []];
        for (const s of steps) {
          const user = users[s.kind === 'time' ? 0 : s.user];
          if (!user) throw new Error('no user');
          if (s.kind === 'rent') {
            const listing = listings[s.listing];
            if (!listing) throw new Error('no listing');
            const res = await t.request({
              method: 'POST',
              url: '/api/rentals',
              payload: w.rentBody(listing, s.hours),
              cookie: user.cookie,
            });
            expect([201, 402, 409]).toContain(res.statusCode);
            if (res.statusCode === 201) rentalIds[s.user]?.push(res.json().id);
          } else if (s.kind === 'stop') {
            const mine = rentalIds[s.user] ?? [];
            const id = mine[s.pick % Math.max(1, mine.length)];
            if (id !== undefined) {
              const res = await t.request({
                method: 'PATCH',
                url: `/api/rentals/${id}/stop`,
                cookie: user.cookie,
              });
              expect(res.statusCode).toBe(200);
            }
          } else if (s.kind === 'time') {
            t.clock.advance(s.ms);
            await t.app.deps.rentals.processDue(t.clock.now());
          } else {
            await t.database.db.transaction((tx) =>
              ledgerService.grant(tx, {
                userId: user.userId,
                amountMicros: BigInt(s.cents) * 10_000n,
                from: 'promotions',
                memo: 'test grant',
              }),
            );
          }
          expect(await w.invariants()).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  }, 240_000);
});

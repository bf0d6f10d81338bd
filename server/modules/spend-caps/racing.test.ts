import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/contracts/settings';
import { dollarsToMicros } from '../../../shared/rules/money';
import type { TestApp } from '../../test/app';
import { createApiKey, type V1Args, v1Request } from '../../test/public-api';
import { NOON_TODAY, SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { checkInvariants } from '../ledger/invariants';
import { CAPPED_KINDS, LEDGER_KINDS, type LedgerKind } from '../ledger/kinds';

/**
 * The outside probe's racing trials (issue 39, part 3), re-run: many launches at once under a
 * key's daily cap and an account's, bookings (hours and the $2.50 storage add-on) and metered
 * launches (the storage minute at create, the compute minute at ready, every next minute)
 * mixed. The wallet never loses more than a cap allows, and each cap's counter is exactly the
 * sum of the wallet debits of the kinds the caps count. On PostgreSQL in CI (money tests).
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV, clockStart: NOON_TODAY }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const v1 = (...args: V1Args) => v1Request(t, ...args);
const now = () => t.clock.now();

/** What the wallet paid out, by ledger kind, since the start of the test (micro-dollars). */
async function debitsByKind(userId: string): Promise<Map<string, bigint>> {
  const result = await t.database.db.execute(sql`
    select x.kind, coalesce(sum(-e.amount_micros), 0)::text as micros
    from ledger_entries e
    join ledger_transactions x on x.id = e.transaction_id
    join ledger_accounts a on a.id = e.account_id
    where a.kind = 'wallet' and a.user_id = ${userId} and e.amount_micros < 0
    group by x.kind`);
  const rows = (result as unknown as { rows: { kind: string; micros: string }[] }).rows;
  return new Map(rows.map((r) => [r.kind, BigInt(r.micros)]));
}

async function counter(userId: string, scope: string): Promise<bigint> {
  const result = await t.database.db.execute(sql`
    select coalesce(sum(spent_micros), 0)::text as micros from spend_periods
    where user_id = ${userId} and scope = ${scope} and period = 'day'`);
  return BigInt((result as unknown as { rows: { micros: string }[] }).rows[0]?.micros ?? '0');
}

/** Every kind that took the wallet's money has a cap decision; the counted ones add up. */
async function capsSawEveryCharge(userId: string): Promise<bigint> {
  const debits = await debitsByKind(userId);
  let counted = 0n;
  for (const [kind, micros] of debits) {
    expect(Object.keys(LEDGER_KINDS), `ledger kind ${kind}`).toContain(kind);
    const decision: { walletDebit: boolean } = LEDGER_KINDS[kind as LedgerKind];
    expect(decision.walletDebit, `${kind} took a wallet's money`).toBe(true);
    if (CAPPED_KINDS.includes(kind as LedgerKind)) counted += micros;
  }
  return counted;
}

async function runMinutes(minutes: number) {
  for (let i = 0; i < minutes; i += 1) {
    await t.app.deps.worker.runOnce(now());
    t.clock.advance(60_000);
  }
  await t.app.deps.worker.runOnce(now());
}

describe('racing launches under spend caps', () => {
  it("an API key's daily cap: 21 racing bookings and metered launches take at most the cap", async () => {
    const user = await t.signIn({ credits: '100.00' });
    const { key, keyId } = await createApiKey(t, user.cookie, ['read', 'write', 'admin']);
    expect(
      (
        await v1(key, 'PUT', `/api-keys/${keyId}/caps`, {
          dailySpendCap: '7.62',
          monthlySpendCap: null,
        })
      ).statusCode,
    ).toBe(200);
    // $0.55/h: a one-hour booking takes $0.55 and the $2.50 storage add-on, $3.05 in all.
    const listing = await w.listing({ hourlyRate: '0.55', totalCount: 40 });
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        v1(
          key,
          'POST',
          '/instances',
          i % 3 === 2
            ? { gpuListingId: listing.id }
            : { gpuListingId: listing.id, durationHours: 1 },
        ),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(
      codes.every((c) => c === 201 || c === 402),
      codes.join(),
    ).toBe(true);
    expect(codes.filter((c) => c === 201).length).toBeGreaterThan(0);
    t.clock.advance(20_000);
    await runMinutes(30); // ready, then half an hour of metered minutes
    const cap = dollarsToMicros('7.62');
    const keyCounted = await counter(user.userId, keyId);
    expect(keyCounted).toBeLessThanOrEqual(cap);
    const paid =
      dollarsToMicros('100.00') - BigInt(Math.round(Number(await w.balance(user.cookie)) * 1e6));
    // Everything the wallet paid went through the key (the web launched nothing).
    expect(await capsSawEveryCharge(user.userId)).toBe(keyCounted);
    expect(paid).toBeLessThanOrEqual(cap + 10_000n); // the balance is read to the cent
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });

  it("an account's daily cap: bookings from the web, metered launches from a key and the web, racing", async () => {
    const user = await t.signIn({ credits: '100.00' });
    const settings = await t.request({
      method: 'PATCH',
      url: `/api/users/${user.userId}/settings`,
      cookie: user.cookie,
      payload: {
        ...DEFAULT_SETTINGS,
        billing: { ...DEFAULT_SETTINGS.billing, dailySpendCap: '18.79' },
      },
    });
    expect(settings.statusCode).toBe(200);
    const { key } = await createApiKey(t, user.cookie, ['read', 'write']);
    const listing = await w.listing({ hourlyRate: '0.55', totalCount: 60 });
    const launches = Array.from({ length: 24 }, (_, i) => {
      if (i % 3 === 0) return w.rentAs(user.cookie, listing, 1);
      if (i % 3 === 1) return v1(key, 'POST', '/instances', { gpuListingId: listing.id });
      return t.app.deps.instances
        .createMetered(
          user.userId,
          { gpuListingId: listing.id, source: 'vm', template: 'ubuntu-22.04', storageGb: 60 },
          now(),
        )
        .then(
          () => ({ statusCode: 201 }),
          (error: { status?: number }) => ({ statusCode: error.status ?? 500 }),
        );
    });
    const codes = (await Promise.all(launches)).map((a) => a.statusCode);
    expect(
      codes.every((c) => c === 201 || c === 402),
      codes.join(),
    ).toBe(true);
    t.clock.advance(20_000);
    await runMinutes(90);
    const cap = dollarsToMicros('18.79');
    const accountCounted = await counter(user.userId, 'account');
    expect(accountCounted).toBeLessThanOrEqual(cap);
    expect(await capsSawEveryCharge(user.userId)).toBe(accountCounted);
    const paid =
      dollarsToMicros('100.00') - BigInt(Math.round(Number(await w.balance(user.cookie)) * 1e6));
    expect(paid).toBeLessThanOrEqual(cap + 10_000n);
    expect(await checkInvariants(t.database.db, { billedUpTo: now() })).toEqual([]);
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../env';
import type { TestApp } from '../../test/app';
import { SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../test/suite';
import { historyDollars } from './history';

/**
 * The credit history (issue 26 part 2): a metered instance's minutes are one line per day,
 * expandable to the minutes; pages through everything; filters; CSV; and its lines sum, to
 * the micro-dollar, to the wallet's ledger entries underneath.
 */
let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

interface Line {
  id: string;
  type: string;
  description: string;
  amount: string;
  amountMicros: string;
  usage: null | {
    instanceId: number;
    gpu: string;
    day: string;
    computeMinutes: number;
    storageMinutes: number;
    computeAmount: string;
    storageAmount: string;
    postings: number;
  };
}

const tick = () => t.app.deps.worker.runOnce(t.clock.now());

async function page(cookie: string, query = '') {
  const res = await t.request({ method: 'GET', url: `/api/payments/history${query}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as { entries: Line[]; nextCursor: string | null };
}

/** Every line of the history, page by page. */
async function allLines(cookie: string, type = 'all', limit = 2): Promise<Line[]> {
  const lines: Line[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?type=${type}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const next = await page(cookie, query);
    lines.push(...next.entries);
    cursor = next.nextCursor;
  } while (cursor !== null);
  return lines;
}

/** The wallet's ledger entries, summed straight from the ledger. */
async function ledgerSum(userId: string): Promise<{ total: bigint; count: number }> {
  const result = await t.database.db.execute(sql`
    select coalesce(sum(e.amount_micros), 0)::text as total, count(*)::int as count
    from ledger_entries e join ledger_accounts a on a.id = e.account_id
    where a.kind = 'wallet' and a.user_id = ${userId}`);
  const [row] = (result as unknown as { rows: { total: string; count: number }[] }).rows;
  return { total: BigInt(row?.total ?? '0'), count: Number(row?.count ?? 0) };
}

/** A VM at $1.20/h (2¢ a minute) and 60 GB (0.1¢ a minute) running for an hour. */
async function vmForAnHour(credits = '20.00') {
  const user = await t.signIn({ credits });
  const listing = await w.listing({ hourlyRate: '1.20', model: 'RTX 4090' });
  const created = await t.app.deps.instances.createMetered(
    user.userId,
    { gpuListingId: listing.id, source: 'vm', template: 'ubuntu-22.04', storageGb: 60 },
    t.clock.now(),
  );
  for (let minute = 0; minute < 60; minute += 1) {
    t.clock.advance(60_000);
    await tick();
  }
  return { user, id: created.instance.id };
}

describe(`the credit history (${testDatabaseUrl() ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('shows a VM running for an hour as one usage line, expandable to its minutes', async () => {
    const { user, id } = await vmForAnHour();
    const lines = await allLines(user.cookie);
    const usage = lines.filter((l) => l.usage !== null);
    // Before issue 26 this was 60 lines (one per minute) and more than a page of 20.
    expect(usage).toHaveLength(1);
    const [line] = usage;
    expect(line?.usage).toMatchObject({
      instanceId: id,
      gpu: 'RTX 4090',
      // Storage from create, compute from ready (the first pass, a minute in): 60 of each
      // in 61 postings (the create's storage minute, the readiness's compute minute, 59 more).
      computeMinutes: 60,
      storageMinutes: 60,
      computeAmount: '1.20',
      storageAmount: '0.06',
      postings: 61,
    });
    expect(line).toMatchObject({ type: 'charge', amount: '-1.26', amountMicros: '-1260000' });
    expect(line?.description).toBe(
      `Instance ${id} (RTX 4090): 60 compute minutes, 60 storage minutes`,
    );

    const res = await t.request({
      method: 'GET',
      url: `/api/payments/history/minutes?instanceId=${id}&day=${line?.usage?.day}`,
      cookie: user.cookie,
    });
    expect(res.statusCode).toBe(200);
    const minutes = res.json().minutes as { amountMicros: string; description: string }[];
    expect(minutes).toHaveLength(61);
    expect(minutes.reduce((s, m) => s + BigInt(m.amountMicros), 0n).toString()).toBe(
      line?.amountMicros,
    );
    expect(minutes[0]?.description).toMatch(new RegExp(`^Instance ${id}: minute \\d+ \\(storage`));

    // Someone else's instance expands to nothing.
    const stranger = await t.signIn();
    const theirs = await t.request({
      method: 'GET',
      url: `/api/payments/history/minutes?instanceId=${id}&day=${line?.usage?.day}`,
      cookie: stranger.cookie,
    });
    expect(theirs.json().minutes).toEqual([]);
  }, 120_000);

  it('pages through everything, filters, and sums to the ledger to the micro-dollar', async () => {
    const { user } = await vmForAnHour('30.00');
    // A second VM, and a booked rental cancelled before it was ready (a refund).
    const listing = await w.listing({ hourlyRate: '1.00' });
    await t.app.deps.instances.createMetered(
      user.userId,
      { gpuListingId: listing.id, source: 'vm', template: 'ubuntu-22.04', storageGb: 50 },
      t.clock.now(),
    );
    for (let minute = 0; minute < 3; minute += 1) {
      t.clock.advance(60_000);
      await tick();
    }
    const rental = await w.rentAs(user.cookie, listing, 2);
    expect(rental.statusCode).toBe(201);
    await t.request({
      method: 'PATCH',
      url: `/api/rentals/${rental.json().id}/stop`,
      cookie: user.cookie,
    });

    const lines = await allLines(user.cookie, 'all', 2);
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    expect((await allLines(user.cookie, 'all', 200)).map((l) => l.id)).toEqual(
      lines.map((l) => l.id),
    );
    const ledger = await ledgerSum(user.userId);
    expect(lines.reduce((s, l) => s + BigInt(l.amountMicros), 0n)).toBe(ledger.total);
    expect(ledger.count).toBeGreaterThan(60);
    expect(lines.length).toBeLessThan(8);
    expect(lines.filter((l) => l.usage !== null)).toHaveLength(2);

    const purchases = await allLines(user.cookie, 'purchases');
    const usage = await allLines(user.cookie, 'usage');
    const refunds = await allLines(user.cookie, 'refunds');
    expect(purchases.map((l) => l.type)).toEqual(['credit']);
    expect(usage.every((l) => l.type === 'charge' && l.amount.startsWith('-'))).toBe(true);
    expect(refunds.map((l) => l.type)).toEqual(['refund']);
    expect(refunds[0]?.description).toMatch(/^Full refund/);
    expect(purchases.length + usage.length + refunds.length).toBe(lines.length);
    // No line reads as money that did not move.
    expect(lines.some((l) => /^-?0\.00$/.test(l.amount))).toBe(false);

    const csv = await t.request({
      method: 'GET',
      url: '/api/payments/history/export?type=all',
      cookie: user.cookie,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="rentgpu-credit-history-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe(
      'date,first_movement,type,description,instance_id,gpu,compute_minutes,storage_minutes,amount,amount_exact,currency',
    );
    expect(rows).toHaveLength(lines.length + 1);
    const csvTotal = rows
      .slice(1)
      .map((r) => r.split(',').at(-2) ?? '0')
      .reduce((s, a) => s + w.micros(a.replace(/^-/, '')) * (a.startsWith('-') ? -1n : 1n), 0n);
    expect(csvTotal).toBe(ledger.total);
    // `amount` is to the cent, as people read it, and within half a cent of the exact one.
    const signed = (a: string) => w.micros(a.replace(/^-/, '')) * (a.startsWith('-') ? -1n : 1n);
    for (const row of rows.slice(1)) {
      const [rounded = '', exact = ''] = row.split(',').slice(-3, -1);
      expect(rounded).toMatch(/^-?\d+\.\d{2}$/);
      const gap = signed(rounded) - signed(exact);
      expect(gap <= 5_000n && gap >= -5_000n).toBe(true);
    }
  }, 120_000);

  it('refuses a cursor or filter it never gave with a 400', async () => {
    const { cookie } = await t.signIn();
    for (const query of ['?cursor=abc', '?type=gifts', '?limit=0']) {
      const res = await t.request({ method: 'GET', url: `/api/payments/history${query}`, cookie });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
    }
    const minutes = await t.request({
      method: 'GET',
      url: '/api/payments/history/minutes?instanceId=1&day=today',
      cookie,
    });
    expect(minutes.statusCode).toBe(400);
  });

  it('writes money under half a cent with the digits it takes, never as 0.00', () => {
    expect(historyDollars(-1_000n)).toBe('-0.001');
    expect(historyDollars(-4_999n)).toBe('-0.004999');
    expect(historyDollars(-5_000n)).toBe('-0.01');
    expect(historyDollars(1_281_000n)).toBe('1.28');
  });
});

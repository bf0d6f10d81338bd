import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ReportedState } from '../../../../shared/rules/instance-lifecycle';
import {
  computeMinuteMicros,
  MINUTE_MS,
  storageMinuteMicros,
} from '../../../../shared/rules/metering';
import { STORAGE_ADDON_MICROS, usedCostMicros } from '../../../../shared/rules/pricing';
import {
  gpuListings,
  instances,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
} from '../../../db/schema';
import type { AppError } from '../../../lib/errors';
import type { TestApp } from '../../../test/app';
import { NOON_TODAY, SLOW_DEMO_HOST_ENV, setupTestApp, type World } from '../../../test/suite';
import { createAccountBook } from '../../ledger/accounts';
import { checkInvariants } from '../../ledger/invariants';
import { ledgerService } from '../../ledger/service';
import { instanceMoney } from '../../public-api/billing';
import { createInstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import type { LaunchRequest } from '../service';
import { createPlans, definePlan, forgetPlan, type Plans, planNamed, termsNamed } from './index';
import { createPerMinutePlan } from './metered';
import { meteredTerms } from './metered-terms';
import type { PlanName, PlanTerms } from './plan';

/**
 * The plan contract (issue 41, docs/decisions/016): what every billing plan must do, whatever
 * its money. Each plan is driven through the core's own doors — the generic launch, its
 * host's report, the worker's jobs, stop, start, terminate, preempt — and after each step the
 * ledger's invariants hold over the whole database and the plan's terms (its money in words:
 * cost so far, billed seconds, charges, invoice lines) agree with what its renter's wallet
 * paid. What a step expects is read from the plan's capabilities, never from its name.
 *
 * Three plans: the two this server ships, and "spot", defined here only — a per-minute plan at
 * 40% of its listing's rate that may be preempted — to prove that a plan is added in plans/
 * alone. It is defined before the app (and its instance core) is made, and forgotten after the
 * file (the api project runs its files in one process, vitest's `isolate: false`). Shown through
 * the public API it would need its name in shared/contracts/billing-plans.ts: the API's list of
 * plans is a public contract, changed on purpose.
 */
const spotTerms: PlanTerms = {
  ...meteredTerms,
  name: 'spot',
  capabilities: { ...meteredTerms.capabilities, preemptible: true },
};
definePlan(spotTerms, (ctx) =>
  createPerMinutePlan(ctx, { terms: spotTerms, rateOf: (r) => (r * 4n) / 10n }),
);
afterAll(() => forgetPlan(spotTerms.name));

let t: TestApp;
let w: World;
setupTestApp({ env: SLOW_DEMO_HOST_ENV, clockStart: NOON_TODAY }, (app, appWorld) => {
  t = app;
  w = appWorld;
});

const svc = () => t.app.deps.instances;
const now = () => t.clock.now();
const tick = () => t.app.deps.worker.runOnce(now());
const db = () => t.database.db;

/** The listing's rate ($1.20/h: 2¢ a minute), the booked hours, a per-minute disk, a wallet. */
const LISTING_RATE = '1.20';
const HOURS = 1;
const DISK_GB = 60;
const CREDITS = '50.00';

/** The plans as the core makes them (their rate and terms are pure: read, never run here). */
let madePlans: Plans | undefined;
function planOfName(name: PlanName) {
  madePlans ??= createPlans(
    createInstancesContext(db(), createAccountBook(db()), {
      platformFeeBps: 0,
      provisioningTimeoutMs: 0,
    }),
  );
  return planNamed(madePlans, name);
}

/** One instance's life in a test: its renter, listing and id, and the plan it is on. */
interface Life {
  plan: PlanName;
  userId: string;
  listingId: number;
  totalCount: number;
  listingRateMicros: bigint;
  id: number;
}

const lives: Life[] = [];

async function row(id: number): Promise<Instance> {
  const [found] = await db().select().from(instances).where(eq(instances.id, id));
  if (!found) throw new Error(`instance ${id} gone`);
  return found;
}

async function available(listingId: number): Promise<number | undefined> {
  const [l] = await db().select().from(gpuListings).where(eq(gpuListings.id, listingId));
  return l?.availableCount;
}

/** What the renter's wallet has paid so far (each life has a wallet of its own). */
async function paid(life: Life): Promise<bigint> {
  return w.micros(CREDITS) - (await ledgerService.walletBalance(db(), life.userId));
}

/** The instance's money by ledger account kind (its "instance:" and "rental:" postings). */
async function moneyByAccount(id: number): Promise<Record<string, bigint>> {
  const rows = await db()
    .select({
      kind: ledgerAccounts.kind,
      total: sql<string>`sum(${ledgerEntries.amountMicros})::text`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .where(inArray(ledgerTransactions.reference, [`instance:${id}`, `rental:${id}`]))
    .groupBy(ledgerAccounts.kind);
  return Object.fromEntries(rows.map((r) => [r.kind, BigInt(r.total)]));
}

async function transactionsOf(id: number): Promise<number> {
  const rows = await db()
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(inArray(ledgerTransactions.reference, [`instance:${id}`, `rental:${id}`]));
  return rows.length;
}

async function invariantsHold() {
  expect(await checkInvariants(db())).toEqual([]);
}

/** Its host's word (the demo host's, as a real host would send it), a second after. */
async function hostSays(life: Life, state: ReportedState) {
  t.clock.advance(1_000);
  const { generation } = await row(life.id);
  const answer = await t.app.deps.hosts.report({ instanceId: life.id, generation, state });
  expect(answer.accepted).toBe(true);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

/**
 * 1. Open: through the generic launch (the one front door, by the plan's name). One unit is
 * taken, the row is on the plan at `rateOf` the listing's rate with a GPU bound, and the first
 * money moved as the plan says: booked hours into escrow and the storage add-on, or the first
 * storage minute.
 */
async function open(plan: PlanName): Promise<Life> {
  const { capabilities } = termsNamed(plan);
  const { userId } = await t.signIn({ credits: CREDITS });
  const listing = await w.listing({ hourlyRate: LISTING_RATE, totalCount: 2 });
  // What a launch asks of a plan is the plan's own: hours for one paid up front, else a disk.
  const ask = (
    capabilities.escrowsUpFront ? { name: plan, hours: HOURS } : { name: plan, storageGb: DISK_GB }
  ) satisfies LaunchRequest['plan'];
  const launched = await svc().launch(
    {
      userId,
      source: capabilities.listedAs === 'rental' ? 'marketplace' : 'vm',
      listing: { id: listing.id },
      plan: ask,
    },
    now(),
  );
  const life: Life = {
    plan,
    userId,
    listingId: listing.id,
    totalCount: listing.totalCount,
    listingRateMicros: listing.hourlyRateMicros,
    id: launched.instance.id,
  };
  lives.push(life);

  const opened = await row(life.id);
  const rate = planOfName(plan).rateOf(listing.hourlyRateMicros);
  expect(opened).toMatchObject({
    billingPlan: plan,
    status: 'provisioning',
    hourlyRateMicros: rate,
    endTime: null,
  });
  expect(opened.gpuIndexes?.length ?? 0).toBeGreaterThan(0);
  expect(await available(listing.id)).toBe(listing.totalCount - 1);
  const money = await moneyByAccount(life.id);
  if (capabilities.escrowsUpFront) {
    const booked = rate * BigInt(HOURS);
    expect(await paid(life)).toBe(booked + STORAGE_ADDON_MICROS);
    expect(money.escrow).toBe(booked);
    expect(opened.bookedCostMicros).toBe(booked);
  }
  if (capabilities.chargesPerMinute) {
    expect(await paid(life)).toBe(storageMinuteMicros(DISK_GB));
    expect(opened).toMatchObject({ computeMinutes: 0, storageMinutes: 1 });
    expect(opened.paidThrough).toEqual(new Date(now().getTime() + MINUTE_MS));
  }
  await invariantsHold();
  return life;
}

/**
 * 2. Ready: its host reports it running. A plan whose readiness moves no money moves none (a
 * booking's hours begin now); one charged by the minute pays its first compute minute now.
 */
async function ready(life: Life) {
  const { capabilities } = termsNamed(life.plan);
  const before = await paid(life);
  await hostSays(life, 'running');
  const running = await row(life.id);
  expect(running.status).toBe('running');
  expect(running.readyAt).toEqual(now());
  if (capabilities.readyMovesNoMoney) expect(await paid(life)).toBe(before);
  if (capabilities.escrowsUpFront) {
    expect(running.endsAt).toEqual(new Date(now().getTime() + HOURS * 3_600_000));
  }
  if (capabilities.chargesPerMinute) {
    expect(await paid(life)).toBe(before + computeMinuteMicros(running.hourlyRateMicros));
    expect(running).toMatchObject({ computeMinutes: 1, storageMinutes: 1 });
    expect(running.paidThrough).toEqual(new Date(now().getTime() + MINUTE_MS));
  }
  await invariantsHold();
}

/**
 * 3. What comes due, charged by the worker's jobs once time passes: the next minute of one
 * charged by the minute (compute and storage); the end of a booking's hours (settled, its
 * whole booking used, nothing back).
 */
async function chargeDue(life: Life) {
  const { capabilities } = termsNamed(life.plan);
  const before = await row(life.id);
  const paidBefore = await paid(life);
  if (capabilities.chargesPerMinute) {
    t.clock.advance(MINUTE_MS);
    await tick();
    const after = await row(life.id);
    expect(after).toMatchObject({
      status: 'running',
      computeMinutes: before.computeMinutes + 1,
      storageMinutes: before.storageMinutes + 1,
    });
    expect(await paid(life)).toBe(
      paidBefore + computeMinuteMicros(after.hourlyRateMicros) + storageMinuteMicros(DISK_GB),
    );
  }
  if (capabilities.escrowsUpFront) {
    t.clock.advance(HOURS * 3_600_000);
    const done = await tick();
    expect(done['booked-expiry']).toBeGreaterThanOrEqual(1);
    const after = await row(life.id);
    expect(after.endReason).toBe('expiry');
    expect(after.endTime).toEqual(before.endsAt);
    expect(after.usedSeconds).toBe(HOURS * 3600);
    expect(await paid(life)).toBe(paidBefore); // the whole booking was used: nothing back
    expect((await moneyByAccount(life.id)).escrow ?? 0n).toBe(0n);
    expect(await available(life.listingId)).toBe(life.totalCount);
  }
  await invariantsHold();
}

/**
 * 4. Stop: a plan whose stop keeps the disk is stopped (its unit back, nothing more charged
 * for compute) and starts again; any other plan's stop ends it, settled.
 */
async function stop(life: Life) {
  const { capabilities } = termsNamed(life.plan);
  await svc().stop(life.userId, life.id, now());
  if (capabilities.stopKeepsDisk) {
    expect((await row(life.id)).status).toBe('stopping');
    await hostSays(life, 'stopped');
    const stopped = await row(life.id);
    expect(stopped).toMatchObject({ status: 'stopped', endTime: null });
    expect(await available(life.listingId)).toBe(life.totalCount);
    // While stopped, no compute is charged (a per-minute plan's disk goes on being charged).
    t.clock.advance(2 * MINUTE_MS);
    await tick();
    const computeBefore = stopped.computeMinutes;
    expect((await row(life.id)).computeMinutes).toBe(computeBefore);
    await invariantsHold();

    const started = await svc().start(life.userId, life.id, now());
    expect(started.instance.status).toBe('starting');
    expect(await available(life.listingId)).toBe(life.totalCount - 1);
    await hostSays(life, 'running');
    const again = await row(life.id);
    expect(again.status).toBe('running');
    if (capabilities.chargesPerMinute) expect(again.computeMinutes).toBe(computeBefore + 1);
  } else {
    const ended = await row(life.id);
    expect(ended.endTime).toEqual(now());
    expect(ended.endReason).toBe('user');
    expect(['terminating', 'terminated']).toContain(ended.status);
    expect(await available(life.listingId)).toBe(life.totalCount);
    if (capabilities.escrowsUpFront) {
      expect((await moneyByAccount(life.id)).escrow ?? 0n).toBe(0n);
      expect(ended.refundMicros).not.toBeNull();
    }
    if (ended.status === 'terminating') await hostSays(life, 'terminated');
    expect((await row(life.id)).status).toBe('terminated');
  }
  await invariantsHold();
}

/**
 * 5. End (terminate): its unit back, ended with its end reason; what left the wallet went to
 * the provider's earnings and the platform (none stays in escrow), and nothing is charged
 * after the end.
 */
async function end(life: Life) {
  await svc().terminate(life.userId, life.id, now());
  const ending = await row(life.id);
  expect(ending.endTime).toEqual(now());
  expect(ending.endReason).toBe('user');
  expect(await available(life.listingId)).toBe(life.totalCount);
  if (ending.status === 'terminating') await hostSays(life, 'terminated');
  expect((await row(life.id)).status).toBe('terminated');

  const money = await moneyByAccount(life.id);
  const out = await paid(life);
  expect(-(money.wallet ?? 0n)).toBe(out);
  expect((money.provider_earnings ?? 0n) + (money.platform_revenue ?? 0n)).toBe(out);
  expect(money.escrow ?? 0n).toBe(0n);
  expect(money.provider_earnings ?? 0n).toBeGreaterThan(0n); // its used time was the provider's
  await invariantsHold();

  const postings = await transactionsOf(life.id);
  for (let i = 0; i < 3; i += 1) {
    t.clock.advance(MINUTE_MS);
    await tick();
  }
  expect(await paid(life)).toBe(out);
  expect(await transactionsOf(life.id)).toBe(postings);
  await invariantsHold();
}

/**
 * 6. Preemption: a preemptible plan's instance is ended as `preempted` (its unit back); any
 * other's is refused 409, unchanged.
 */
async function preempt(life: Life) {
  const { capabilities } = termsNamed(life.plan);
  const before = await row(life.id);
  if (capabilities.preemptible) {
    const preempted = await svc().preempt(life.id, now());
    expect(preempted.instance).toMatchObject({ endReason: 'preempted', endTime: now() });
    expect(await available(life.listingId)).toBe(life.totalCount);
    if (preempted.instance.status === 'terminating') await hostSays(life, 'terminated');
    expect((await row(life.id)).status).toBe('terminated');
    const out = await paid(life);
    t.clock.advance(2 * MINUTE_MS);
    await tick();
    expect(await paid(life)).toBe(out); // nothing charged after the preemption
  } else {
    const error = await refusal(svc().preempt(life.id, now()));
    expect(error.status).toBe(409);
    expect(await row(life.id)).toEqual(before);
    expect(await available(life.listingId)).toBe(life.totalCount - 1);
  }
  await invariantsHold();
}

/**
 * 7. Its terms agree with what the wallet paid: its cost so far, its charges less refunds,
 * its invoice lines; and its billed seconds priced at its rate are its compute money.
 */
async function termsAgree(life: Life) {
  const terms = termsNamed(life.plan);
  const view = await svc().findOwn(life.userId, life.id);
  const { instance } = view;
  const out = await paid(life);
  expect(terms.costSoFarMicros(instance)).toBe(out);
  const money = await instanceMoney(db(), view, now());
  expect(money.netMicros).toBe(out);
  expect(money.computeMicros + money.storageMicros - money.unusedRefundMicros).toBe(out);
  const lines = terms.invoiceLines(view, money);
  expect(lines.reduce((sum, l) => sum + l.amountMicros, 0n)).toBe(out);
  const seconds = terms.billedSeconds(instance);
  if (terms.capabilities.chargesPerMinute) {
    expect(seconds % 60).toBe(0);
    expect(money.computeMicros).toBe(
      BigInt(seconds / 60) * computeMinuteMicros(instance.hourlyRateMicros),
    );
  }
  if (terms.capabilities.escrowsUpFront) {
    expect(money.computeMicros - money.unusedRefundMicros).toBe(
      usedCostMicros(instance.hourlyRateMicros, seconds, instance.durationHours ?? 0),
    );
  }
}

/** Each test's instances that are still live end after it, so no later tick charges them. */
afterEach(async () => {
  for (const life of lives.splice(0)) {
    if ((await row(life.id)).endTime === null) await svc().terminate(life.userId, life.id, now());
  }
});

describe.each(['booked', 'metered', 'spot'])('the plan contract: %s', (plan) => {
  it('1. opens through the generic launch: one unit, its rate, a GPU, its first money', async () => {
    await open(plan);
  });

  it('2. becomes ready by its host’s report, moving the money its readiness moves', async () => {
    await ready(await open(plan));
  });

  it('3. charges what comes due through the worker’s jobs', async () => {
    const life = await open(plan);
    await ready(life);
    await chargeDue(life);
  });

  it('4. stops: the disk kept and started again, or ended and settled', async () => {
    const life = await open(plan);
    await ready(life);
    await stop(life);
  });

  it('5. ends: its unit back, the books add up, nothing charged after', async () => {
    const life = await open(plan);
    await ready(life);
    t.clock.advance(90_000); // a minute and a half: one minute of it charged by the worker
    await tick();
    await end(life);
  });

  it('6. is preempted as `preempted` if its plan may be, else 409 and unchanged', async () => {
    const life = await open(plan);
    await ready(life);
    await preempt(life);
  });

  it('7. its terms agree with what the wallet paid, at every step', async () => {
    const life = await open(plan);
    await termsAgree(life);
    await ready(life);
    await termsAgree(life);
    t.clock.advance(30 * 60_000);
    await tick();
    await termsAgree(life);
    await end(life);
    await termsAgree(life);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../db/schema';
import { idempotencyStore, KEY_TTL_MS } from '../lib/idempotency';
import { createTestApp, type TestApp } from '../test/app';
import { createWorker, type Job } from '.';
import { DEMO_CLEANUP_EVERY_MS, IDEMPOTENCY_SWEEP_EVERY_MS } from './jobs';

/** A job that counts its runs and hands out `items` in batches. */
function countingJob(options: Partial<Job> & { items?: number }) {
  let left = options.items ?? 0;
  const runs: Date[] = [];
  const job: Job = {
    name: options.name ?? 'counting',
    batch: options.batch ?? 10,
    everyMs: options.everyMs,
    drain: options.drain,
    async run(now, batch) {
      runs.push(now);
      const done = Math.min(batch, left);
      left -= done;
      return done;
    },
  };
  return { job, runs };
}

describe('the worker', () => {
  it("keeps a job's period on timed passes and ignores it when forced", async () => {
    const every = countingJob({ name: 'every', everyMs: 60_000 });
    const always = countingJob({ name: 'always' });
    const worker = createWorker([every.job, always.job]);
    const start = new Date('2030-01-01T00:00:00Z');
    const at = (ms: number) => new Date(start.getTime() + ms);
    await worker.runOnce(at(0), { force: false });
    await worker.runOnce(at(30_000), { force: false });
    expect(every.runs).toHaveLength(1);
    expect(always.runs).toHaveLength(2);
    await worker.runOnce(at(60_000), { force: false });
    expect(every.runs).toHaveLength(2);
    await worker.runOnce(at(61_000));
    expect(every.runs).toHaveLength(3);
  });

  it('repeats a full batch in the same pass, and a draining job until it handles nothing', async () => {
    const batched = countingJob({ name: 'batched', batch: 10, items: 25 });
    const drained = countingJob({ name: 'drained', batch: 10, items: 25, drain: true });
    const done = await createWorker([batched.job, drained.job]).runOnce(new Date());
    expect(done).toEqual({ batched: 25, drained: 25 });
    expect(batched.runs).toHaveLength(3); // 10, 10, 5
    expect(drained.runs).toHaveLength(4); // 10, 10, 5, 0
  });

  it('logs a failing job on timed passes and still runs the others', async () => {
    const errors: unknown[] = [];
    const failing: Job = {
      name: 'failing',
      batch: 1,
      run: () => Promise.reject(new Error('boom')),
    };
    const after = countingJob({ name: 'after', items: 1 });
    const log = { info: () => {}, error: (...args: unknown[]) => errors.push(args) };
    const worker = createWorker([failing, after.job], log);
    expect(await worker.runOnce(new Date(), { force: false, rethrow: false })).toEqual({
      after: 1,
    });
    expect(errors).toHaveLength(1);
    await expect(worker.runOnce(new Date())).rejects.toThrow('boom');
  });
});

describe("the app's worker", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs the housekeeping that used to have timers of its own, every 10 minutes', () => {
    const jobs = new Map(t.app.deps.worker.jobs.map((job) => [job.name, job]));
    expect(jobs.get('demo-cleanup')).toMatchObject({ everyMs: DEMO_CLEANUP_EVERY_MS, drain: true });
    expect(jobs.get('idempotency-sweep')).toMatchObject({ everyMs: IDEMPOTENCY_SWEEP_EVERY_MS });
    expect(DEMO_CLEANUP_EVERY_MS).toBe(10 * 60_000);
    expect(IDEMPOTENCY_SWEEP_EVERY_MS).toBe(10 * 60_000);
  });

  it('deletes expired Idempotency-Keys in its pass, and only those', async () => {
    const db = t.database.db;
    const scope = { owner: 'worker-test', method: 'POST', route: '/api/rentals' };
    const now = t.clock.now();
    await idempotencyStore.claim(db, { ...scope, key: 'old' }, 'hash', now);
    await idempotencyStore.claim(
      db,
      { ...scope, key: 'new' },
      'hash',
      new Date(now.getTime() + KEY_TTL_MS),
    );
    const keys = async () =>
      (
        await db
          .select({ key: idempotencyKeys.key })
          .from(idempotencyKeys)
          .where(eq(idempotencyKeys.owner, scope.owner))
      ).map((row) => row.key);
    expect((await keys()).sort()).toEqual(['new', 'old']);
    const done = await t.app.deps.worker.runOnce(new Date(now.getTime() + KEY_TTL_MS + 1));
    expect(done['idempotency-sweep']).toBe(1);
    expect(await keys()).toEqual(['new']);
  });
});

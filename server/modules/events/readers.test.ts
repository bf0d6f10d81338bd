import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../lib/mailer';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { setupTestApp } from '../../test/suite';
import { createMailReader } from '../notifications/event-mail';
import { createEventDispatcher } from './dispatcher';
import { eventsRepo } from './repo';
import { eventLog } from './service';
import type { DurableEventReader, StoredEvent } from './types';

/**
 * The log's durable readers (docs/decisions/027) under what goes wrong: a process that lost its
 * turn cannot move the cursor (back), and one alert that cannot be sent never holds back
 * everyone's mail. A host's readiness verdict is news only when what it allows changes.
 */
let t: TestApp;
setupTestApp({}, (app) => {
  t = app;
});

const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;

/** A `wallet.low_balance` event of `userId`'s, as the balance check writes it. */
const lowBalance = (userId: string) =>
  eventLog.append(t.database.db, {
    type: 'wallet.low_balance',
    at: t.clock.now(),
    accountUserId: userId,
    subjectKind: 'wallet',
    subjectId: userId,
    data: { balance: '0.40', threshold: '1.00' },
  });

describe('durable readers', () => {
  it('a process whose lease ran out cannot move the cursor, back or forward', async () => {
    const db = t.database.db;
    const name = `fenced-${Date.now()}`;
    const a = await eventsRepo.leaseReader(db, name, 1);
    expect(a).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const b = await eventsRepo.leaseReader(db, name, 60_000);
    expect(b).not.toBeNull();
    const start = b?.cursor ?? 0n;
    expect(await eventsRepo.releaseReader(db, name, b?.token ?? '', start + 20n)).toBe(true);
    // A finishes late with its older batch: nothing changes.
    expect(await eventsRepo.releaseReader(db, name, a?.token ?? '', start + 5n)).toBe(false);
    expect(await eventsRepo.renewReader(db, name, a?.token ?? '', 60_000)).toBe(false);
    const [row] = await rows<{ last_id: string; leased_until: string | null }>(
      sql`select last_id::text, leased_until from event_readers where name = ${name}`,
    );
    expect(row).toEqual({ last_id: String(start + 20n), leased_until: null });
  });

  it('one alert that cannot be sent is passed; the others are sent', async () => {
    const bad = await t.signIn();
    const good = await t.signIn();
    const addresses = await rows<{ id: string; email: string }>(
      sql`select id::text, email from users where id in (${bad.userId}::uuid, ${good.userId}::uuid)`,
    );
    const badEmail = addresses.find((r) => r.id === bad.userId)?.email;
    const sent: Mail[] = [];
    const refusing: Mailer = {
      async send(mail) {
        if (mail.to === badEmail) throw new Error('550 mailbox unavailable');
        sent.push(mail);
      },
      close() {},
    };
    const errors: unknown[] = [];
    const reader = createMailReader({
      db: t.database.db,
      mailer: refusing,
      log: { error: (obj) => errors.push(obj) },
    });
    const before = await eventsRepo.end(t.database.db);
    for (const user of [bad, good]) await lowBalance(user.userId);
    const events = await eventsRepo.list(t.database.db, { after: before, limit: 10 });
    expect(events.map((e) => e.accountUserId)).toEqual([bad.userId, good.userId]);
    await reader.effect?.(events);
    expect(sent.map((m) => m.subject)).toEqual(['Your RentGPU credit balance is running low']);
    expect(errors).toHaveLength(1);
  });
});

/** A dispatcher of `reader` alone, the reader starting at the log's end now (its first lease). */
async function dispatcherOf(reader: DurableEventReader, durableEveryMs?: number) {
  const db = t.database.db;
  const first = await eventsRepo.leaseReader(db, reader.name, 60_000);
  await eventsRepo.releaseReader(db, reader.name, first?.token ?? '', null);
  return createEventDispatcher({
    db,
    signals: t.app.deps.signals,
    durable: [reader],
    ...(durableEveryMs === undefined ? {} : { durableEveryMs }),
  });
}

describe('a durable reader’s cursor', () => {
  it('is made when the process starts following the log: an event written before its first pass is read', async () => {
    const user = await t.signIn();
    const name = `from-start-${Date.now()}`;
    const read: bigint[] = [];
    const dispatcher = createEventDispatcher({
      db: t.database.db,
      signals: t.app.deps.signals,
      durable: [
        {
          name,
          wants: { types: ['wallet.low_balance'] },
          async effect(events) {
            read.push(...events.map((e) => e.id));
          },
        },
      ],
      pollMs: 3_600_000,
    });
    await dispatcher.start();
    // Written before any pass of the reader: made at its first pass instead (as before), its
    // cursor would start past this event.
    const written = await lowBalance(user.userId);
    await dispatcher.drain();
    await dispatcher.close();
    expect(read).toEqual([written]);
  });
});

describe('a durable reader’s wants', () => {
  it('reads only the events it acts on, and its cursor moves past the others to the bound', async () => {
    const db = t.database.db;
    const [a, b] = [await t.signIn(), await t.signIn()];
    const name = `wants-${Date.now()}`;
    const read: StoredEvent[][] = [];
    const dispatcher = await dispatcherOf({
      name,
      wants: {
        types: ['wallet.low_balance'],
        accountsIn: sql`select id from users where id = ${a.userId}::uuid`,
      },
      async effect(events) {
        read.push(events);
      },
    });
    const wanted = await lowBalance(a.userId);
    await lowBalance(b.userId); // another account
    await eventLog.append(db, {
      type: 'test.ping', // another type
      at: t.clock.now(),
      accountUserId: a.userId,
      subjectKind: 'webhook_endpoint',
      subjectId: 'we_test',
      data: {},
    });
    const bound = await eventsRepo.end(db);
    await dispatcher.drain();
    await dispatcher.close();
    expect(read.map((batch) => batch.map((e) => e.id))).toEqual([[wanted]]);
    const [row] = await rows<{ last_id: string }>(
      sql`select last_id::text from event_readers where name = ${name}`,
    );
    expect(BigInt(row?.last_id ?? '0')).toBeGreaterThanOrEqual(bound);
  });

  it('with nothing it wants, its cursor still moves to the bound, and nothing is read for it', async () => {
    const db = t.database.db;
    const user = await t.signIn();
    const name = `wants-none-${Date.now()}`;
    let calls = 0;
    const dispatcher = await dispatcherOf({
      name,
      wants: { types: ['spend_cap.warning'] },
      async effect() {
        calls += 1;
      },
    });
    await lowBalance(user.userId);
    const bound = await eventsRepo.end(db);
    await dispatcher.drain();
    await dispatcher.close();
    expect(calls).toBe(0);
    const [row] = await rows<{ last_id: string }>(
      sql`select last_id::text from event_readers where name = ${name}`,
    );
    expect(BigInt(row?.last_id ?? '0')).toBeGreaterThanOrEqual(bound);
  });
});

describe('durable passes under load', () => {
  /** A dispatcher with one durable reader recording its batches, past the log as it is now. */
  async function recorder(durableEveryMs: number) {
    const db = t.database.db;
    const batches: number[] = [];
    const dispatcher = await dispatcherOf(
      {
        name: `gap-${durableEveryMs}-${Date.now()}`,
        effect: async (events) => void batches.push(events.length),
      },
      durableEveryMs,
    );
    const user = await t.signIn();
    const append = () =>
      eventLog.append(db, {
        type: 'test.ping',
        at: t.clock.now(),
        accountUserId: user.userId,
        subjectKind: 'webhook_endpoint',
        subjectId: 'we_gap',
        data: {},
      });
    return { dispatcher, batches, append };
  }

  it('wake-ups within durableEveryMs of a pass fold into one later pass; drain reads at once', async () => {
    const { dispatcher, batches, append } = await recorder(60_000);
    await append();
    await dispatcher.wake(); // the first after a quiet spell: at once
    expect(batches).toEqual([1]);
    await append();
    await append();
    await dispatcher.wake();
    await dispatcher.wake();
    expect(batches).toEqual([1]); // folded, waiting for the window's end
    await dispatcher.drain();
    expect(batches).toEqual([1, 2]);
    await dispatcher.close();
  });

  it('the folded pass runs by itself at the window’s end', async () => {
    const { dispatcher, batches, append } = await recorder(100);
    await append();
    await dispatcher.wake();
    await append();
    await dispatcher.wake();
    for (let i = 0; i < 100 && batches.length < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(batches).toEqual([1, 1]);
    await dispatcher.close();
  });
});

describe('host readiness events', () => {
  it('are written when what the host can take changes, not when a problem’s wording does', async () => {
    const owner = await t.signIn();
    const provider = await createProvider(t.database.db, { userId: owner.userId });
    const { id: hostId } = await createHost(t.database.db, { providerId: provider.id });
    const verdict = (ready: boolean, free: string) =>
      JSON.stringify({
        ready,
        virtualisation: 'hardware',
        problems: ready ? [] : [{ code: 'disk', message: `Only ${free} GiB free` }],
        notes: [],
        gpus: [],
        readyGpus: ready ? [0] : [],
      });
    for (const [ready, free] of [
      [false, '9.4'],
      [false, '9.3'],
      [false, '9.1'],
      [true, '80'],
      [true, '79'],
    ] as const) {
      await t.database.db.execute(
        sql`update hosts set readiness = ${verdict(ready, free)}::jsonb where id = ${hostId}`,
      );
    }
    const told = await rows<{ ready: boolean; was: boolean | null }>(sql`
      select (data->>'ready')::boolean as ready, (data->>'wasReady')::boolean as was
      from events where subject_kind = 'host' and subject_id = ${hostId} order by id`);
    expect(told).toEqual([
      { ready: false, was: null },
      { ready: true, was: false },
    ]);
  });
});

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../lib/mailer';
import { createHost, createProvider } from '../../seed/factories';
import type { TestApp } from '../../test/app';
import { setupTestApp } from '../../test/suite';
import { createMailReader } from '../notifications/event-mail';
import { eventsRepo } from './repo';
import { eventLog } from './service';

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
    for (const user of [bad, good]) {
      await eventLog.append(t.database.db, {
        type: 'wallet.low_balance',
        at: t.clock.now(),
        accountUserId: user.userId,
        subjectKind: 'wallet',
        subjectId: user.userId,
        data: { balance: '0.40', threshold: '1.00' },
      });
    }
    const events = await eventsRepo.list(t.database.db, { after: before, limit: 10 });
    expect(events.map((e) => e.accountUserId)).toEqual([bad.userId, good.userId]);
    await reader.effect?.(events);
    expect(sent.map((m) => m.subject)).toEqual(['Your RentGPU credit balance is running low']);
    expect(errors).toHaveLength(1);
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

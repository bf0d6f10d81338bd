import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import {
  deliveryRows,
  type Received,
  type Receiver,
  readEvents,
  startReceiver,
  storedEvent,
  verifyDelivery,
} from '../../test/webhooks';

/**
 * Two server processes on one database (on PostgreSQL in the money phase, where claims really
 * race: scripts/money-tests.mjs), each claiming deliveries at the same time, twice over:
 * no delivery is ever sent twice, none is lost, at most two are in flight per endpoint, and
 * each subject's deliveries reach each endpoint in order.
 */
let a: TestApp;
let b: TestApp;
let rx: Receiver;

beforeAll(async () => {
  a = await createTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' } });
  b = await createTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' }, database: a.database });
  b.clock.advance(a.clock.now().getTime() - b.clock.now().getTime());
  rx = await startReceiver(a.clock);
});
afterAll(async () => {
  await rx.close();
  await b.close();
  await a.close();
});

it('two processes claiming at once never both send one delivery', { timeout: 90_000 }, async () => {
  const endpoints: { id: string; secret: string; userId: string }[] = [];
  for (let account = 0; account < 3; account += 1) {
    const { userId } = await a.signIn();
    for (let i = 0; i < 4; i += 1) {
      const created = await a.app.deps.webhooks.service.create(userId, {
        url: `${rx.url}/${account}-${i}`,
        types: ['*'],
        description: '',
      });
      endpoints.push({ id: created.id, secret: created.secret, userId });
    }
  }
  const secretOf = new Map(endpoints.map((e, i) => [`/${Math.floor(i / 4)}-${i % 4}`, e]));
  const accounts = [...new Set(endpoints.map((e) => e.userId))];
  // Per account 30 events over 6 subjects (PostgreSQL: 3 × 30 × 4 = 360 deliveries; the
  // embedded database, one connection where nothing races, takes 10).
  const perAccount = a.database.driver === 'postgres' ? 30 : 10;
  const total = accounts.length * perAccount * 4;
  const events = accounts.flatMap((userId) =>
    Array.from({ length: perAccount }, (_, i) => storedEvent(userId, `instance:${i % 6}`)),
  );
  await readEvents(a, events);

  const open = new Map<string, number>();
  let mostOpen = 0;
  rx.state.respond = (req, res) => {
    const now = (open.get(req.path) ?? 0) + 1;
    open.set(req.path, now);
    mostOpen = Math.max(mostOpen, now);
    setTimeout(
      () => {
        open.set(req.path, (open.get(req.path) ?? 1) - 1);
        res.writeHead(200);
        res.end('ok');
      },
      Math.floor(Math.random() * 4),
    );
  };

  const now = a.clock.now();
  const pass = () =>
    Promise.all([
      a.app.deps.webhooks.delivery.runOnce(now),
      b.app.deps.webhooks.delivery.runOnce(now),
      a.app.deps.webhooks.delivery.runOnce(now),
      b.app.deps.webhooks.delivery.runOnce(now),
    ]);
  let attempts = 0;
  for (let round = 0; round < 50; round += 1) {
    const made = (await pass()).reduce((x, y) => x + y, 0);
    attempts += made;
    if (made === 0) break;
  }

  expect(attempts).toBe(total);
  expect(rx.requests).toHaveLength(total);
  const seen = new Set<string>();
  for (const r of rx.requests) {
    const pair = `${r.path} ${r.headers['webhook-id']}`;
    expect(seen.has(pair), pair).toBe(false);
    seen.add(pair);
    const endpoint = secretOf.get(r.path);
    if (!endpoint) throw new Error(`unknown path ${r.path}`);
    verifyDelivery(endpoint.secret, r as Received);
  }
  expect(mostOpen).toBeLessThanOrEqual(2);
  // In order per subject and endpoint.
  const bySubject = new Map<string, number[]>();
  for (const r of rx.requests) {
    const body = JSON.parse(r.body) as { data: { subject: { id: string } } };
    const key = `${r.path} ${body.data.subject.id}`;
    const ids = bySubject.get(key) ?? [];
    ids.push(Number((r.headers['webhook-id'] ?? '').slice(4)));
    bySubject.set(key, ids);
  }
  for (const [key, ids] of bySubject) {
    expect(ids, key).toEqual([...ids].sort((x, y) => x - y));
  }
  for (const e of endpoints) {
    const rows = await deliveryRows(a, e.id);
    expect(rows).toHaveLength(perAccount);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
  }
  const leftover = await a.database.db.execute(
    sql`select count(*)::int as n from webhook_deliveries where claimed_until is not null`,
  );
  const rows = ((leftover as { rows?: unknown[] }).rows ?? leftover) as { n: number }[];
  expect(rows[0]?.n).toBe(0);
});

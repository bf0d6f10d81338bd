import { sql } from 'drizzle-orm';
import { WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS } from '../../../shared/contracts/webhooks';
import { createTestApp, type TestApp } from '../../test/app';
import { createApiKey, expectReplayOf, type V1Args, v1Request } from '../../test/public-api';
import {
  awaitDeliveries,
  deliveryRows,
  fakeResolver,
  type Received,
  type Receiver,
  readEvents,
  startReceiver,
  storedEvent,
  verifyDelivery,
} from '../../test/webhooks';
import { createWebhookDelivery, RETRY_DELAYS_MS } from './delivery';
import { sendAttempt } from './send';
import { createWebhooksService } from './service';

const SECOND = 1000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const dns = fakeResolver();
let t: TestApp;
let rx: Receiver;
let user: { userId: string; cookie: string };
let key: string;
const v1 = (...args: V1Args) => v1Request(t, ...args);

beforeAll(async () => {
  // A lab (ALLOW_PRIVATE_HOST_ADDRESSES): the receiver listens on 127.0.0.1.
  t = await createTestApp({ env: { ALLOW_PRIVATE_HOST_ADDRESSES: '1' }, resolve: dns.resolve });
  rx = await startReceiver(t.clock);
  user = await t.signIn();
  key = (await createApiKey(t, user.cookie, ['read', 'write'])).key;
  // The durable readers' cursors start where the log is now.
  await t.app.deps.eventLog.drain();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});
beforeEach(() => {
  rx.requests.length = 0;
  rx.state.respond = (_req, res) => {
    res.writeHead(200);
    res.end('ok');
  };
});

async function createEndpoint(
  body: Record<string, unknown>,
  as: string = key,
): Promise<{ id: string; secret: string }> {
  const res = await v1(as, 'POST', '/webhook-endpoints', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Every delivery due now is sent and recorded (the loop's one pass), at the test clock's time. */
const deliver = () => t.app.deps.webhooks.delivery.runOnce(t.clock.now());

/** The log's events reach the webhooks reader (the dispatcher's pass), then they are sent. */
async function dispatchAndDeliver(endpointId: string, count: number) {
  await awaitDeliveries(t, endpointId, count);
  return deliver();
}

describe('webhook endpoints', () => {
  it('creates one with a secret shown once, lists, reads, updates and deletes it (public API and session alike)', async () => {
    const res = await v1(key, 'POST', '/webhook-endpoints', {
      url: `${rx.url}/hooks`,
      types: ['instance.ready', 'instance.stopped'],
      description: 'my hook',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);
    expect(created).toMatchObject({
      url: `${rx.url}/hooks`,
      types: ['instance.ready', 'instance.stopped'],
      description: 'my hook',
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      previousSecretUntil: null,
      pending: 0,
    });

    const got = await v1(key, 'GET', `/webhook-endpoints/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).not.toHaveProperty('secret');
    const listed = await t.request({
      method: 'GET',
      url: '/api/webhook-endpoints',
      cookie: user.cookie,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().find((e: { id: string }) => e.id === created.id)).toEqual(got.json());

    const patched = await t.request({
      method: 'PATCH',
      url: `/api/webhook-endpoints/${created.id}`,
      cookie: user.cookie,
      payload: { types: ['*'], description: 'all', enabled: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      types: ['*'],
      description: 'all',
      enabled: false,
      disabledReason: 'owner',
    });

    // Another account sees none of it.
    const other = await t.signIn();
    const otherKey = (await createApiKey(t, other.cookie, ['read', 'write'])).key;
    expect((await v1(otherKey, 'GET', `/webhook-endpoints/${created.id}`)).statusCode).toBe(404);
    expect((await v1(otherKey, 'DELETE', `/webhook-endpoints/${created.id}`)).statusCode).toBe(404);
    expect((await v1(otherKey, 'GET', '/webhook-endpoints')).json()).toEqual([]);

    expect((await v1(key, 'DELETE', `/webhook-endpoints/${created.id}`)).statusCode).toBe(204);
    expect((await v1(key, 'GET', `/webhook-endpoints/${created.id}`)).statusCode).toBe(404);
  });

  it('reads need the read permission, changes write; a create retried with its Idempotency-Key is answered once', async () => {
    const readOnly = (await createApiKey(t, user.cookie, ['read'])).key;
    expect((await v1(readOnly, 'GET', '/webhook-endpoints')).statusCode).toBe(200);
    const refused = await v1(readOnly, 'POST', '/webhook-endpoints', { url: `${rx.url}/x` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toMatchObject({ required: 'write' });

    const headers = { 'idempotency-key': 'create-hook-1' };
    const first = await v1(key, 'POST', '/webhook-endpoints', { url: `${rx.url}/idem` }, headers);
    expect(first.statusCode).toBe(201);
    const again = await v1(key, 'POST', '/webhook-endpoints', { url: `${rx.url}/idem` }, headers);
    expectReplayOf(again, first);
    const all = (await v1(key, 'GET', '/webhook-endpoints')).json() as { url: string }[];
    expect(all.filter((e) => e.url === `${rx.url}/idem`)).toHaveLength(1);
    await v1(key, 'DELETE', `/webhook-endpoints/${first.json().id}`);
  });

  it(`allows at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per account`, async () => {
    const owner = await t.signIn();
    const ownerKey = (await createApiKey(t, owner.cookie, ['write', 'read'])).key;
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i += 1) {
      await createEndpoint({ url: `${rx.url}/n${i}` }, ownerKey);
    }
    const over = await v1(ownerKey, 'POST', '/webhook-endpoints', { url: `${rx.url}/over` });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({ code: 'LIMIT_REACHED' });
  });

  it('refuses bad input with the field named', async () => {
    const res = await v1(key, 'POST', '/webhook-endpoints', {
      url: 'ftp://example.com/x',
      types: ['instance.nope'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.json().error.details.fields)).toEqual(
      expect.arrayContaining(['url', 'types.0']),
    );
  });
});

describe('deliveries to a real receiver, verified with the standardwebhooks package', () => {
  it('sends a test event to that endpoint only, signed; the log shows it delivered', async () => {
    const a = await createEndpoint({ url: `${rx.url}/a`, types: ['instance.ready'] });
    const b = await createEndpoint({ url: `${rx.url}/b` });
    const sent = await v1(key, 'POST', `/webhook-endpoints/${a.id}/test`);
    expect(sent.statusCode).toBe(202);
    const { eventId } = sent.json();
    expect(eventId).toMatch(/^evt_\d+$/);

    expect(await dispatchAndDeliver(a.id, 1)).toBe(1);
    expect(rx.requests).toHaveLength(1);
    const [got] = rx.requests as [Received];
    expect(got.path).toBe('/a');
    expect(got.headers['webhook-id']).toBe(eventId);
    expect(got.headers['webhook-timestamp']).toBe(
      String(Math.floor(t.clock.now().getTime() / 1000)),
    );
    expect(got.headers['content-type']).toBe('application/json');
    const body = verifyDelivery(a.secret, got) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'test.ping',
      data: {
        id: eventId,
        subject: { kind: 'webhook_endpoint', id: a.id, seq: 1 },
        endpointId: a.id,
      },
    });
    expect(() => verifyDelivery(b.secret, got)).toThrow(WebhookVerificationError);

    const log = await v1(key, 'GET', `/webhook-endpoints/${a.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toEqual([
      expect.objectContaining({
        eventId,
        eventType: 'test.ping',
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        lastStatus: 200,
        lastError: null,
        responseExcerpt: 'ok',
        lastLatencyMs: expect.any(Number),
      }),
    ]);
    expect((await v1(key, 'GET', `/webhook-endpoints/${b.id}/deliveries`)).json()).toEqual([]);

    // Send again: the same row, the same webhook-id and body, a new attempt.
    const [delivery] = log.json();
    const resent = await v1(
      key,
      'POST',
      `/webhook-endpoints/${a.id}/deliveries/${delivery.id}/resend`,
    );
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ id: delivery.id, status: 'pending', attempts: 0 });
    t.clock.advance(SECOND);
    expect(await deliver()).toBe(1);
    const [, again] = rx.requests as [Received, Received];
    expect(again.headers['webhook-id']).toBe(eventId);
    expect(again.body).toBe(got.body);
    verifyDelivery(a.secret, again);
    await v1(key, 'DELETE', `/webhook-endpoints/${a.id}`);
    await v1(key, 'DELETE', `/webhook-endpoints/${b.id}`);
  });

  it('sends each matching event once to each matching endpoint, even when a batch is read twice', async () => {
    const owner = await t.signIn();
    const ownerKey = (await createApiKey(t, owner.cookie, ['write', 'read'])).key;
    const ready = await createEndpoint(
      { url: `${rx.url}/ready`, types: ['instance.ready'] },
      ownerKey,
    );
    const all = await createEndpoint({ url: `${rx.url}/all` }, ownerKey);
    const off = await createEndpoint({ url: `${rx.url}/off` }, ownerKey);
    await v1(ownerKey, 'PATCH', `/webhook-endpoints/${off.id}`, { enabled: false });
    const at = new Date();
    const events = [
      storedEvent(owner.userId, 'instance:1', 'instance.ready', at),
      storedEvent(owner.userId, 'instance:1', 'instance.stopped', new Date(at.getTime() + 7)),
      storedEvent(user.userId, 'instance:2', 'instance.ready'), // someone else's
    ];
    await readEvents(t, events);
    await readEvents(t, events);
    expect(await deliver()).toBe(3);
    const ids = (path: string) =>
      rx.requests.filter((r) => r.path === path).map((r) => r.headers['webhook-id']);
    expect(ids('/ready')).toEqual([`evt_${events[0]?.id}`]);
    expect(ids('/all')).toEqual([`evt_${events[0]?.id}`, `evt_${events[1]?.id}`]);
    expect(ids('/off')).toEqual([]);
    for (const r of rx.requests) {
      verifyDelivery(r.path === '/ready' ? ready.secret : all.secret, r);
      const body = JSON.parse(r.body);
      expect(body.data.subject).toMatchObject({ kind: 'instance', id: '1' });
      // Each event's own time (the two are 7 ms apart).
      const event = events.find((e) => `evt_${e.id}` === r.headers['webhook-id']);
      expect(event).toBeDefined();
      expect(body.timestamp).toBe(event?.at.toISOString());
    }
  });

  it('retries on 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h… for three days, then gives up; an endpoint failing that long is disabled, its owner e-mailed and told by event; enabling it resumes from its oldest pending delivery', async () => {
    const owner = await t.signIn({ email: 'hooks-owner@example.com' });
    const ownerKey = (await createApiKey(t, owner.cookie, ['write', 'read'])).key;
    const dead = await createEndpoint({ url: `${rx.url}/dead` }, ownerKey);
    const watcher = await createEndpoint(
      { url: `${rx.url}/watcher`, types: ['webhook_endpoint.disabled'] },
      ownerKey,
    );
    rx.state.respond = (req, res) => {
      res.writeHead(req.path === '/dead' ? 500 : 200);
      res.end(req.path === '/dead' ? 'down for maintenance' : 'ok');
    };
    const first = storedEvent(owner.userId, 'instance:77', 'instance.ready');
    const second = storedEvent(owner.userId, 'instance:77', 'instance.stopped');
    await readEvents(t, [first, second]);

    const started = t.clock.now().getTime();
    const attemptTimes: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const made = await deliver();
      if (made > 0) attemptTimes.push(t.clock.now().getTime() - started);
      const [row] = await deliveryRows(t, dead.id);
      if (row?.status !== 'pending') break;
      if (!row.nextAttemptAt) break;
      t.clock.advance(row.nextAttemptAt.getTime() - t.clock.now().getTime());
    }
    // Each attempt after the one before: the schedule, the last at exactly three days.
    const gaps = attemptTimes.slice(1).map((at, i) => at - (attemptTimes[i] as number));
    const schedule = [...RETRY_DELAYS_MS, ...Array<number>(10).fill(10 * HOUR)];
    expect(gaps.slice(0, -1)).toEqual(schedule.slice(0, gaps.length - 1));
    expect(attemptTimes.at(-1)).toBe(3 * DAY);
    expect(gaps.at(-1)).toBeLessThanOrEqual(10 * HOUR);
    const deadRequests = rx.requests.filter((r) => r.path === '/dead');
    expect(deadRequests).toHaveLength(attemptTimes.length);
    for (const r of deadRequests) {
      // The same webhook-id on every retry, each attempt signed at its own time.
      expect(r.headers['webhook-id']).toBe(`evt_${first.id}`);
      expect(r.headers['webhook-timestamp']).toBe(String(Math.floor(r.at.getTime() / 1000)));
      verifyDelivery(dead.secret, r);
    }
    const rows = await deliveryRows(t, dead.id);
    expect(rows.map((r) => [r.eventId, r.status])).toEqual([
      [`evt_${first.id}`, 'failed'],
      [`evt_${second.id}`, 'pending'],
    ]);
    expect(rows[0]).toMatchObject({
      attempts: attemptTimes.length,
      lastStatus: 500,
      responseExcerpt: 'down for maintenance',
    });
    // The one behind it never went, and waits unscheduled while the endpoint is disabled.
    expect(rows[1]).toMatchObject({ attempts: 0, nextAttemptAt: null });

    const view = (await v1(ownerKey, 'GET', `/webhook-endpoints/${dead.id}`)).json();
    expect(view).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      failingSince: new Date(started).toISOString(),
      pending: 1,
    });
    const mail = t.mailer.sent.filter((m) => m.to === 'hooks-owner@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe('Your RentGPU webhook endpoint was disabled');
    expect(mail[0]?.text).toContain(`${rx.url}/dead`);
    const logged = await t.database.db.execute(sql`
      select type, subject_kind, subject_id, data from events
      where account_user_id = ${owner.userId}::uuid and type = 'webhook_endpoint.disabled'`);
    const events = ((logged as { rows?: unknown[] }).rows ?? logged) as Record<string, unknown>[];
    expect(events).toEqual([
      {
        type: 'webhook_endpoint.disabled',
        subject_kind: 'webhook_endpoint',
        subject_id: dead.id,
        data: expect.objectContaining({ url: `${rx.url}/dead`, reason: 'failing' }),
      },
    ]);
    // The disabled event goes to the account's other endpoints, not to the one disabled.
    rx.requests.length = 0;
    await dispatchAndDeliver(watcher.id, 1);
    expect(rx.requests.map((r) => r.path)).toEqual(['/watcher']);
    expect(verifyDelivery(watcher.secret, rx.requests[0] as Received)).toMatchObject({
      type: 'webhook_endpoint.disabled',
      data: { subject: { kind: 'webhook_endpoint', id: dead.id }, url: `${rx.url}/dead` },
    });

    // Fixed and enabled again: the oldest pending delivery goes at once.
    rx.requests.length = 0;
    rx.state.respond = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const enabled = await v1(ownerKey, 'PATCH', `/webhook-endpoints/${dead.id}`, {
      enabled: true,
    });
    expect(enabled.json()).toMatchObject({ enabled: true, failingSince: null, pending: 1 });
    expect(await deliver()).toBe(1);
    expect(rx.requests.map((r) => r.headers['webhook-id'])).toEqual([`evt_${second.id}`]);
    expect((await deliveryRows(t, dead.id))[1]).toMatchObject({ status: 'delivered' });
  });

  it('keeps order per subject and endpoint: a failing delivery holds the next of its subject, not another subject', async () => {
    const owner = await t.signIn();
    const ownerKey = (await createApiKey(t, owner.cookie, ['write', 'read'])).key;
    const hook = await createEndpoint({ url: `${rx.url}/ordered` }, ownerKey);
    const a1 = storedEvent(owner.userId, 'instance:1', 'instance.created');
    const a2 = storedEvent(owner.userId, 'instance:1', 'instance.ready');
    const a3 = storedEvent(owner.userId, 'instance:1', 'instance.stopping');
    const b1 = storedEvent(owner.userId, 'instance:2', 'instance.created');
    await readEvents(t, [a1, a2, a3, b1]);
    const failing = new Set([`evt_${a1.id}`]);
    rx.state.respond = (req, res) => {
      res.writeHead(failing.has(req.headers['webhook-id'] ?? '') ? 503 : 200);
      res.end();
    };
    expect(await deliver()).toBe(2);
    expect(rx.requests.map((r) => r.headers['webhook-id'])).toEqual(
      expect.arrayContaining([`evt_${a1.id}`, `evt_${b1.id}`]),
    );
    expect(rx.requests).toHaveLength(2);
    // Nothing of instance:1 goes while its first waits to be retried.
    t.clock.advance(2 * SECOND);
    expect(await deliver()).toBe(0);

    failing.clear();
    t.clock.advance(3 * SECOND);
    rx.requests.length = 0;
    expect(await deliver()).toBe(3);
    expect(rx.requests.map((r) => r.headers['webhook-id'])).toEqual([
      `evt_${a1.id}`,
      `evt_${a2.id}`,
      `evt_${a3.id}`,
    ]);
    for (const r of rx.requests) verifyDelivery(hook.secret, r);
    expect((await deliveryRows(t, hook.id)).every((r) => r.status === 'delivered')).toBe(true);
  });

  it('rotation: for 24 hours both secrets sign (a receiver with either verifies); after, only the new one', async () => {
    const hook = await createEndpoint({ url: `${rx.url}/rotating` });
    const rotated = await v1(key, 'POST', `/webhook-endpoints/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json();
    expect(fresh.secret).toMatch(/^whsec_/);
    expect(fresh.secret).not.toBe(hook.secret);
    expect(fresh.previousSecretUntil).toBe(new Date(t.clock.now().getTime() + DAY).toISOString());

    await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await dispatchAndDeliver(hook.id, 1);
    const during = rx.requests.at(-1) as Received;
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    verifyDelivery(hook.secret, during);
    verifyDelivery(fresh.secret, during);

    t.clock.advance(DAY + SECOND);
    expect((await v1(key, 'GET', `/webhook-endpoints/${hook.id}`)).json().previousSecretUntil).toBe(
      null,
    );
    await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await dispatchAndDeliver(hook.id, 2);
    const after = rx.requests.at(-1) as Received;
    expect(after).not.toBe(during);
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    verifyDelivery(fresh.secret, after);
    expect(() => verifyDelivery(hook.secret, after)).toThrow(WebhookVerificationError);
    await v1(key, 'DELETE', `/webhook-endpoints/${hook.id}`);
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    const hook = await createEndpoint({ url: `${rx.url}/moved` });
    rx.state.respond = (req, res) => {
      if (req.path === '/moved') {
        res.writeHead(302, { location: `${rx.url}/elsewhere` });
        res.end();
      } else {
        res.writeHead(200);
        res.end();
      }
    };
    await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await dispatchAndDeliver(hook.id, 1);
    expect(rx.requests.map((r) => r.path)).toEqual(['/moved']);
    const [row] = await deliveryRows(t, hook.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 302 });
    expect(row?.nextAttemptAt?.getTime()).toBe(t.clock.now().getTime() + 5 * SECOND);
    await v1(key, 'DELETE', `/webhook-endpoints/${hook.id}`);
  });

  it('reads at most 64 KiB of an answer and keeps its first 1 KiB', async () => {
    const hook = await createEndpoint({ url: `${rx.url}/chatty` });
    let written = 0;
    rx.state.respond = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // 4 MiB, written as the reader takes it: the sender stops reading after 64 KiB.
      const chunk = Buffer.alloc(64 * 1024, 'x'.charCodeAt(0));
      for (let i = 0; i < 64 && !res.destroyed; i += 1) {
        const ok = res.write(chunk);
        written += chunk.length;
        if (!ok) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end();
    };
    await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await dispatchAndDeliver(hook.id, 1);
    const [row] = await deliveryRows(t, hook.id);
    expect(row).toMatchObject({ status: 'delivered', lastStatus: 200 });
    expect(row?.responseExcerpt).toBe('x'.repeat(1024));
    expect(written).toBeLessThan(4 * 1024 * 1024);
    await v1(key, 'DELETE', `/webhook-endpoints/${hook.id}`);
  });

  it("a slow endpoint (past the timeout) does not delay another account's delivery", async () => {
    const slowOwner = await t.signIn();
    const fastOwner = await t.signIn();
    const slowKey = (await createApiKey(t, slowOwner.cookie, ['write', 'read'])).key;
    const fastKey = (await createApiKey(t, fastOwner.cookie, ['write', 'read'])).key;
    const slow = await createEndpoint({ url: `${rx.url}/slow` }, slowKey);
    const fast = await createEndpoint({ url: `${rx.url}/fast` }, fastKey);
    let fastAnsweredAt = 0;
    let slowOpen = 0;
    let mostSlowOpen = 0;
    rx.state.respond = (req, res) => {
      if (req.path === '/slow') {
        slowOpen += 1;
        mostSlowOpen = Math.max(mostSlowOpen, slowOpen);
        res.on('close', () => {
          slowOpen -= 1;
        });
        setTimeout(() => {
          if (!res.destroyed) res.end('late');
        }, 3000);
        return;
      }
      fastAnsweredAt = performance.now();
      res.writeHead(200);
      res.end('fast');
    };
    // A loop with a 1 s attempt limit (10 s in the app), on the same database.
    const loop = createWebhookDelivery({
      db: t.database.db,
      clock: t.clock,
      mailer: t.mailer,
      log: { error() {}, warn() {} },
      targets: { allowPrivate: true, resolve: dns.resolve },
      httpsOnly: false,
      appendEvent: async () => 0n,
      timeoutMs: 1000,
    });
    // Four of the slow account's deliveries first, then one of the other account's.
    const slowEvents = Array.from({ length: 4 }, (_, i) =>
      storedEvent(slowOwner.userId, `instance:${100 + i}`),
    );
    await readEvents(t, slowEvents);
    await readEvents(t, [storedEvent(fastOwner.userId, 'instance:200')]);
    const started = performance.now();
    await loop.runOnce(t.clock.now());
    // The other account's went at once, while the slow one's first two hung.
    expect(fastAnsweredAt - started).toBeLessThan(900);
    expect((await deliveryRows(t, fast.id))[0]).toMatchObject({ status: 'delivered' });
    // Two attempts in flight per endpoint at most; each ended by the timeout.
    expect(rx.requests.filter((r) => r.path === '/slow')).toHaveLength(4);
    expect(mostSlowOpen).toBe(2);
    const slowRows = await deliveryRows(t, slow.id);
    for (const row of slowRows) {
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatus: null,
        lastError: 'no answer within 1 s',
      });
    }
    await v1(slowKey, 'DELETE', `/webhook-endpoints/${slow.id}`);
  });

  it('the loop started beside the worker sends as deliveries come due', async () => {
    const hook = await createEndpoint({ url: `${rx.url}/looped` });
    const running = t.app.deps.webhooks.delivery.start(t.clock, 20);
    try {
      await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
      await awaitDeliveries(t, hook.id, 1);
      for (let i = 0; i < 100 && rx.requests.length === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await running.stop();
    }
    expect(rx.requests.map((r) => r.path)).toEqual(['/looped']);
    verifyDelivery(hook.secret, rx.requests[0] as Received);
    await v1(key, 'DELETE', `/webhook-endpoints/${hook.id}`);
  });
});

describe('safe to point anywhere', () => {
  let strict: TestApp;
  let strictKey: string;
  beforeAll(async () => {
    strict = await createTestApp({
      env: { ALLOW_PRIVATE_HOST_ADDRESSES: '0' },
      resolve: dns.resolve,
    });
    const owner = await strict.signIn();
    strictKey = (await createApiKey(strict, owner.cookie, ['read', 'write'])).key;
    await strict.app.deps.eventLog.drain();
  });
  afterAll(async () => {
    await strict.close();
  });

  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://10.0.0.1/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://[::1]:8080/hook', 'loopback'],
    ['http://100.64.0.1/hook', 'carrier-grade NAT'],
    ['http://224.0.0.1/hook', 'multicast'],
    ['http://loopback.example.com/hook', 'resolves to 127.0.0.1'],
    ['http://localhost:3000/hook', 'loopback'],
  ])('refuses %s at creation (%s)', async (url, why) => {
    dns.answers.set('loopback.example.com', ['127.0.0.1']);
    const res = await v1Request(strict, strictKey, 'POST', '/webhook-endpoints', { url });
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.fields.url[0]).toContain('must reach a public address');
    expect(error.details.fields.url[0]).toContain(why);
  });

  it('takes a public name; a metadata address is refused even in a lab', async () => {
    dns.answers.set('hooks.example.com', ['93.184.216.34']);
    const ok = await v1Request(strict, strictKey, 'POST', '/webhook-endpoints', {
      url: 'https://hooks.example.com/rentgpu',
    });
    expect(ok.statusCode).toBe(201);
    const lab = await v1(key, 'POST', '/webhook-endpoints', {
      url: 'http://169.254.169.254/latest',
    });
    expect(lab.statusCode).toBe(400);
  });

  it('checks again at each attempt after resolving: a name rebound to loopback is not connected to', async () => {
    dns.answers.set('rebind.example.com', ['93.184.216.34']);
    const created = await v1Request(strict, strictKey, 'POST', '/webhook-endpoints', {
      url: `http://rebind.example.com:${rx.port}/rebound`,
    });
    expect(created.statusCode).toBe(201);
    const hook = created.json();
    dns.answers.set('rebind.example.com', ['127.0.0.1']);
    await v1Request(strict, strictKey, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await awaitDeliveries(strict, hook.id, 1);
    expect(await strict.app.deps.webhooks.delivery.runOnce(strict.clock.now())).toBe(1);
    expect(rx.requests).toEqual([]);
    const [row] = await deliveryRows(strict, hook.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(row?.lastError).toContain('refused');
    expect(row?.lastError).toContain('127.0.0.1');
    expect(row?.lastError).toContain('loopback');
  });

  it('connects to exactly the address it checked (one lookup per attempt), with the URL name as Host', async () => {
    dns.answers.set('pinned.example.test', ['127.0.0.1']);
    const hook = await createEndpoint({ url: `http://pinned.example.test:${rx.port}/pinned` });
    await v1(key, 'POST', `/webhook-endpoints/${hook.id}/test`);
    await awaitDeliveries(t, hook.id, 1);
    dns.calls.length = 0;
    await deliver();
    expect(dns.calls).toEqual(['pinned.example.test']);
    expect(rx.requests).toHaveLength(1);
    expect(rx.requests[0]?.headers.host).toBe(`pinned.example.test:${rx.port}`);
    verifyDelivery(hook.secret, rx.requests[0] as Received);
  });

  it('only https in production: refused at creation and at an attempt', async () => {
    const service = createWebhooksService({
      db: t.database.db,
      clock: t.clock,
      targets: { allowPrivate: false, resolve: dns.resolve },
      httpsOnly: true,
      appendEvent: async () => 0n,
    });
    dns.answers.set('hooks.example.com', ['93.184.216.34']);
    await expect(
      service.create(user.userId, {
        url: 'http://hooks.example.com/x',
        types: ['*'],
        description: '',
      }),
    ).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    const attempt = await sendAttempt({
      url: `${rx.url}/plain`,
      headers: {},
      body: '{}',
      targets: { allowPrivate: true, resolve: dns.resolve },
      httpsOnly: true,
    });
    expect(attempt).toMatchObject({ ok: false, status: null });
    expect(attempt.error).toContain('https');
    expect(rx.requests).toEqual([]);
  });
});

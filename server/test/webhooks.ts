import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { EventType } from '../../shared/contracts/events';
import type { Resolve } from '../lib/outbound-address';
import type { StoredEvent } from '../modules/events/types';
import type { TestApp } from './app';

/** One POST a receiver got. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The test clock when it came (the attempt's time: what webhook-timestamp must say). */
  at: Date;
}

type Respond = (req: Received, res: http.ServerResponse) => void | Promise<void>;

/**
 * A real webhook receiver: node:http on 127.0.0.1 that keeps every request and answers
 * with `respond` (200 "ok" unless a test sets another).
 */
export async function startReceiver(clock: { now(): Date }) {
  const requests: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const state: { respond: Respond } = {
    respond: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = {
        path: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.join(',') : (v ?? ''),
          ]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: clock.now(),
      };
      requests.push(received);
      open.add(res);
      res.on('close', () => open.delete(res));
      void state.respond(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    state,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Verifies a delivery with the `standardwebhooks` package, as a receiver would, at the time
 * it arrived (the package checks the timestamp against its own clock: the test clock moves).
 * Answers the parsed body; throws WebhookVerificationError when no signature matches.
 */
export function verifyDelivery(secret: string, received: Received): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: received.at });
  try {
    return new Webhook(secret).verify(received.body, received.headers);
  } finally {
    vi.useRealTimers();
  }
}

/** Answers for host names instead of DNS; `answers` may be changed by a test (rebinding). */
export function fakeResolver() {
  const answers = new Map<string, string[]>();
  const calls: string[] = [];
  const resolve: Resolve = async (name) => {
    calls.push(name);
    const found = answers.get(name);
    if (!found)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address }));
  };
  return { answers, calls, resolve };
}

let nextEventId = 9_000_000n;

/** A hand-made event of the log (the reader's input), with an id no real event has. */
export function storedEvent(
  accountUserId: string,
  subject: string,
  type: EventType = 'instance.ready',
  at = new Date(),
): StoredEvent {
  const [kind, id] = subject.split(':') as [StoredEvent['subjectKind'], string];
  nextEventId += 1n;
  return {
    id: nextEventId,
    type,
    at,
    accountUserId,
    subjectKind: kind,
    subjectId: id,
    subjectSeq: Number(nextEventId % 1000n),
    data: { instanceId: Number(id) || 0, state: 'running' },
  };
}

/** Runs the webhooks reader on `events` in one transaction, as the dispatcher does. */
export async function readEvents(t: TestApp, events: StoredEvent[]): Promise<void> {
  await t.database.db.transaction((tx) => t.app.deps.webhooks.reader.handle(tx, events));
}

/** The deliveries table's rows of an endpoint, oldest event first. */
export async function deliveryRows(t: TestApp, endpointId: string) {
  const result = await t.database.db.execute(sql`
    select id, event_id::text as event_id, status, attempts, next_attempt_at, claimed_until,
      last_status, last_error, response_excerpt, first_attempt_at
    from webhook_deliveries where endpoint_id = ${endpointId}::uuid order by event_id`);
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: r.id as string,
    eventId: `evt_${r.event_id as string}`,
    status: r.status as string,
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at as string) : null,
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error as string | null,
    responseExcerpt: r.response_excerpt as string | null,
  }));
}

/**
 * The event log's dispatcher reads until `endpointId` has `count` deliveries (the webhooks
 * reader made them). On PostgreSQL an event is read once every transaction older than it has
 * ended, anywhere on the server (events/repo.ts, SETTLED): another test's may be running.
 */
export async function awaitDeliveries(
  t: TestApp,
  endpointId: string,
  count: number,
  timeoutMs = 15_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await t.app.deps.eventLog.drain();
    if ((await deliveryRows(t, endpointId)).length >= count) return;
    if (Date.now() > until) {
      throw new Error(
        `endpoint ${endpointId}: fewer than ${count} deliveries after ${timeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

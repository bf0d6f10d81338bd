import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventPage, EventView } from '../../shared/contracts/events';
import { run } from '../main';
import { captureIo, type StubAnswer, type StubApi, startStubApi } from '../test/harness';
import { eventLine, eventSummary } from './event-views';

/**
 * `events list|tail` through `run`, against a stub of the public API: each
 * test says what the stub answers (it may hold a call, as the long poll does, or drop the
 * connection) and reads what the CLI asked and printed. The real app: cli-events.test.ts in
 * server/modules/public-api.
 */
type Handler = (req: IncomingMessage, url: URL, body: string) => StubAnswer | Promise<StubAnswer>;
let handler: Handler = () => ({ status: 404, json: {} });
const seen: StubApi['seen'] = [];
let api: StubApi;
let apiUrl: string;

beforeAll(async () => {
  api = await startStubApi(
    (req, body) => handler(req, new URL(req.url ?? '/', 'http://stub'), body),
    seen,
  );
  apiUrl = api.url;
});
afterAll(() => api.close());
afterEach(async () => {
  // A call the CLI gave up on (stopped) may reach the stub a moment later: let it land here,
  // not in the next test.
  await new Promise((resolve) => setTimeout(resolve, 30));
  seen.length = 0;
  // Calls the stub still holds: a test's end lets them go.
  for (const res of api.held) res.destroy();
});

interface Run {
  code: Promise<number>;
  stdout: () => string;
  stderr: () => string;
  /** The SIGINT a person would send (what `onInterrupt` listens for). */
  interrupt: () => void;
}

function start(args: string[], options: { tty?: boolean } = {}): Run {
  let stop: (() => void) | undefined;
  const { io, stdout, stderr } = captureIo(
    { apiUrl },
    {
      isTTY: options.tty ?? false,
      pollMs: 5,
      retryMs: 5,
      onInterrupt: (s) => {
        stop = s;
        return () => {
          stop = undefined;
        };
      },
    },
  );
  return {
    code: run(args, io),
    stdout,
    stderr,
    interrupt: () => stop?.(),
  };
}

async function rentgpu(args: string[], options: { tty?: boolean } = {}) {
  const r = start(args, options);
  const code = await r.code;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never: ${what}`);
}

function event(n: number, changes: Partial<EventView> = {}): EventView {
  return {
    id: `evt_${n}`,
    type: 'instance.ready',
    timestamp: '2026-11-26T17:05:09.000Z',
    subject: { kind: 'instance', id: '42', seq: n },
    data: { instanceId: 42, state: 'running', charged: '0.00', hourlyRate: '2.00' },
    ...changes,
  };
}

function page(data: EventView[], hasMore = false, cursor: string | null = null): EventPage {
  return { data, nextCursor: data.at(-1)?.id ?? cursor, hasMore };
}

describe('events list', () => {
  it('sends the filters and prints the page as the API gave it (JSON)', async () => {
    const answer = page([event(7)], true);
    handler = () => ({ json: answer });
    const res = await rentgpu([
      'events',
      'list',
      '--after',
      '5',
      '--type',
      'instance.ready,instance.stopped',
      '--type',
      'wallet.*',
      '--subject',
      'instance:42',
      '--limit',
      '2',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(answer);
    const url = new URL(seen[0]?.url ?? '', 'http://stub');
    expect(url.pathname).toBe('/api/v1/events');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      after: 'evt_5',
      types: 'instance.ready,instance.stopped,wallet.*',
      subject: 'instance:42',
      limit: '2',
    });
  });

  it('a table on a terminal, with the next page to ask for', async () => {
    handler = () => ({
      json: page(
        [
          event(7, { data: { state: 'stopped', reason: 'spend_cap', charged: '3.20' } }),
          event(8, {
            type: 'wallet.debited',
            subject: { kind: 'wallet', id: 'u1', seq: 3 },
            data: { amount: '0.033333', ledgerKind: 'metered_minute', balance: '46.800000' },
          }),
        ],
        true,
      ),
    });
    const res = await rentgpu(['events', 'list'], { tty: true });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +TIME +TYPE +SUBJECT +SUMMARY$/);
    expect(lines[1]).toMatch(
      /^evt_7 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +instance\.ready +instance:42#7 +state=stopped reason=spend_cap charged=3\.20$/,
    );
    expect(lines[2]).toMatch(
      /wallet:u1#3 +amount=0\.033333 ledgerKind=metered_minute balance=46\.80$/,
    );
    expect(lines[3]).toBe('More: --after evt_8');

    handler = () => ({ json: page([], false, 'evt_9') });
    expect((await rentgpu(['events', 'list'], { tty: true })).stdout).toBe('No events.\n');
  });

  it('refuses an unknown type, a bad cursor or subject before calling (exit 2)', async () => {
    for (const args of [
      ['--type', 'instance.exploded'],
      ['--type', 'nothing.*'],
      ['--after', 'evt_x'],
      ['--subject', 'instance'],
      ['--subject', 'planet:3'],
      ['--limit', '501'],
    ]) {
      const res = await rentgpu(['events', 'list', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
    }
    expect(seen).toEqual([]);
    const res = await rentgpu(['events', 'list', '--type', 'instance.exploded']);
    expect(res.stderr).toContain('instance.exploded is not an event type.');
  });
});

describe('event lines', () => {
  it('summarises the data a person looks for, per subject, one line', () => {
    expect(
      eventSummary(
        event(1, {
          type: 'instance.stopped',
          data: {
            instanceId: 42,
            state: 'stopped',
            previousState: 'running',
            reason: 'idle_stop',
            charged: '1.500000',
            usedCost: '0.000000',
            refund: '0.00',
            hostId: 'h_1',
          },
        }),
      ),
    ).toBe('state=stopped reason=idle_stop charged=1.50');
    expect(
      eventSummary(
        event(1, {
          type: 'instance.failed',
          data: { state: 'failed', reason: 'host_failed', error: 'disk full\nnow' },
        }),
      ),
    ).toBe('state=failed reason=host_failed error="disk full\\nnow"');
    expect(
      eventSummary(
        event(1, {
          type: 'host.offline',
          subject: { kind: 'host', id: 'h_1', seq: 2 },
          data: { hostId: 'h_1', name: 'rig', status: 'offline', offlineSince: 'x' },
        }),
      ),
    ).toBe('name=rig status=offline offlineSince=x');
    // A subject the CLI has no list for shows its plain fields.
    expect(
      eventSummary(
        event(1, {
          type: 'test.ping',
          subject: { kind: 'test', id: 't', seq: 1 },
          data: { message: 'hello', nested: { a: 1 } },
        }),
      ),
    ).toBe('message=hello');
    const line = eventLine(event(3, { data: { state: 'running' } }));
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}evt_3 {2}instance\.ready {13}instance:42#3 {2}state=running$/,
    );
    // Control characters from the data never reach the terminal as such.
    expect(
      eventLine(event(3, { subject: { kind: 'instance', id: '4\u001b[2J', seq: 1 } })),
    ).toContain('instance:4\\x1b[2J#1');
  });
});

describe('events tail', () => {
  it('finds the end of the log, then long-polls from there and prints NDJSON; --once exits after the first events', async () => {
    let follows = 0;
    handler = (_req, url) => {
      const q = url.searchParams;
      if (q.get('wait') === null) {
        // Finding the end: two pages of old events.
        return q.get('after') === null
          ? { json: page([event(1), event(2)], true) }
          : { json: page([event(3)], false) };
      }
      follows++;
      if (follows === 1) return { json: page([], false, q.get('after')) };
      return { json: page([event(4), event(5)]) };
    };
    const res = await rentgpu(['events', 'tail', '--once', '--type', 'instance.*']);
    expect(res.code, res.stderr).toBe(0);
    expect(
      res.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['evt_4', 'evt_5']);
    expect(res.stderr).toBe('Following events after evt_3…\n');
    const queries = seen.map((r) => Object.fromEntries(new URL(r.url, 'http://stub').searchParams));
    expect(queries).toEqual([
      { types: 'instance.*', limit: '500' },
      { after: 'evt_2', types: 'instance.*', limit: '500' },
      { after: 'evt_3', types: 'instance.*', limit: '100', wait: '20' },
      { after: 'evt_3', types: 'instance.*', limit: '100', wait: '20' },
    ]);
  });

  it('--after starts there; asks again at once while hasMore; a line each on a terminal', async () => {
    handler = (_req, url) => {
      const after = url.searchParams.get('after');
      if (after === 'evt_10') return { json: page([event(11)], true) };
      return { json: page([event(12)], false) };
    };
    const r = start(['events', 'tail', '--after', 'evt_10'], { tty: true });
    await until(() => r.stdout().split('\n').length > 2, 'two events printed');
    r.interrupt();
    expect(await r.code).toBe(0);
    const lines = r.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/ {2}evt_11 {2}instance\.ready +instance:42#11 {2}state=running/);
    expect(lines[1]).toContain('evt_12');
    const waits = seen.map((s) => new URL(s.url, 'http://stub').searchParams.get('wait'));
    expect(waits.slice(0, 2)).toEqual(['20', '0']);
    expect(r.stderr()).toMatch(/^Following events after evt_10 \(Ctrl-C to stop\)…\n/);
  });

  it('stops on SIGINT/SIGTERM while a call is held: exit 0, the last event said, the call ended', async () => {
    let holding = false;
    handler = (_req, url) => {
      if (url.searchParams.get('after') === 'evt_20') return { json: page([event(21)]) };
      holding = true;
      return new Promise<StubAnswer>(() => {}); // the long poll: nothing new
    };
    const r = start(['events', 'tail', '--after', 'evt_20']);
    await until(() => holding, 'the second call held');
    r.interrupt();
    expect(await r.code).toBe(0);
    expect(JSON.parse(r.stdout()).id).toBe('evt_21');
    expect(r.stderr()).toContain(
      'Stopped after evt_21 (go on from there: rentgpu events tail --after evt_21).',
    );
    await until(() => api.held.size === 0, 'the held call closed by the CLI');
  });

  it('survives a dropped connection and a 503 with a backoff, then goes on from the same cursor', async () => {
    let calls = 0;
    handler = () => {
      calls++;
      if (calls === 1) return 'drop';
      if (calls === 2) {
        return {
          status: 503,
          json: { error: { code: 'SERVICE_UNAVAILABLE', message: 'Busy.', details: {} } },
        };
      }
      return { json: page([event(31)]) };
    };
    const res = await rentgpu(['events', 'tail', '--after', 'evt_30', '--once']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe('evt_31');
    expect(res.stderr).toMatch(/Could not reach .*; trying again in 1 s\./);
    expect(res.stderr).toContain('Busy. (SERVICE_UNAVAILABLE, HTTP 503); trying again in 1 s.');
    expect(res.stderr).toContain('rentgpu: reconnected.');
    expect(seen.map((s) => new URL(s.url, 'http://stub').searchParams.get('after'))).toEqual([
      'evt_30',
      'evt_30',
      'evt_30',
    ]);
  });

  it('an answer without news that comes at once (a server that does not hold) is not asked again at once', async () => {
    handler = (_req, url) => ({ json: page([], false, url.searchParams.get('after')) });
    const r = start(['events', 'tail', '--after', 'evt_1']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    r.interrupt();
    expect(await r.code).toBe(0);
    // pollMs is 5 ms here: about 20 calls in 100 ms, not thousands.
    expect(seen.length).toBeLessThan(40);
    expect(seen.length).toBeGreaterThan(2);
  });

  it('a refused key ends it (exit 3); a bad cursor the server refuses, exit 1', async () => {
    handler = () => ({
      status: 401,
      json: { error: { code: 'UNAUTHENTICATED', message: 'Invalid API key.', details: {} } },
    });
    const res = await rentgpu(['events', 'tail', '--after', 'evt_1']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('UNAUTHENTICATED, HTTP 401');
    expect(seen).toHaveLength(1);

    handler = () => ({
      status: 400,
      json: { error: { code: 'VALIDATION_FAILED', message: 'Bad.', details: {} } },
    });
    expect((await rentgpu(['events', 'tail'])).code).toBe(1);
  });

  it('--explain prints the call it would make and sends nothing', async () => {
    const res = await rentgpu(['--explain', 'events', 'tail', '--subject', 'instance:4']);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(
      `GET ${apiUrl}/api/v1/events?subject=instance%3A4&limit=100&wait=20`,
    );
    expect(seen).toEqual([]);
  });
});

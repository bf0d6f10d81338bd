import { type Command, InvalidArgumentError } from 'commander';
import {
  EVENT_SUBJECT_KINDS,
  EVENT_TYPES,
  type EventPage,
  type EventView,
  eventIdOf,
  eventNumberOf,
} from '../../shared/contracts/events';
import { ApiError, NetworkError } from '../client';
import { table } from '../output';
import { type Ctx, positiveInt } from './context';
import { eventColumns, eventLine } from './event-views';

/** How long one call of `events tail` waits on the server for news (the API allows 0-30). */
export const TAIL_WAIT_S = 20;
/** A call of `events tail` that has not answered this long after its wait is given up. */
const CALL_GRACE_S = 15;
/** The most `events list` and the API give at once; `events tail` finds the end in such pages. */
const PAGE_MAX = 500;
/** Events per call while following. */
const TAIL_LIMIT = 100;
/** Waits after failed calls while following: 1 s, 2 s, 4 s … at most 30 s. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** The least time between two answers without news (a server that does not hold the call). */
const QUIET_GAP_MS = 1000;

const TYPE_HELP = `an event type (e.g. instance.ready) or every type of a subject (instance.*); repeat it or separate with commas`;

/** `--type`: repeatable, comma-separated; event types or `<subject>.*`, checked here. */
export function collectTypes(value: string, previous: string[] | undefined): string[] {
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const type of types) {
    const known =
      (EVENT_TYPES as readonly string[]).includes(type) ||
      (type.endsWith('.*') &&
        (EVENT_SUBJECT_KINDS as readonly string[]).includes(type.slice(0, -2)));
    if (!known) {
      throw new InvalidArgumentError(
        `${type} is not an event type. Types: ${EVENT_TYPES.join(', ')}; or a subject with .* (${EVENT_SUBJECT_KINDS.map((k) => `${k}.*`).join(', ')}).`,
      );
    }
  }
  return [...(previous ?? []), ...types];
}

/** `--after`: `evt_123` (or 123), sent as `evt_123`. */
export function afterArg(value: string): string {
  const n = eventNumberOf(value.trim());
  if (n === null) throw new InvalidArgumentError('--after must be an event id such as evt_123.');
  return eventIdOf(n);
}

/** `--subject`: `instance:42`, `host:h_…`, `wallet:<user id>`, … */
export function subjectArg(value: string): string {
  const m = /^([a-z_]+):[A-Za-z0-9_.:@-]+$/.exec(value.trim());
  if (!m || !(EVENT_SUBJECT_KINDS as readonly string[]).includes(m[1] as string)) {
    throw new InvalidArgumentError(
      `--subject must be a subject such as instance:42 (kinds: ${EVENT_SUBJECT_KINDS.join(', ')}).`,
    );
  }
  return value.trim();
}

interface Filters {
  type?: string[];
  subject?: string;
}

function filterQuery(options: Filters) {
  return {
    types: options.type && options.type.length > 0 ? options.type.join(',') : undefined,
    subject: options.subject,
  };
}

/** A failure worth waiting out while following: no answer, a 5xx, a 408 or a 429. */
function transient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return (
    error instanceof ApiError &&
    (error.status >= 500 || error.status === 408 || error.status === 429)
  );
}

/** Waits `ms`, or less when `signal` ends first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** `events list` and `events tail`: the account's event log (docs/decisions/027). */
export function registerEvents(root: Command, ctx: Ctx): void {
  const events = root
    .command('events')
    .description("your account's event log: instances, wallet, hosts, spend caps (kept 30 days)");

  const withFilters = (command: Command) =>
    command
      .option('--after <event-id>', 'only events after this one (e.g. evt_123)', afterArg)
      .option('--type <type>', TYPE_HELP, collectTypes)
      .option('--subject <subject>', 'only events about this (e.g. instance:42)', subjectArg);

  withFilters(
    events
      .command('list')
      .description('events oldest first, from the oldest kept or after --after; one page'),
  )
    .option('--limit <n>', 'at most this many (1-500, default 100)', (value: string) => {
      const n = positiveInt('--limit')(value);
      if (n > PAGE_MAX) throw new InvalidArgumentError(`--limit must be at most ${PAGE_MAX}.`);
      return n;
    })
    .action(async (options: Filters & { after?: string; limit?: number }) =>
      ctx.show(
        await ctx.api<EventPage>({
          method: 'GET',
          path: '/events',
          query: { after: options.after, ...filterQuery(options), limit: options.limit },
        }),
        (page) => {
          const more = page.hasMore && page.nextCursor ? `More: --after ${page.nextCursor}` : '';
          if (page.data.length === 0) return more || 'No events.';
          return `${table(page.data, eventColumns)}${more ? `\n${more}` : ''}`;
        },
      ),
    );

  withFilters(
    events
      .command('tail')
      .description(
        'follow new events as they happen, one a line (NDJSON with --json or when piped), until Ctrl-C',
      ),
  )
    .option('--once', 'exit after the first events that arrive (scripts: wait for one event)')
    .addHelpText(
      'after',
      `
It starts at the end of the log (the newest event that matches), unless --after is given, and
asks the server to hold each call up to ${TAIL_WAIT_S} s until something happens. Lost connections
and 5xx answers are retried (1 s, 2 s, 4 s … up to 30 s); Ctrl-C or SIGTERM stops it with
exit code 0 and says the last event seen, for --after next time.

Examples:
  rentgpu events tail --type 'instance.*' --subject instance:42
  rentgpu events tail --type instance.ready --subject instance:42 --once   # wait until it is ready
  rentgpu events tail --json | jq -r .type`,
    )
    .action((options: Filters & { after?: string; once?: boolean }) => tail(ctx, options));
}

/** Follows the log until stopped (or, with --once, until the first events are printed). */
async function tail(ctx: Ctx, options: Filters & { after?: string; once?: boolean }) {
  const { io } = ctx;
  const filters = filterQuery(options);
  if (ctx.globals().explain) {
    await ctx.api({
      method: 'GET',
      path: '/events',
      query: { after: options.after, ...filters, limit: TAIL_LIMIT, wait: TAIL_WAIT_S },
    });
    return;
  }
  const stop = new AbortController();
  const unlisten = io.onInterrupt?.(() => stop.abort()) ?? (() => {});
  const retryFirst = io.retryMs ?? RETRY_FIRST_MS;
  const quietGap = io.pollMs ?? QUIET_GAP_MS;
  let failures = 0;

  /** One call, retried while it fails for a passing reason; undefined once stopped. */
  const page = async (query: Record<string, string | number | undefined>, waitS: number) => {
    for (;;) {
      if (stop.signal.aborted) return undefined;
      try {
        const answer = await ctx.api<EventPage>({
          method: 'GET',
          path: '/events',
          query,
          signal: AbortSignal.any([
            stop.signal,
            AbortSignal.timeout((waitS + CALL_GRACE_S) * 1000),
          ]),
        });
        if (failures > 0) io.err('rentgpu: reconnected.\n');
        failures = 0;
        return answer;
      } catch (error) {
        if (stop.signal.aborted) return undefined;
        if (!transient(error)) throw error;
        const delay = Math.min(retryFirst * 2 ** failures, RETRY_MAX_MS);
        failures++;
        const why =
          error instanceof ApiError
            ? `${error.message} (${error.code}, HTTP ${error.status})`
            : (error as Error).message;
        io.err(`rentgpu: ${why}; trying again in ${Math.ceil(delay / 1000)} s.\n`);
        await pause(delay, stop.signal);
      }
    }
  };

  try {
    let cursor = options.after;
    if (cursor === undefined) {
      // The end of the log: page through what matches until nothing more is there. (The API
      // has no "newest first"; with --type or --subject only the matching events are read.)
      for (;;) {
        const p = await page({ after: cursor, ...filters, limit: PAGE_MAX }, 0);
        if (!p) return;
        cursor = p.nextCursor ?? cursor;
        if (!p.hasMore) break;
      }
    }
    io.err(
      `Following events${cursor ? ` after ${cursor}` : ''}${options.once ? '' : ' (Ctrl-C to stop)'}…\n`,
    );
    let more = false;
    for (;;) {
      const waitS = more ? 0 : TAIL_WAIT_S;
      const started = Date.now();
      const p = await page({ after: cursor, ...filters, limit: TAIL_LIMIT, wait: waitS }, waitS);
      if (!p) break;
      for (const event of p.data) print(ctx, event);
      cursor = p.nextCursor ?? cursor;
      more = p.hasMore;
      if (options.once && p.data.length > 0) return;
      const quick = quietGap - (Date.now() - started);
      if (p.data.length === 0 && quick > 0) await pause(quick, stop.signal);
    }
    io.err(
      cursor
        ? `Stopped after ${cursor} (go on from there: rentgpu events tail --after ${cursor}).\n`
        : 'Stopped.\n',
    );
  } finally {
    unlisten();
  }
}

function print(ctx: Ctx, event: EventView) {
  ctx.io.out(`${ctx.json() ? JSON.stringify(event) : eventLine(event)}\n`);
}

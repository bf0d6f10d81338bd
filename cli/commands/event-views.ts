import type { EventView } from '../../shared/contracts/events';
import { type Column, text } from '../output';
import { localSecond } from '../time';

/**
 * The fields of an event's `data` (server/db/migrations/0037_events.sql) that its one-line
 * summary shows, per subject, in this order; a field that is absent or null is skipped, and so
 * is a money field of 0.00 that only a settlement fills. A subject not listed here shows every
 * plain field. The whole event is one `--json` away.
 */
const SHOWN: Record<string, readonly string[]> = {
  instance: [
    'state',
    'reason',
    'error',
    'charged',
    'usedCost',
    'refund',
    'unreachableSince',
    'idleStopMinutes',
  ],
  wallet: ['amount', 'ledgerKind', 'balance', 'reference'],
  earnings: ['amount', 'ledgerKind', 'balance', 'reference'],
  host: ['name', 'status', 'ready', 'readyGpus', 'offlineSince'],
  spend_cap: ['scope', 'spent', 'limit', 'percent'],
  webhook_endpoint: ['url', 'reason'],
};
const ZERO_HIDDEN = new Set(['usedCost', 'refund']);
/** Dollar fields: the log writes six decimals; a terminal shows cents unless more are used. */
const MONEY = new Set(['amount', 'balance', 'charged', 'usedCost', 'refund', 'spent', 'limit']);

function money(value: string): string {
  return /^-?\d+\.\d{2}0+$/.test(value) ? value.replace(/(\.\d{2})0+$/, '$1') : value;
}
/** Longer summaries end in "…". */
const SUMMARY_MAX = 120;

/** `state=stopped reason=spend_cap charged=3.20`: the event's data on one line. */
export function eventSummary(event: EventView): string {
  const data = event.data ?? {};
  const keys = SHOWN[event.subject.kind] ?? Object.keys(data);
  const parts: string[] = [];
  for (const key of keys) {
    const value = data[key];
    if (value === null || value === undefined || typeof value === 'object') continue;
    const shown = MONEY.has(key) ? money(String(value)) : String(value);
    if (ZERO_HIDDEN.has(key) && Number(shown) === 0) continue;
    parts.push(`${key}=${/^[^\s"=]+$/.test(shown) ? shown : JSON.stringify(shown)}`);
  }
  const line = parts.join(' ');
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

/** `instance:42#3`: what it is about, and its place in that subject's sequence. */
export function eventSubject(event: EventView): string {
  return `${event.subject.kind}:${event.subject.id}#${event.subject.seq}`;
}

/** The longest type name (`instance.host_unreachable`), so followed lines align. */
const TYPE_WIDTH = 25;

/** One event as one terminal line (`events tail`), control characters made visible. */
export function eventLine(event: EventView): string {
  return [
    localSecond(event.timestamp),
    text(event.id),
    text(event.type).padEnd(TYPE_WIDTH),
    text(eventSubject(event)),
    text(eventSummary(event)),
  ]
    .join('  ')
    .trimEnd();
}

/** `events list` on a terminal. */
export const eventColumns: Column<EventView>[] = [
  ['id', (e) => e.id],
  ['time', (e) => localSecond(e.timestamp)],
  ['type', (e) => e.type],
  ['subject', eventSubject],
  ['summary', (e) => eventSummary(e) || null],
];

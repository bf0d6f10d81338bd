import type { InstanceState } from './instance-lifecycle';

/**
 * Deadlines of a metered instance (issue 23, part 5): "stop at" and "terminate at", set on
 * create or later by the web, the public API and the CLI, and carried out by the worker.
 * One rule for all of them: a deadline lies in the future and at most a year ahead, and
 * "terminate at" is not before "stop at".
 */

/** The furthest ahead a deadline may be set. */
export const MAX_DEADLINE_MS = 365 * 24 * 60 * 60_000;

export const DEADLINE_KINDS = ['stop', 'terminate'] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];

const UNIT_MS = { s: 1_000, m: 60_000, h: 60 * 60_000, d: 24 * 60 * 60_000 } as const;

/**
 * A duration as a person writes it: `90m`, `2h`, `1d`, `30s`, or several (`1h30m`). Null when
 * it is not one (no number, an unknown unit, zero).
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d{1,6}[smhd])+$/.test(trimmed)) return null;
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d{1,6})([smhd])/g)) {
    ms += Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  return ms > 0 ? ms : null;
}

/** Why a deadline cannot be set at `now` (the field's message), or null when it can. */
export function deadlineProblem(at: Date, now: Date): string | null {
  if (Number.isNaN(at.getTime())) return 'must be a date and time';
  if (at.getTime() <= now.getTime()) return 'must be in the future';
  if (at.getTime() - now.getTime() > MAX_DEADLINE_MS) return 'must be within a year from now';
  return null;
}

/**
 * Whether "terminate at" comes before "stop at", both set: the instance would end before the
 * stop, which then never happens (issue 39). Refused with 400 naming the field; equal times are
 * allowed (the terminate carries the instance past its stop).
 */
export function terminatesBeforeStop(
  stopAt: Date | null | undefined,
  terminateAt: Date | null | undefined,
): boolean {
  return Boolean(stopAt && terminateAt && terminateAt.getTime() < stopAt.getTime());
}

/**
 * The 400's words for deadlines out of order, on the field the request named: "terminate at"
 * when it sent one, else "stop at" (a new stop after a terminate already set). `stored`: the
 * other one was set before, and its time is said.
 */
export function deadlineOrderProblem(
  fields: { stopAt: string; terminateAt: string },
  on: 'stopAt' | 'terminateAt',
  other?: Date,
): string {
  const when = other ? ` (${other.toISOString()}, already set)` : '';
  return on === 'terminateAt'
    ? `${fields.terminateAt} must not be before ${fields.stopAt}${when}`
    : `${fields.stopAt} must not be after ${fields.terminateAt}${when}`;
}

/**
 * What is left until a deadline, as the card's countdown shows it: `2d 3h`, `1h 05m`,
 * `4m 09s`; `now` once it has passed (the worker acts within a minute).
 */
export function countdown(at: string | Date, now: number): string {
  const left = new Date(at).getTime() - now;
  if (!(left > 0)) return 'now';
  const s = Math.floor(left / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${pad(m)}m`;
  return `${m}m ${pad(s % 60)}s`;
}

/**
 * What a deadline's line says while the instance's own state has overtaken it, instead of a
 * countdown: a "stop at" once it is stopping or stopped (a start before the time brings the
 * countdown back; the worker clears it at the time), a "terminate at" once it is terminating.
 * Null while the deadline still counts down.
 */
export function deadlineOvertaken(kind: DeadlineKind, state: InstanceState): string | null {
  if (kind === 'stop' && state === 'stopping') return 'Stopping now: the stop time is not needed';
  if (kind === 'stop' && state === 'stopped')
    return 'Stopped: the stop time applies if it is started again';
  if (kind === 'terminate' && state === 'terminating') return 'Terminating now';
  return null;
}

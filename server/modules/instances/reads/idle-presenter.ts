import type { Instance } from '../repo-rows';
import type { IdleStop } from '../types';

type IdleColumns = Pick<
  Instance,
  | 'idleStopMinutes'
  | 'idleThresholdPercent'
  | 'lastActiveAt'
  | 'idleWarnedAt'
  | 'stateChangedAt'
  | 'status'
  | 'endTime'
>;

/**
 * When a running instance with idle stop on is stopped if it stays idle (docs/decisions/019):
 * its idle period's start plus its minutes; null when idle stop is off or it is not running.
 */
export function idleStopAt(instance: IdleColumns): Date | null {
  const minutes = instance.idleStopMinutes ?? 0;
  if (minutes <= 0 || instance.status !== 'running' || instance.endTime !== null) return null;
  const last = instance.lastActiveAt ?? instance.stateChangedAt;
  const since = last > instance.stateChangedAt ? last : instance.stateChangedAt;
  return new Date(since.getTime() + minutes * 60_000);
}

/** An instance's idle stop as a surface names it (`idle_stop_minutes` on /api/kvm, camelCase on /api/v1). */
export function idleIn<M extends string, T extends string, A extends string, W extends string>(
  instance: IdleColumns,
  keys: [minutes: M, threshold: T, stopAt: A, warnedAt: W],
): Record<M | T, number> & Record<A | W, string | null> {
  const at = idleStopAt(instance);
  const [minutes, threshold, stopAt, warnedAt] = keys;
  return {
    [minutes]: instance.idleStopMinutes ?? 0,
    [threshold]: instance.idleThresholdPercent,
    [stopAt]: at?.toISOString() ?? null,
    [warnedAt]: at ? (instance.idleWarnedAt?.toISOString() ?? null) : null,
  } as Record<M | T, number> & Record<A | W, string | null>;
}

/** The idle stop a request names: each field given, the rest left out. */
export function requestedIdleStop(
  minutes: number | undefined,
  thresholdPercent: number | undefined,
): Partial<IdleStop> {
  return {
    ...(minutes === undefined ? {} : { minutes }),
    ...(thresholdPercent === undefined ? {} : { thresholdPercent }),
  };
}

import type { Instance } from '../repo-rows';
import type { Deadlines } from '../types';

/**
 * An instance's deadlines as a surface names them (`stop_at` on /api/kvm, `stopAt` on
 * /api/v1): ISO times, null where none is set or once it has ended (nothing is left to do).
 */
export function deadlinesIn<S extends string, T extends string>(
  instance: Pick<Instance, 'stopAt' | 'terminateAt' | 'endTime'>,
  stopKey: S,
  terminateKey: T,
): Record<S | T, string | null> {
  const live = instance.endTime === null;
  return {
    [stopKey]: live ? (instance.stopAt?.toISOString() ?? null) : null,
    [terminateKey]: live ? (instance.terminateAt?.toISOString() ?? null) : null,
  } as Record<S | T, string | null>;
}

const dateOrNull = (at: string | null | undefined) =>
  at === undefined ? undefined : at === null ? null : new Date(at);

/** The deadlines a request names, from its ISO times: a time sets one, null clears it, absent leaves it. */
export function requestedDeadlines(
  stopAt: string | null | undefined,
  terminateAt: string | null | undefined,
): Deadlines {
  const stop = dateOrNull(stopAt);
  const terminate = dateOrNull(terminateAt);
  return {
    ...(stop === undefined ? {} : { stopAt: stop }),
    ...(terminate === undefined ? {} : { terminateAt: terminate }),
  };
}

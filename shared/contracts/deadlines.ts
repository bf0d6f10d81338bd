import { z } from 'zod';
import { deadlineOrderProblem, terminatesBeforeStop } from '../rules/deadlines';

/**
 * A deadline in a request body (issue 23, part 5): an ISO 8601 date and time with its offset
 * (`Z` or `+02:00`). Whether it lies in the future and within a year is the server's check
 * (shared/rules/deadlines.ts; it needs the server's clock).
 */
export const deadlineAt = (field: string) =>
  z.iso.datetime({
    offset: true,
    message: `${field} must be a date and time (ISO 8601, e.g. 2030-01-01T12:00:00Z)`,
  });

const dateOf = (at: string | null | undefined) => (at ? new Date(at) : null);

/**
 * A body's deadlines in order, as a refine's arguments: when it sends both, "terminate at" is
 * not before "stop at" (shared/rules/deadlines.ts), or 400 on the terminate field. Against a
 * deadline already stored, the server checks (server/modules/instances/commands/deadlines.ts).
 */
export function deadlinesInOrder<S extends string, T extends string>(
  stop: S,
  terminate: T,
): [
  check: (body: Partial<Record<S | T, string | null>>) => boolean,
  params: { message: string; path: string[] },
] {
  return [
    (body) => !terminatesBeforeStop(dateOf(body[stop]), dateOf(body[terminate])),
    {
      message: deadlineOrderProblem({ stopAt: stop, terminateAt: terminate }, 'terminateAt'),
      path: [terminate],
    },
  ];
}

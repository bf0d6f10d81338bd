import { z } from 'zod';

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

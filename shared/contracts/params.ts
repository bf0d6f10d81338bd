import { z } from 'zod';

/** Path parameters shared by several routes. */
/** A database serial id: a positive integer that fits PostgreSQL's integer. */
export const serialId = z.coerce
  .number({ message: 'Not an id' })
  .int({ message: 'Not an id' })
  .positive({ message: 'Not an id' })
  .max(2_147_483_647, { message: 'Not an id' });

/**
 * A serial id in a JSON body: a number as sent, not coerced (the OpenAPI document says
 * integer, so "1", true or [1] are refused with 400 rather than read as 1).
 */
export const bodySerialId = z
  .number({ message: 'Not an id' })
  .int({ message: 'Not an id' })
  .positive({ message: 'Not an id' })
  .max(2_147_483_647, { message: 'Not an id' });

export const idParam = z.object({ id: serialId });
export const userIdParam = z.object({ userId: z.string().uuid({ message: 'Not a user id' }) });
export const providerIdParam = z.object({ providerId: serialId });
export const uuidIdParam = (message: string) => z.object({ id: z.string().uuid({ message }) });

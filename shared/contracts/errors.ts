import { z } from 'zod';
import { ERROR_CODES } from '../error-codes';

/**
 * Every error answer of the API (docs/rules.md, Errors): a stable code, a message and details,
 * always an object. Routes declare it for their 4xx and 5xx answers.
 */
export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  // One named component in the public API's OpenAPI document.
  .meta({ id: 'Error' });

/** The error statuses every route may answer, for a route's `schema.response`. */
export const errorResponses = { '4xx': errorBody, '5xx': errorBody } as const;

/** A 204 (or a redirect): no body. */
export const noContent = z.undefined();

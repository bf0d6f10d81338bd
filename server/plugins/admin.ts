import type { FastifyRequest } from 'fastify';
import { notFound } from '../lib/errors';
import type { RequestAuth } from './session';

/**
 * Admin-only routes (users.is_admin) answer everyone else, signed in or not, exactly as an
 * unknown API route does: 404, so their existence is not advertised.
 */
export function requireAdmin(request: FastifyRequest): RequestAuth {
  const auth = request.auth;
  if (!auth?.isAdmin) throw notFound('API route');
  return auth;
}

/** requireAdmin as a route's `preValidation` hook: 404 before any input is checked. */
export async function adminOnly(request: FastifyRequest): Promise<void> {
  requireAdmin(request);
}

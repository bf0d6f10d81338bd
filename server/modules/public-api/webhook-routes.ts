import type { FastifyInstance } from 'fastify';
import { registerWebhookOperations } from '../webhooks/operations';
import { keyIdempotency, requireKey } from './access';

/**
 * The account's webhook endpoints (registered inside publicApiRoutes): reads need the `read`
 * permission, changes `write`; every change honours Idempotency-Key.
 */
export function registerWebhookRoutes(app: FastifyInstance): void {
  registerWebhookOperations(app, {
    base: '/webhook-endpoints',
    userOf: (request) => requireKey(request).userId,
    config: (change) =>
      change ? { permission: 'write', ...keyIdempotency } : { permission: 'read' },
    documented: true,
  });
}

import type { FastifyInstance } from 'fastify';
import { requireUser, signedIn } from '../../plugins/session';
import { registerWebhookOperations } from './operations';

/** Settings → Webhooks: the signed-in user's endpoints (identity from the session only). */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  registerWebhookOperations(app, {
    base: '/api/webhook-endpoints',
    userOf: (request) => requireUser(request).userId,
    preValidation: signedIn,
    config: () => ({}),
    documented: false,
  });
}

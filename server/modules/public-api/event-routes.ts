import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { eventPage, listEventsQuery } from '../../../shared/contracts/events';
import { requireKey } from './access';

/**
 * The event log by cursor (docs/decisions/027): GET /api/v1/events (registered inside
 * publicApiRoutes). Read permission.
 */
export function registerEventRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { events } = app.deps;
  app.get(
    '/events',
    {
      schema: {
        tags: ['Events'],
        operationId: 'listEvents',
        summary: 'Your events after a cursor, oldest first',
        description:
          'Every state and money change of your account as an event (instance.*, wallet.*, spend_cap.*, and for providers host.* and earnings.*), in the order they happened. Pass the last page’s `nextCursor` as `after` to read on; `wait` (seconds, up to 30) holds the request until a first new event arrives. Events are kept 30 days. Each event’s `subject.seq` counts 1, 2, 3… per subject.',
        querystring: listEventsQuery,
        response: { 200: eventPage, ...errorResponses },
      },
    },
    async (request) => {
      const key = requireKey(request);
      return events.list(key.userId, request.query);
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '../../../shared/contracts/errors';
import { healthResponse } from '../../../shared/contracts/health';

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  const startedAt = Date.now();

  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse, '4xx': errorBody } } },
    async (_request, reply) => {
      const begin = performance.now();
      let ok = true;
      try {
        await database.ping();
      } catch {
        ok = false;
      }
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: {
          ok,
          driver: database.driver,
          latencyMs: Math.round((performance.now() - begin) * 100) / 100,
        },
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '../../../shared/contracts/errors';
import { healthResponse } from '../../../shared/contracts/health';

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { health } = app.deps;
  const startedAt = Date.now();

  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse, '4xx': errorBody } } },
    async (_request, reply) => {
      const check = await health.checkDatabase();
      return reply.status(check.ok ? 200 : 503).send({
        status: check.ok ? 'ok' : 'degraded',
        database: check,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      });
    },
  );
}

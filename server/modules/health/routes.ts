import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody } from '../../../shared/contracts/errors';
import { healthResponse, livenessResponse } from '../../../shared/contracts/health';

/**
 * The load balancer's probes (docs/architecture.md, "Start-up and shutdown"): readiness at
 * /api/health (the database answers and the process is not draining), liveness at
 * /api/health/live (the process answers; restart it when this fails).
 */
export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { health } = app.deps;
  const startedAt = Date.now();
  const uptimeSeconds = () => Math.round((Date.now() - startedAt) / 1000);

  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse, '4xx': errorBody } } },
    async (_request, reply) => {
      const check = await health.checkDatabase();
      const status = health.draining ? 'draining' : check.ok ? 'ok' : 'degraded';
      return reply.status(status === 'ok' ? 200 : 503).send({
        status,
        database: check,
        uptimeSeconds: uptimeSeconds(),
      });
    },
  );

  app.get(
    '/api/health/live',
    { schema: { response: { 200: livenessResponse, '4xx': errorBody } } },
    async () => ({ status: 'ok' as const, uptimeSeconds: uptimeSeconds() }),
  );
}

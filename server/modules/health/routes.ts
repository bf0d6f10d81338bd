import type { FastifyInstance } from 'fastify';
import type { HealthResponse } from '../../../shared/contracts/health';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { database } = app.deps;
  const startedAt = Date.now();

  app.get('/api/health', async (_request, reply) => {
    const begin = performance.now();
    let ok = true;
    try {
      await database.ping();
    } catch {
      ok = false;
    }
    const body: HealthResponse = {
      status: ok ? 'ok' : 'degraded',
      database: {
        ok,
        driver: database.driver,
        latencyMs: Math.round((performance.now() - begin) * 100) / 100,
      },
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    };
    return reply.status(ok ? 200 : 503).send(body);
  });
}

import { z } from 'zod';

/**
 * GET /api/health, the readiness probe: 200 `ok` while this process should get traffic; 503
 * `degraded` when its database does not answer, `draining` from SIGTERM until it stops
 * (docs/architecture.md, "Start-up and shutdown").
 */
export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'draining']),
  database: z.object({
    ok: z.boolean(),
    driver: z.enum(['pglite', 'postgres']),
    latencyMs: z.number(),
  }),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** GET /api/health/live, the liveness probe: 200 for as long as the process answers at all. */
export const livenessResponse = z.object({
  status: z.literal('ok'),
  uptimeSeconds: z.number(),
});
export type LivenessResponse = z.infer<typeof livenessResponse>;

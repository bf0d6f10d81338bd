import type { Database } from '../../db/client';

/**
 * Whether this process can serve: its database answers, and it is not draining
 * (app.deps.health, GET /api/health).
 */
export function createHealthService(database: Pick<Database, 'ping' | 'driver'>) {
  let draining = false;
  return {
    /** A round trip to the database: whether it answered, and how long it took. */
    async checkDatabase(): Promise<{ ok: boolean; driver: Database['driver']; latencyMs: number }> {
      const begin = performance.now();
      let ok = true;
      try {
        await database.ping();
      } catch {
        ok = false;
      }
      return {
        ok,
        driver: database.driver,
        latencyMs: Math.round((performance.now() - begin) * 100) / 100,
      };
    },

    /**
     * Readiness off for good (SIGTERM, server/main.ts): /api/health answers 503 so the load
     * balancer sends no new requests here, while everything else is still served.
     */
    startDraining(): void {
      draining = true;
    },

    get draining(): boolean {
      return draining;
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;

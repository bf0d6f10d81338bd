import type { Database } from '../../db/client';

/** Whether this process can serve: its database answers (app.deps.health, GET /api/health). */
export function createHealthService(database: Pick<Database, 'ping' | 'driver'>) {
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
  };
}

export type HealthService = ReturnType<typeof createHealthService>;

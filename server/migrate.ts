import path from 'node:path';
import { openDatabase } from './db/client';
import { ConfigError, parseEnv } from './env';

/**
 * `npm run migrate`: applies the migrations to DATABASE_URL (else the embedded database in
 * DATA_DIR) and exits, for deployments that migrate before rolling out new processes. The
 * server does the same at every start, under the same advisory lock, so running both is safe.
 */
async function migrate(): Promise<void> {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const startedAt = performance.now();
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL, poolSize: 1 })
    : await openDatabase({ kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'pglite') });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  const where = env.DATABASE_URL
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded PGlite in ${env.DATA_DIR}`;
  process.stdout.write(
    `migrations applied to ${where} in ${Math.round(performance.now() - startedAt)} ms\n`,
  );
}

migrate().catch((error) => {
  console.error(error);
  process.exit(1);
});

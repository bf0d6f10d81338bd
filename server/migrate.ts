import { databaseWhere, envOrExit, openConfiguredDatabase } from './configured';

/**
 * `npm run migrate`: applies the migrations to DATABASE_URL (else the embedded database in
 * DATA_DIR) and exits, for deployments that migrate before rolling out new processes. The
 * server does the same at every start, under the same advisory lock, so running both is safe.
 */
async function migrate(): Promise<void> {
  const env = envOrExit();
  const startedAt = performance.now();
  const database = await openConfiguredDatabase(env, 1);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  process.stdout.write(
    `migrations applied to ${databaseWhere(env)} in ${Math.round(performance.now() - startedAt)} ms\n`,
  );
}

migrate().catch((error) => {
  console.error(error);
  process.exit(1);
});

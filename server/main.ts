import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createApp } from './app';
import { databaseWhere, envOrExit, openConfiguredDatabase } from './configured';
import { type Env, publicUrlOf } from './env';
import { seedDemoDataOnce } from './seed/seed';

/** The argument that has this file make the embedded database ready and exit. */
const PREPARE_ONLY = '--prepare-embedded-database';

/**
 * A new embedded database is made (initdb, every migration, the demo data) in a process of its
 * own, which then exits, before the server opens it (issue 43). The embedded PostgreSQL's
 * WebAssembly memory only grows: making the database took it to about 800 MiB at its peak and
 * left 100–180 MiB more resident for the server's lifetime than opening a made one does.
 * Nothing to do with DATABASE_URL, or when DATA_DIR already holds a database.
 */
function prepareNewEmbeddedDatabase(env: Env): void {
  if (env.DATABASE_URL || process.argv.includes(PREPARE_ONLY)) return;
  if (existsSync(path.join(env.DATA_DIR, 'pglite', 'PG_VERSION'))) return;
  const script = process.argv[1];
  if (!script) return;
  // The child inherits this process's environment (spawnSync's default).
  const made = spawnSync(process.execPath, [...process.execArgv, script, PREPARE_ONLY], {
    stdio: 'inherit',
  });
  if (made.status !== 0) {
    throw new Error(`making the embedded database in ${env.DATA_DIR} failed (${made.status})`);
  }
}

/** The only file that listens (docs/architecture.md, Folders); server/app.ts builds the app. */
async function main(): Promise<void> {
  const env = envOrExit();
  const startedAt = performance.now();
  prepareNewEmbeddedDatabase(env);
  const database = await openConfiguredDatabase(env);
  // Both under an advisory lock: processes started together on one PostgreSQL take turns.
  await database.migrate();
  const app = await createApp({ env, database });
  if (env.SEED_DEMO_DATA === 'true') {
    const report = await seedDemoDataOnce(database, app.deps);
    if (Object.values(report).some((n) => n > 0)) {
      app.log.info(report, 'demo data seeded');
    }
  }
  if (process.argv.includes(PREPARE_ONLY)) {
    await app.close();
    await database.close();
    return;
  }

  if (env.PAYPAL_MODE === 'local-sandbox') {
    app.log.info(
      'PayPal is not configured: Add Credits uses the built-in PayPal sandbox (no real money)',
    );
  }

  if (env.ALLOW_PRIVATE_HOST_ADDRESSES) {
    app.log.warn(
      'ALLOW_PRIVATE_HOST_ADDRESSES is on: hosts may name, renters be sent to and the web console connect to loopback and private addresses (a lab, never a public server)',
    );
  }
  if (env.CONSOLE_PRIVATE_TARGETS !== undefined) {
    app.log.warn(
      'CONSOLE_PRIVATE_TARGETS is deprecated: ALLOW_PRIVATE_HOST_ADDRESSES=1 is what `allow` meant',
    );
  }

  // The one timer loop: every scheduled duty is a job of the worker (server/worker/jobs.ts).
  const worker = app.deps.worker.start(app.deps.clock, env.WORKER_INTERVAL_MS);
  // Webhook deliveries run beside the worker's jobs, never inside them (docs/decisions/027): a
  // slow endpoint holds only its own places, not the worker's pass.
  const webhookLoop = app.deps.webhooks.delivery.start(app.deps.clock);

  // SIGTERM (docs/architecture.md, "Start-up and shutdown"): readiness off for
  // SHUTDOWN_GRACE_MS while everything is still served, so the load balancer takes this
  // process out of rotation first; then stop accepting, finish in-flight requests and the
  // worker's pass, and exit. A second signal ends the grace at once.
  let closing = false;
  let endGrace: (() => void) | null = null;
  const shutdown = async (signal: string) => {
    if (closing) {
      endGrace?.();
      return;
    }
    closing = true;
    app.deps.health.startDraining();
    // Held long polls are answered now: their agents ask again on a new connection, which
    // the load balancer sends to a process still in rotation (waits taken meanwhile are
    // answered when the server closes).
    app.deps.hosts.releaseWaits();
    if (env.SHUTDOWN_GRACE_MS > 0) {
      app.log.info(
        { signal, graceMs: env.SHUTDOWN_GRACE_MS },
        'draining: /api/health answers 503, requests are still served',
      );
      await new Promise<void>((resolve) => {
        const grace = setTimeout(resolve, env.SHUTDOWN_GRACE_MS);
        endGrace = () => {
          clearTimeout(grace);
          resolve();
        };
      });
    }
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    await worker.stop();
    await webhookLoop.stop();
    await app.close();
    // Last: the app's own closing (console places given back, signals sent) still uses it.
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  const where = databaseWhere(env);
  const loopback = env.HOST === '127.0.0.1' || env.HOST === 'localhost' || env.HOST === '::1';
  const everywhere = env.HOST === '0.0.0.0' || env.HOST === '::';
  const url = publicUrlOf(env, port);
  const reach = loopback
    ? 'this computer only (set HOST=0.0.0.0 to listen on every interface)'
    : everywhere
      ? 'every network interface'
      : env.HOST;
  // A lab's setting is said where it cannot be missed (docs/decisions/013).
  const lab = env.ALLOW_PRIVATE_HOST_ADDRESSES
    ? '  private host addresses: ALLOWED (ALLOW_PRIVATE_HOST_ADDRESSES; a lab: hosts, renters and the web console may use loopback and private addresses)\n'
    : '';
  process.stdout.write(
    `\n  RentGPU is running at ${url}\n  listening on: ${reach}\n  database: ${where}\n${lab}  ready in ${Math.round(performance.now() - startedAt)} ms\n\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

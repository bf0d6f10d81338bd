import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client';
import type { Env } from './env';
import type { Clock } from './lib/clock';
import type { Mailer } from './lib/mailer';
import type { PaypalClient } from './lib/paypal';
import type { RateLimiter } from './lib/rate-limit';
import { ReadCache } from './lib/read-cache';
import { createAccountService } from './modules/account/service';
import { createAuthService } from './modules/auth/service';
import { createDemoHost } from './modules/hosts/demo-host';
import { createHostsService } from './modules/hosts/service';
import { createInstancesService } from './modules/instances/service';
import { createAccountBook } from './modules/ledger/accounts';
import { createInstanceAlerts } from './modules/notifications/service';
import { createPaymentsService } from './modules/payments/service';
import type { AppDeps } from './types';
import { createWorker } from './worker';
import { instanceJobs } from './worker/jobs';

export interface Infrastructure {
  env: Env;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  paypal: PaypalClient | null;
  log: FastifyBaseLogger;
}

/**
 * The composition root: every service is built once, here, from the infrastructure, and
 * routes reach them through app.deps (they never pass database handles into services).
 */
export function buildDeps(infra: Infrastructure): AppDeps {
  const { env, database, clock, mailer, limiter, paypal, log } = infra;
  const db = database.db;
  const readCache = new ReadCache<{ body: string; nextCursor: string | null }>(
    env.READ_CACHE_TTL_MS,
  );
  const accounts = createAccountBook(db);
  const instances = createInstancesService(db, accounts, {
    platformFeeBps: env.PLATFORM_FEE_BPS,
    provisioningTimeoutMs: env.PROVISIONING_TIMEOUT_MS,
    onChange: () => readCache.invalidate(),
    onInstanceEvent: createInstanceAlerts({ db, mailer, log }),
  });
  const hosts = createHostsService({ instances, clock });
  const demoHost = createDemoHost({ hosts, instances, delayMs: env.DEMO_PROVISIONING_DELAY_MS });
  return {
    env,
    database,
    clock,
    mailer,
    limiter,
    auth: createAuthService({ db, clock, mailer, limiter, log }),
    instances,
    hosts,
    worker: createWorker(instanceJobs({ instances, demoHost }), log),
    paypal,
    payments: createPaymentsService({
      db,
      paypal,
      clientId: env.PAYPAL_CLIENT_ID ?? null,
      sdkUrl: env.PAYPAL_SDK_URL,
      clock,
      mailer,
      limiter,
      log,
    }),
    account: createAccountService({ db, clock, instances }),
    readCache,
  };
}

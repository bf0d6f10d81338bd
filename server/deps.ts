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
import { createDemoService } from './modules/demo/service';
import { createDeployService } from './modules/deploy/service';
import { createDemoHost } from './modules/hosts/demo-host';
import { createOutageCredits } from './modules/hosts/outage-credits';
import { createHostsService } from './modules/hosts/service';
import { createHostWake } from './modules/hosts/wake';
import { createImages } from './modules/images/catalogue';
import { createInstancesService } from './modules/instances/service';
import { createVmService } from './modules/instances/vm-service';
import { createAccountBook } from './modules/ledger/accounts';
import { createHostAlerts, createInstanceAlerts } from './modules/notifications/service';
import type { LocalPaypalSandbox } from './modules/payments/sandbox/paypal-api';
import { createPaymentsService } from './modules/payments/service';
import type { AppDeps } from './types';
import { createWorker } from './worker';
import { instanceJobs } from './worker/jobs';

export interface Infrastructure {
  env: Env;
  /** Where this server is reached (PUBLIC_URL, or the listen address outside production). */
  publicUrl: () => string;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  paypal: PaypalClient | null;
  /** The local sandbox behind `paypal`, when that is what it talks to (PAYPAL_MODE). */
  paypalSandbox: LocalPaypalSandbox | null;
  log: FastifyBaseLogger;
}

/**
 * The composition root: every service is built once, here, from the infrastructure, and
 * routes reach them through app.deps (they never pass database handles into services).
 */
export function buildDeps(infra: Infrastructure): AppDeps {
  const { env, publicUrl, database, clock, mailer, limiter, paypal, paypalSandbox, log } = infra;
  const db = database.db;
  const readCache = new ReadCache<{ body: string | Buffer; nextCursor: string | null }>(
    env.READ_CACHE_TTL_MS,
  );
  const accounts = createAccountBook(db);
  // A renter's action on an instance wakes its host's waiting agent (agent long poll).
  const wake = createHostWake();
  // The image catalogue: a constant of this process (docs/decisions/015-os-images.md).
  const images = createImages(env.IMAGE_CATALOGUE);
  const instances = createInstancesService(db, accounts, {
    platformFeeBps: env.PLATFORM_FEE_BPS,
    images,
    provisioningTimeoutMs: env.PROVISIONING_TIMEOUT_MS,
    onChange: () => readCache.invalidate(),
    onInstanceEvent: createInstanceAlerts({ db, mailer, log }),
    onHostWork: wake.wake,
  });
  const hosts = createHostsService({
    db,
    instances,
    clock,
    heartbeatIntervalMs: env.AGENT_HEARTBEAT_INTERVAL_MS,
    onEvent: createHostAlerts({ db, mailer, log }),
    wake,
    hostAddressAllowlist: env.HOST_ADDRESS_ALLOWLIST,
    images,
    log,
  });
  const demo = createDemoService({ db, clock });
  const demoHost = createDemoHost({ hosts, instances, delayMs: env.DEMO_PROVISIONING_DELAY_MS });
  return {
    env,
    publicUrl,
    database,
    clock,
    mailer,
    limiter,
    auth: createAuthService({
      db,
      clock,
      mailer,
      limiter,
      log,
      // Demo Login needs the demo world (demo hosts, the seed's shapes).
      demo: env.SEED_DEMO_DATA === 'true' ? demo : null,
      demoLoginsPerHour: env.DEMO_LOGINS_PER_HOUR,
      codesPerIpPerHour: env.CODES_PER_IP_PER_HOUR,
      triesPerIpPer15Min: env.CODE_TRIES_PER_IP_PER_15_MIN,
    }),
    instances,
    deploy: createDeployService(db, instances, {
      images,
      demoProvisioningDelayMs: env.DEMO_PROVISIONING_DELAY_MS,
      workerIntervalMs: env.WORKER_INTERVAL_MS,
      heartbeatIntervalMs: env.AGENT_HEARTBEAT_INTERVAL_MS,
    }),
    hosts,
    vms: createVmService({ db, instances, hosts, images }),
    images,
    worker: createWorker(
      instanceJobs({
        instances,
        demoHost,
        hosts,
        outageCredits: createOutageCredits({ accounts }),
      }),
      log,
    ),
    paypal,
    paypalSandbox,
    payments: createPaymentsService({
      db,
      paypal,
      clientId: paypalSandbox ? paypalSandbox.clientId : (env.PAYPAL_CLIENT_ID ?? null),
      sdkUrl: env.PAYPAL_SDK_URL,
      sandbox: paypalSandbox,
      clock,
      mailer,
      limiter,
      log,
    }),
    account: createAccountService({
      db,
      clock,
      instances,
      demo,
      onListingsChange: () => readCache.invalidate(),
      log,
    }),
    readCache,
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/client';
import type { Env } from './env';
import type { Clock } from './lib/clock';
import { idempotencyStore } from './lib/idempotency';
import type { LeasedSlots } from './lib/leased-slots';
import type { Mailer } from './lib/mailer';
import { type Resolve, systemResolve } from './lib/outbound-address';
import type { PaypalClient } from './lib/paypal';
import type { RateLimiter } from './lib/rate-limit';
import { ReadCache } from './lib/read-cache';
import type { Signals } from './lib/signals';
import { signalsFor } from './lib/signals-postgres';
import { type AccountExport, createAccountExport } from './modules/account/export';
import { type AccountService, createAccountService } from './modules/account/service';
import { type ApiKeysService, createApiKeysService } from './modules/api-keys/service';
import { type AuthService, createAuthService } from './modules/auth/service';
import { type ContactService, createContactService } from './modules/contact/service';
import { createDemoService } from './modules/demo/service';
import { createDeployService, type DeployService } from './modules/deploy/service';
import { createEventDispatcher, type EventDispatcher } from './modules/events/dispatcher';
import { eventHintOf } from './modules/events/hints';
import { eventsRepo } from './modules/events/repo';
import { createEventsService, type EventsService } from './modules/events/service';
import { createHealthService, type HealthService } from './modules/health/service';
import { createDemoHost } from './modules/hosts/demo-host';
import { createOutageCredits } from './modules/hosts/outage-credits';
import {
  createProviderHostsService,
  type ProviderHostsService,
} from './modules/hosts/provider-hosts';
import { createHostsService, type HostsService } from './modules/hosts/service';
import { createHostWake } from './modules/hosts/wake';
import { createImages, type Images } from './modules/images/catalogue';
import { createConsoleSlots } from './modules/instances/console/slots';
import { createInstancesService, type InstancesService } from './modules/instances/service';
import { createVmService, type VmService } from './modules/instances/surfaces/vm-service';
import { createInvoicesService, type InvoicesService } from './modules/invoices/service';
import { createAccountBook } from './modules/ledger/accounts';
import { createListingsService, type ListingsService } from './modules/listings/service';
import { createNewsletterService, type NewsletterService } from './modules/newsletter/service';
import { createMailReader } from './modules/notifications/event-mail';
import type { LocalPaypalSandbox } from './modules/payments/sandbox/paypal-api';
import { createPaymentsService, type PaymentsService } from './modules/payments/service';
import { createWalletService, type WalletService } from './modules/payments/wallet';
import {
  createProviderApplicationsService,
  type ProviderApplicationsService,
} from './modules/provider-applications/service';
import { createProvidersService, type ProvidersService } from './modules/providers/service';
import { createInstanceBilling, type InstanceBilling } from './modules/public-api/billing';
import { createSshKeysService, type SshKeysService } from './modules/ssh-keys/service';
import { createUsersService, type UsersService } from './modules/users/service';
import { createWebhooks, type Webhooks } from './modules/webhooks/create';
import { createWorker, type Worker } from './worker';
import { housekeepingJobs, instanceJobs } from './worker/jobs';

/**
 * Everything a route reaches (app.deps): built once by buildDeps from the parsed configuration.
 * Each service's type is the one its module exports; routes call services and never hold a
 * database handle (.dependency-cruiser.cjs keeps route files off server/db/ and repos).
 */
export interface AppDeps {
  env: Env;
  /**
   * Where hosts and browsers reach this server (PUBLIC_URL, else the listen address outside
   * production): absolute URLs shown to users, such as the host install command, use it.
   */
  publicUrl: () => string;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  /**
   * Where renters may be sent and the console may connect (shared/rules/target-address.ts):
   * ALLOW_PRIVATE_HOST_ADDRESSES, and how names are looked up.
   */
  targets: { allowPrivate: boolean; resolve: Resolve };
  /** Web consoles open per user, across every server process (Redis or the database). */
  consoleSlots: LeasedSlots;
  auth: AuthService;
  /** Every GPU machine: marketplace rentals (booked) and metered instances. */
  instances: InstancesService;
  /** Instant Deploy: templates on the cheapest rentable GPU of a type (metered instances). */
  deploy: DeployService;
  /** Where hosts report what happened to instances. */
  hosts: HostsService;
  /** The VM dashboard (/api/kvm) over metered instances. */
  vms: VmService;
  /** The OS image catalogue (docs/decisions/015-os-images.md): a constant of this process. */
  images: Images;
  /** The worker's named jobs (server/worker); main.ts starts its timer. */
  worker: Worker;
  /**
   * The event log's readers in this process (docs/decisions/027): e-mail, host wakes, cache
   * drops, webhooks. Started and closed with the app (server/app.ts).
   */
  eventLog: EventDispatcher;
  /** The log read by cursor (GET /api/v1/events). */
  events: EventsService;
  /**
   * PayPal's REST API: the real one from PAYPAL_CLIENT_ID/SECRET, the in-process local sandbox
   * (PAYPAL_MODE local-sandbox), or null ("not configured").
   */
  paypal: PaypalClient | null;
  /** The local sandbox behind `paypal`, when that is what it talks to. */
  paypalSandbox: LocalPaypalSandbox | null;
  payments: PaymentsService;
  account: AccountService;
  /** Download Account Data (GET /api/users/:userId/export). */
  accountExport: AccountExport;
  /** The wallet's balance, history and spending summary (payments). */
  wallet: WalletService;
  /** One instance's usage and invoice from the ledger (public API). */
  instanceBilling: InstanceBilling;
  invoices: InvoicesService;
  users: UsersService;
  providers: ProvidersService;
  /** Provider applications: submitted by users, reviewed by admins. */
  providerApplications: ProviderApplicationsService;
  /** The provider dashboard's hosts (enrolment, public name, removal). */
  providerHosts: ProviderHostsService;
  listings: ListingsService;
  sshKeys: SshKeysService;
  apiKeys: ApiKeysService;
  /**
   * Signed webhooks (docs/decisions/027): the endpoints' service, the event log's `webhooks`
   * reader and the delivery loop, which main.ts starts beside the worker.
   */
  webhooks: Webhooks;
  contact: ContactService;
  newsletter: NewsletterService;
  /** GET /api/health: whether the database answers. */
  health: HealthService;
  /**
   * Public read answers (listing pages, stats) as bytes (or text), sent as they are;
   * invalidate() after a write that changes them drops them in every process (a signal).
   */
  readCache: Pick<
    ReadCache<{ body: string | Buffer; nextCursor: string | null }>,
    'getOrLoad' | 'invalidate'
  >;
  /**
   * "This may have changed", told to every server process after commit
   * (docs/decisions/017-cross-process-signals.md); app.ts starts and closes its listener.
   */
  signals: Signals;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

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
  /** How host names are looked up (tests answer for names of their own); DNS by default. */
  resolve?: Resolve;
}

/**
 * The composition root: every service is built once, here, from the infrastructure, and
 * routes reach them through app.deps (they never pass database handles into services). The
 * arrows run from here down into the modules, never back.
 */
export function buildDeps(infra: Infrastructure): AppDeps {
  const { env, publicUrl, database, clock, mailer, limiter, paypal, paypalSandbox, log } = infra;
  const db = database.db;
  const targets = {
    allowPrivate: env.ALLOW_PRIVATE_HOST_ADDRESSES,
    resolve: infra.resolve ?? systemResolve,
  };
  const webhooks = createWebhooks({
    db,
    clock,
    mailer,
    log,
    targets,
    httpsOnly: env.NODE_ENV === 'production',
    appendEvent: (conn, event) => eventsRepo.append(conn, event),
  });
  // What changes in one process is heard by every other (NOTIFY/LISTEN on PostgreSQL).
  const signals = signalsFor(database, log);
  const cached = new ReadCache<{ body: string | Buffer; nextCursor: string | null }>(
    env.READ_CACHE_TTL_MS,
    500,
    Date.now,
    (answer) => ({ ...answer, body: Buffer.from(answer.body) }),
  );
  signals.on('read-cache', () => cached.invalidate());
  const invalidateReads = () => void signals.publish('read-cache');
  const readCache = {
    getOrLoad: cached.getOrLoad.bind(cached),
    invalidate: invalidateReads,
  };
  const accounts = createAccountBook(db);
  // A renter's action on an instance, in any process, wakes its host's waiting agent: the
  // instance's event names the host in the `events` signal (below).
  const wake = createHostWake();
  // What an event asks of every process at once, named by the database in the `events` signal
  // it sends at the commit (migration 0043): a host's waiting agent woken, cached pages dropped.
  signals.on('events', (id) => {
    const hint = eventHintOf(id);
    if (hint?.dropReads) cached.invalidate();
    if (hint?.wakeHost) wake.wake(hint.wakeHost);
  });
  // Signals were missed while the listener was away: everything may have changed.
  signals.onResync(() => {
    cached.invalidate();
    wake.wakeAll();
  });
  // The image catalogue: a constant of this process (docs/decisions/015-os-images.md).
  const images = createImages(env.IMAGE_CATALOGUE);
  const instances = createInstancesService(db, accounts, {
    platformFeeBps: env.PLATFORM_FEE_BPS,
    images,
    containerImages: env.CONTAINER_TEMPLATE_IMAGES,
    provisioningTimeoutMs: env.PROVISIONING_TIMEOUT_MS,
  });
  const hosts = createHostsService({
    db,
    instances,
    clock,
    heartbeatIntervalMs: env.AGENT_HEARTBEAT_INTERVAL_MS,
    offlineAfterMs: env.HOST_OFFLINE_AFTER_MS,
    onListingsChange: invalidateReads,
    wake,
    hostAddressAllowlist: env.HOST_ADDRESS_ALLOWLIST,
    allowPrivateAddresses: targets.allowPrivate,
    images,
    log,
  });
  // The only way out of the core (docs/decisions/027): every change is an event in the log,
  // written with the change; the durable readers (e-mail, webhooks) read it, in one process at
  // a time. Host wakes and cache drops reach every process in the `events` signal the database
  // sends with the event at commit (migration 0043), heard above.
  const eventsService = createEventsService(db, signals);
  const eventLog = createEventDispatcher({
    db,
    signals,
    log,
    durable: [createMailReader({ db, mailer, log }), webhooks.reader],
  });
  const demo = createDemoService({ db, clock });
  const demoHost = createDemoHost({ hosts, instances, delayMs: env.DEMO_PROVISIONING_DELAY_MS });
  const account = createAccountService({
    db,
    clock,
    instances,
    demo,
    signals,
    onListingsChange: invalidateReads,
    log,
  });
  const payments = createPaymentsService({
    db,
    paypal,
    clientId: paypalSandbox ? paypalSandbox.clientId : (env.PAYPAL_CLIENT_ID ?? null),
    sdkUrl: env.PAYPAL_SDK_URL,
    sandbox: paypalSandbox,
    clock,
    mailer,
    limiter,
    log,
  });
  return {
    env,
    publicUrl,
    clock,
    mailer,
    limiter,
    targets,
    consoleSlots: createConsoleSlots({ db, clock, redisUrl: env.REDIS_URL, log }),
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
    eventLog,
    events: eventsService,
    worker: createWorker(
      [
        ...instanceJobs({
          instances,
          demoHost,
          hosts,
          outageCredits: createOutageCredits({ accounts }),
        }),
        ...housekeepingJobs({
          account,
          sweepIdempotencyKeys: (now, batch) => idempotencyStore.sweep(db, now, batch),
          pruneEvents: (now, batch) => eventsService.prune(now, batch),
        }),
      ],
      log,
    ),
    paypal,
    paypalSandbox,
    payments,
    account,
    accountExport: createAccountExport({ db, instances, payments }),
    wallet: createWalletService(db),
    instanceBilling: createInstanceBilling(db),
    invoices: createInvoicesService({ db, clock, getOwn: instances.getOwn }),
    users: createUsersService(db),
    providers: createProvidersService(db),
    providerApplications: createProviderApplicationsService({ db, clock, mailer, log }),
    providerHosts: createProviderHostsService(db, targets),
    listings: createListingsService(db),
    sshKeys: createSshKeysService(db),
    apiKeys: createApiKeysService(db, signals),
    webhooks,
    contact: createContactService({
      db,
      clock,
      limiter,
      mailer,
      mailEnabled: Boolean(env.SMTP_URL),
      log,
    }),
    newsletter: createNewsletterService({ db, limiter }),
    health: createHealthService(database),
    readCache,
    signals,
  };
}

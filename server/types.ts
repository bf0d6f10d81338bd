import type { Database } from './db/client';
import type { Env } from './env';
import type { Clock } from './lib/clock';
import type { Mailer } from './lib/mailer';
import type { PaypalClient } from './lib/paypal';
import type { RateLimiter } from './lib/rate-limit';
import type { ReadCache } from './lib/read-cache';
import type { AccountService } from './modules/account/service';
import type { AuthService } from './modules/auth/service';
import type { DeployService } from './modules/deploy/service';
import type { HostsService } from './modules/hosts/service';
import type { Images } from './modules/images/catalogue';
import type { InstancesService } from './modules/instances/service';
import type { VmService } from './modules/instances/vm-service';
import type { LocalPaypalSandbox } from './modules/payments/sandbox/paypal-api';
import type { PaymentsService } from './modules/payments/service';
import type { Worker } from './worker';

/** Everything a route reaches: built once by buildDeps (server/deps.ts) from the parsed configuration. */
export interface AppDeps {
  env: Env;
  /**
   * Where hosts and browsers reach this server (PUBLIC_URL, else the listen address outside
   * production): absolute URLs shown to users, such as the host install command, use it.
   */
  publicUrl: () => string;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
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
   * PayPal's REST API: the real one from PAYPAL_CLIENT_ID/SECRET, the in-process local sandbox
   * (PAYPAL_MODE local-sandbox), or null ("not configured").
   */
  paypal: PaypalClient | null;
  /** The local sandbox behind `paypal`, when that is what it talks to. */
  paypalSandbox: LocalPaypalSandbox | null;
  payments: PaymentsService;
  account: AccountService;
  /** Public read answers (listing pages, stats), invalidated by every write that changes them. */
  /** Cached answers as bytes (or text), sent as they are. */
  readCache: ReadCache<{ body: string | Buffer; nextCursor: string | null }>;
}

export interface RequestAuth {
  userId: string;
  sessionId: string;
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyContextConfig {
    /** A public read, the same for every caller: Cache-Control no-cache instead of no-store. */
    publicRead?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
    sessionToken: string | null;
  }
}

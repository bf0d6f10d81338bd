import type { Database } from './db/client';
import type { Env } from './env';
import type { Clock } from './lib/clock';
import type { Mailer } from './lib/mailer';
import type { PaypalClient } from './lib/paypal';
import type { RateLimiter } from './lib/rate-limit';
import type { ReadCache } from './lib/read-cache';
import type { AccountService } from './modules/account/service';
import type { AuthService } from './modules/auth/service';
import type { HostsService } from './modules/hosts/service';
import type { InstancesService } from './modules/instances/service';
import type { PaymentsService } from './modules/payments/service';
import type { Worker } from './worker';

/** Everything a route reaches: built once by buildDeps (server/deps.ts) from the parsed configuration. */
export interface AppDeps {
  env: Env;
  database: Database;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  auth: AuthService;
  /** Every GPU machine: marketplace rentals (booked) and metered instances. */
  instances: InstancesService;
  /** Where hosts report what happened to instances. */
  hosts: HostsService;
  /** The worker's named jobs (server/worker); main.ts starts its timer. */
  worker: Worker;
  /** PayPal's REST API; null when PAYPAL_CLIENT_ID/SECRET are not set ("not configured"). */
  paypal: PaypalClient | null;
  payments: PaymentsService;
  account: AccountService;
  /** Public read answers (listing pages, stats), invalidated by every write that changes them. */
  readCache: ReadCache<{ body: string; nextCursor: string | null }>;
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
  interface FastifyRequest {
    auth: RequestAuth | null;
    sessionToken: string | null;
  }
}

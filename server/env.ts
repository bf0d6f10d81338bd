import path from 'node:path';
import { z } from 'zod';
import { AGENT_OFFLINE_AFTER_MS } from '../shared/contracts/agent-protocol';
import { CONSOLE_STATUS_POLL_MS } from '../shared/contracts/console';
import type { ImageCatalogue } from '../shared/contracts/images';
import { parseHostAddress } from '../shared/rules/host-address';
import { describeTargetRefusal, targetRefusal } from '../shared/rules/target-address';
import { DEFAULT_IMAGE_CATALOGUE, readImageCatalogue } from './modules/images/catalogue';
import {
  type ContainerTemplateImages,
  DEFAULT_CONTAINER_TEMPLATE_IMAGES,
  readContainerTemplateImages,
} from './modules/instances/container-images';

/**
 * The one place that reads process.env (docs/architecture.md, Folders). Parsed once at start;
 * a bad value stops start-up with a message that names the variable.
 */
const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .url()
    // zod runs this even after .url() failed: a text that is no URL must not throw here.
    .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(5000),
  /** Interface to listen on; loopback only outside production unless set (see parseEnv). */
  HOST: z.string().min(1).optional(),
  /**
   * Where providers' hosts and browsers reach this server, e.g. https://rentgpu.example: the
   * host install command is built from it, never from a request's Host or Origin. Required
   * (https) in production; elsewhere the server's own listen address (see publicUrlOf).
   */
  PUBLIC_URL: urlWithProtocols(['https:', 'http:'])
    .refine((value) => !URL.canParse(value) || new URL(value).pathname === '/', {
      message: 'must be an origin without a path, e.g. https://rentgpu.example',
    })
    .refine((value) => !URL.canParse(value) || (!new URL(value).search && !new URL(value).hash), {
      message: 'must be an origin without a query or fragment',
    })
    .transform((value) => new URL(value).origin)
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']).optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('RentGPU <no-reply@rentgpu.dev>'),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_API_BASE: z.string().url().optional(),
  /** The id PayPal gave the webhook subscription; signatures are checked against it. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  /**
   * Without PayPal credentials outside production, Add Credits runs against an in-process
   * stand-in of PayPal's API (no real money); `false` turns it off. Never in production.
   */
  PAYPAL_LOCAL_SANDBOX: z.enum(['true', 'false']).optional(),
  /** Where browsers load PayPal's JavaScript SDK; tests point it at a local stand-in. */
  PAYPAL_SDK_URL: urlWithProtocols(['https:', 'http:']).default('https://www.paypal.com/sdk/js'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  SEED_DEMO_DATA: z.enum(['true', 'false']).default('true'),
  /** New demo accounts (Demo Login) one IP address may make per hour. */
  DEMO_LOGINS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** Sign-in and e-mail change codes one IP address may ask for per hour. */
  CODES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Tries at a code one IP address may make per 15 minutes. */
  CODE_TRIES_PER_IP_PER_15_MIN: z.coerce.number().int().min(1).default(30),
  /** Share of a rental's used cost kept by the platform, in basis points (1000 = 10%). */
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(5000).default(1000),
  /** A rental not ready within this time is cancelled with a full refund. */
  PROVISIONING_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  /** How long the demo host simulator takes to make an instance ready. */
  DEMO_PROVISIONING_DELAY_MS: z.coerce.number().int().min(0).default(20_000),
  /** The heartbeat interval the server asks of agents (30 s; tests ask less). */
  AGENT_HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /**
   * How long a host may be silent before the worker marks it offline (an outage opens, its
   * instances are unreachable and unbilled from its last heartbeat). 90 s, three missed
   * heartbeats; at most that, since hosts are shown offline once silent 90 s whether or not
   * the worker has run. Tests shorten it so that a host going dark takes seconds.
   */
  HOST_OFFLINE_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(AGENT_OFFLINE_AFTER_MS)
    .default(AGENT_OFFLINE_AFTER_MS),
  /**
   * How often an open web console checks that its instance still runs and its session still
   * lives (and records the console as activity for idle stop): 5 s. Tests shorten it.
   */
  CONSOLE_STATUS_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(CONSOLE_STATUS_POLL_MS),
  /**
   * Addresses any host may report for its instances besides its own (comma-separated IP
   * literals or DNS names; docs/decisions/013-hosts-are-untrusted.md). Each must pass the
   * address rule at start: a loopback or private one only with ALLOW_PRIVATE_HOST_ADDRESSES.
   * Production leaves it empty.
   */
  HOST_ADDRESS_ALLOWLIST: z.string().default(''),
  /**
   * A lab (docs/decisions/013, shared/rules/target-address.ts): hosts may name, renters be
   * sent to and the web console connect to loopback, private, link-local and shared addresses
   * and local names — agents on this machine or a private network. Off in every environment
   * unless set (`1` or `true`), and printed at start when on. Metadata services and another
   * provider's host are refused all the same.
   */
  ALLOW_PRIVATE_HOST_ADDRESSES: z.enum(['1', 'true', '0', 'false']).optional(),
  /** Deprecated, read only when ALLOW_PRIVATE_HOST_ADDRESSES is not set: `allow` turns it on. */
  CONSOLE_PRIVATE_TARGETS: z.enum(['allow', 'deny']).optional(),
  /**
   * How long an Idempotency-Key claim's lease lasts (renewed every third of it while its
   * request runs): a retry takes over a claim left by a dead process after at most this.
   */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** How often the billing worker looks for due work. */
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /**
   * After SIGTERM, how long /api/health answers 503 (readiness off) while everything else is
   * still served, before the process stops accepting, finishes in-flight requests and the
   * worker's pass, and exits. 5000 in production, 0 elsewhere, unless set.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** How long public listing pages and stats may be served from memory (0 turns it off). */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * A JSON file that replaces the default OS image catalogue (server/modules/images/catalogue.ts,
   * docs/decisions/015-os-images.md): tests and CI point hosts at a locally served image.
   */
  IMAGE_CATALOGUE_FILE: z.string().min(1).optional(),
  /**
   * A JSON file mapping template id to the OCI image a container of that template runs
   * (server/modules/instances/container-images.ts, docs/decisions/025): it replaces the public
   * images of shared/contracts/instance-kind.ts; tests point templates at locally built images.
   */
  CONTAINER_TEMPLATE_IMAGES_FILE: z.string().min(1).optional(),
  /**
   * Browser tests only (scripts/e2e-server.mjs): with it, `POST /api/test/session` signs an
   * address in without an e-mailed code for a request that carries this secret, as the API
   * tests' `signIn` writes a session. Refused in production.
   */
  TEST_SESSION_SECRET: z.string().min(32).optional(),
});

/**
 * How credit purchases are paid, derived from the PayPal variables:
 * - live: credentials and PayPal's live API (api-m.paypal.com);
 * - sandbox-api: credentials and another API base (PayPal's sandbox, or a test fake);
 * - local-sandbox: no credentials, not production: the in-process stand-in, no real money;
 * - off: no credentials in production (or PAYPAL_LOCAL_SANDBOX=false): "not configured".
 */
export type PaypalMode = 'live' | 'sandbox-api' | 'local-sandbox' | 'off';
export const PAYPAL_LIVE_API_BASE = 'https://api-m.paypal.com';

export type Env = Omit<
  z.infer<typeof envSchema>,
  'HOST_ADDRESS_ALLOWLIST' | 'ALLOW_PRIVATE_HOST_ADDRESSES'
> & {
  HOST: string;
  HOST_ADDRESS_ALLOWLIST: string[];
  ALLOW_PRIVATE_HOST_ADDRESSES: boolean;
  SHUTDOWN_GRACE_MS: number;
  DATA_DIR: string;
  PAYPAL_API_BASE: string;
  PAYPAL_MODE: PaypalMode;
  /** The image catalogue: IMAGE_CATALOGUE_FILE's, read and checked at start, else the default. */
  IMAGE_CATALOGUE: ImageCatalogue;
  /** Each template's container image: CONTAINER_TEMPLATE_IMAGES_FILE's, else the defaults. */
  CONTAINER_TEMPLATE_IMAGES: ContainerTemplateImages;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set", as a shell user expects.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL: required in production: the https address providers and browsers reach this server at, e.g. https://rentgpu.example (host install commands are built from it)',
    );
  }
  if (env.NODE_ENV === 'production' && env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://')) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL: must start with https:// in production (hosts download the agent from it)',
    );
  }
  if (env.NODE_ENV === 'production' && env.TEST_SESSION_SECRET !== undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TEST_SESSION_SECRET: signing in without a code is for browser tests, never production',
    );
  }
  if (env.NODE_ENV === 'production' && env.PAYPAL_LOCAL_SANDBOX === 'true') {
    throw new ConfigError(
      'Invalid configuration:\n  PAYPAL_LOCAL_SANDBOX: the local PayPal sandbox is never offered in production',
    );
  }
  const badAddress = env.HOST_ADDRESS_ALLOWLIST.split(',')
    .map((a) => a.trim())
    .find((a) => a !== '' && parseHostAddress(a) === null);
  if (badAddress !== undefined) {
    throw new ConfigError(
      `Invalid configuration:\n  HOST_ADDRESS_ALLOWLIST: ${JSON.stringify(badAddress)} is not an IP address or host name`,
    );
  }
  const allowPrivate =
    env.ALLOW_PRIVATE_HOST_ADDRESSES !== undefined
      ? env.ALLOW_PRIVATE_HOST_ADDRESSES === '1' || env.ALLOW_PRIVATE_HOST_ADDRESSES === 'true'
      : env.CONSOLE_PRIVATE_TARGETS === 'allow';
  for (const address of env.HOST_ADDRESS_ALLOWLIST.split(',').map((a) => a.trim())) {
    const refusal = address === '' ? null : targetRefusal(address, { allowPrivate });
    if (refusal) {
      const lab = targetRefusal(address, { allowPrivate: true }) === null;
      throw new ConfigError(
        `Invalid configuration:\n  HOST_ADDRESS_ALLOWLIST: ${describeTargetRefusal(address, refusal)}${lab ? ' (for a lab, set ALLOW_PRIVATE_HOST_ADDRESSES=1)' : ''}`,
      );
    }
  }
  let catalogue = DEFAULT_IMAGE_CATALOGUE;
  if (env.IMAGE_CATALOGUE_FILE !== undefined) {
    try {
      catalogue = readImageCatalogue(env.IMAGE_CATALOGUE_FILE);
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  IMAGE_CATALOGUE_FILE: ${(error as Error).message}`,
      );
    }
  }
  let templateImages = DEFAULT_CONTAINER_TEMPLATE_IMAGES;
  if (env.CONTAINER_TEMPLATE_IMAGES_FILE !== undefined) {
    try {
      templateImages = readContainerTemplateImages(env.CONTAINER_TEMPLATE_IMAGES_FILE);
    } catch (error) {
      throw new ConfigError(
        `Invalid configuration:\n  CONTAINER_TEMPLATE_IMAGES_FILE: ${(error as Error).message}`,
      );
    }
  }
  const paypalDefault =
    env.NODE_ENV === 'production' ? PAYPAL_LIVE_API_BASE : 'https://api-m.sandbox.paypal.com';
  const apiBase = env.PAYPAL_API_BASE ?? paypalDefault;
  // `npm start` on a laptop must not expose the app to the network: loopback by default,
  // every interface in production (behind its proxy or load balancer) or as configured.
  const hostDefault = env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1';
  return {
    ...env,
    HOST: env.HOST ?? hostDefault,
    HOST_ADDRESS_ALLOWLIST: env.HOST_ADDRESS_ALLOWLIST.split(',')
      .map((a) => a.trim())
      .filter((a) => a !== ''),
    ALLOW_PRIVATE_HOST_ADDRESSES: allowPrivate,
    SHUTDOWN_GRACE_MS: env.SHUTDOWN_GRACE_MS ?? (env.NODE_ENV === 'production' ? 5000 : 0),
    DATA_DIR: path.resolve(env.DATA_DIR),
    PAYPAL_API_BASE: apiBase,
    PAYPAL_MODE: paypalMode(env, apiBase),
    IMAGE_CATALOGUE: catalogue,
    CONTAINER_TEMPLATE_IMAGES: templateImages,
  };
}

/**
 * The address this server is reached at: PUBLIC_URL when set, otherwise (never in production)
 * its own listen address, as `npm start` prints it (`port` is the one it actually listens on).
 */
export function publicUrlOf(env: Env, port: number): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  const loopback = env.HOST === '127.0.0.1' || env.HOST === 'localhost' || env.HOST === '::1';
  const everywhere = env.HOST === '0.0.0.0' || env.HOST === '::';
  const host =
    loopback || everywhere ? 'localhost' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${port}`;
}

function paypalMode(env: z.infer<typeof envSchema>, apiBase: string): PaypalMode {
  if (env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET) {
    return new URL(apiBase).origin === PAYPAL_LIVE_API_BASE ? 'live' : 'sandbox-api';
  }
  if (env.NODE_ENV === 'production' || env.PAYPAL_LOCAL_SANDBOX === 'false') return 'off';
  return 'local-sandbox';
}

/** Variables the test helpers read; kept here so nothing else touches process.env. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}

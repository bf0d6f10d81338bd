import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads process.env (STYLE.md habit 7). Parsed once at start;
 * a bad value stops start-up with a message that names the variable.
 */
const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.includes(new URL(value).protocol), {
      message: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(5000),
  /** Interface to listen on; loopback only outside production unless set (see parseEnv). */
  HOST: z.string().min(1).optional(),
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
  /** Where browsers load PayPal's JavaScript SDK; tests point it at a local stand-in. */
  PAYPAL_SDK_URL: urlWithProtocols(['https:', 'http:']).default('https://www.paypal.com/sdk/js'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  SEED_DEMO_DATA: z.enum(['true', 'false']).default('true'),
  /** Share of a rental's used cost kept by the platform, in basis points (1000 = 10%). */
  PLATFORM_FEE_BPS: z.coerce.number().int().min(0).max(5000).default(1000),
  /** A rental not ready within this time is cancelled with a full refund. */
  PROVISIONING_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  /** How long the demo host simulator takes to make an instance ready. */
  DEMO_PROVISIONING_DELAY_MS: z.coerce.number().int().min(0).default(20_000),
  /** How often the billing worker looks for due work. */
  WORKER_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** How long public listing pages and stats may be served from memory (0 turns it off). */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
});

export type Env = z.infer<typeof envSchema> & {
  HOST: string;
  DATA_DIR: string;
  PAYPAL_API_BASE: string;
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
  const paypalDefault =
    env.NODE_ENV === 'production' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com';
  // `npm start` on a laptop must not expose the app to the network: loopback by default,
  // every interface in production (behind its proxy or load balancer) or as configured.
  const hostDefault = env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1';
  return {
    ...env,
    HOST: env.HOST ?? hostDefault,
    DATA_DIR: path.resolve(env.DATA_DIR),
    PAYPAL_API_BASE: env.PAYPAL_API_BASE ?? paypalDefault,
  };
}

/** Variables the test helpers read; kept here so nothing else touches process.env. */
export function testDatabaseUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export function testRedisUrl(): string | undefined {
  return process.env.TEST_REDIS_URL || undefined;
}

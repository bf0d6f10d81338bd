import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import { buildDeps } from './deps';
import { type Env, publicUrlOf } from './env';
import { type Clock, systemClock } from './lib/clock';
import { registerIdempotency } from './lib/idempotency';
import { ConsoleMailer, type Mailer, SmtpMailer } from './lib/mailer';
import type { Resolve } from './lib/outbound-address';
import { WEB_DIST_DIR } from './lib/paths';
import { createPaypalClient, type PaypalClient } from './lib/paypal';
import { createRateLimiter, type RateLimiter } from './lib/rate-limit';
import { validatorCompiler } from './lib/validate';
import { accountRoutes } from './modules/account/routes';
import { apiKeysRoutes } from './modules/api-keys/routes';
import { authRoutes } from './modules/auth/routes';
import { contactRoutes } from './modules/contact/routes';
import { deployRoutes } from './modules/deploy/routes';
import { healthRoutes } from './modules/health/routes';
import { agentRoutes } from './modules/hosts/agent-routes';
import { providerHostsRoutes } from './modules/hosts/provider-routes';
import { consoleRoutes } from './modules/instances/console/routes';
import { kvmRoutes } from './modules/instances/surfaces/kvm-routes';
import { rentalsRoutes } from './modules/instances/surfaces/rentals-routes';
import { invoicesRoutes } from './modules/invoices/routes';
import { listingsRoutes } from './modules/listings/routes';
import { newsletterRoutes } from './modules/newsletter/routes';
import { paymentsRoutes } from './modules/payments/routes';
import { createLocalPaypalSandbox } from './modules/payments/sandbox/paypal-api';
import { providerApplicationsRoutes } from './modules/provider-applications/routes';
import { providersRoutes } from './modules/providers/routes';
import { registerOpenApi } from './modules/public-api/openapi';
import { publicApiRoutes } from './modules/public-api/routes';
import { sshKeysRoutes } from './modules/ssh-keys/routes';
import { usersRoutes } from './modules/users/routes';
import { webhookRoutes } from './modules/webhooks/routes';
import {
  clientErrorHandler,
  frameworkErrors,
  registerCacheControl,
  registerErrorHandler,
  registerNotFound,
} from './plugins/error-handler';
import { registerInputGuard } from './plugins/input-guard';
import { registerQuietRequestLog } from './plugins/request-log';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerSession } from './plugins/session';

export interface CreateAppOptions {
  env: Env;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  limiter?: RateLimiter;
  /** Replaces the PayPal client built from PAYPAL_* (null: payments not configured). */
  paypal?: PaypalClient | null;
  logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is registered (tests walk the route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Folder of the built web app; defaults to dist/web when it exists. */
  webDir?: string | null;
  /** How host names are looked up (shared/rules/target-address.ts); DNS by default. */
  resolve?: Resolve;
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's request id when it is up to 128 safe characters, else a fresh UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Builds the whole app without listening (tests inject into it). server/main.ts listens. */
export async function createApp(options: CreateAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const clock = options.clock ?? systemClock;
  const mailer =
    options.mailer ??
    (env.SMTP_URL ? new SmtpMailer(env.SMTP_URL, env.MAIL_FROM) : new ConsoleMailer());
  const limiter =
    options.limiter ?? createRateLimiter({ redisUrl: env.REDIS_URL, database, clock });

  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL ?? 'info' },
    // A client's X-Request-Id is kept when it is a plain id (it is echoed and logged), else
    // replaced by a fresh one; Fastify's own header option would take any value at any length.
    requestIdHeader: false,
    genReqId: (raw) => requestIdOf(raw.headers['x-request-id']),
    // Outside production a request is one debug line (plugins/request-log.ts), so the
    // console shows what a developer looks for; production keeps Fastify's request logs.
    logController: new LogController({ disableRequestLogging: env.NODE_ENV !== 'production' }),
    return503OnClosing: true,
    bodyLimit: 1024 * 1024,
    // Longest legitimate parameter is a uuid (36) or a PayPal order id; longer → 414.
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler,
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Routes declare zod schemas (docs/architecture.md, "How a route declares its schemas"):
  // input is checked with the app's 400 VALIDATION_FAILED, answers are encoded by their schema.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // PAYPAL_MODE (server/env.ts): real PayPal, the in-process local sandbox, or none.
  const paypalSandbox =
    options.paypal === undefined && env.PAYPAL_MODE === 'local-sandbox'
      ? createLocalPaypalSandbox()
      : null;
  const paypal =
    options.paypal !== undefined
      ? options.paypal
      : env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET
        ? createPaypalClient({
            clientId: env.PAYPAL_CLIENT_ID,
            clientSecret: env.PAYPAL_CLIENT_SECRET,
            apiBase: env.PAYPAL_API_BASE,
          })
        : paypalSandbox
          ? createPaypalClient(paypalSandbox)
          : null;
  app.decorate(
    'deps',
    buildDeps({
      env,
      // Read when needed: the port is the one the server listens on (PORT=0 picks one).
      publicUrl: () => {
        const address = app.server.address();
        return publicUrlOf(env, typeof address === 'object' && address ? address.port : env.PORT);
      },
      database,
      clock,
      mailer,
      limiter,
      paypal,
      paypalSandbox,
      log: app.log,
      ...(options.resolve ? { resolve: options.resolve } : {}),
    }),
  );
  // Listening before serving: a signal from another process is heard from the first request.
  await app.deps.signals.start();
  // The event log's readers (docs/decisions/027), woken by the log's own NOTIFY from here on.
  await app.deps.eventLog.start();
  // Hooks that run on every request take a callback, not a promise (cheaper per request).
  const { health } = app.deps;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // Draining (SIGTERM): each answer closes its connection, so a keep-alive client's next
    // request opens a new one, which the load balancer sends to a process still in rotation.
    if (health.draining && request.headers.upgrade === undefined) {
      reply.header('connection', 'close');
    }
    done();
  });
  if (env.NODE_ENV !== 'production') registerQuietRequestLog(app);
  app.addHook('onClose', async () => {
    mailer.close();
    await limiter.close();
    // The consoles this process holds give their places back (a crash leaves them to expire).
    const { consoleSlots } = app.deps;
    await consoleSlots.releaseAll().catch((error: unknown) => {
      app.log.warn({ err: error }, 'giving back console places failed');
    });
    await consoleSlots.close();
    await app.deps.eventLog.close();
    await app.deps.signals.close();
  });

  registerSecurityHeaders(app, {
    production: env.NODE_ENV === 'production',
    paypalSdkUrl: paypal && !paypalSandbox ? env.PAYPAL_SDK_URL : null,
  });
  await app.register(fastifyCookie);
  // Before any route: its onRoute hook turns routes with a wsHandler into WebSocket routes
  // (the web console). Messages above 64 KB are refused (a terminal sends keystrokes).
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  acceptEmptyJsonBodies(app);

  registerErrorHandler(app);
  registerCacheControl(app);
  registerSession(app);
  registerInputGuard(app);
  registerIdempotency(app, { db: database.db, clock, leaseMs: env.IDEMPOTENCY_LEASE_MS });
  // Before any route, so the document sees them all (it keeps only the public API's).
  await registerOpenApi(app);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(providersRoutes);
  await app.register(providerApplicationsRoutes);
  await app.register(providerHostsRoutes);
  await app.register(listingsRoutes);
  await app.register(rentalsRoutes);
  await app.register(deployRoutes);
  await app.register(consoleRoutes);
  await app.register(kvmRoutes);
  await app.register(newsletterRoutes);
  await app.register(contactRoutes);
  await app.register(paymentsRoutes);
  await app.register(invoicesRoutes);
  await app.register(accountRoutes);
  await app.register(apiKeysRoutes);
  await app.register(sshKeysRoutes);
  await app.register(webhookRoutes);
  await app.register(agentRoutes);
  // The public API (bearer API keys, tiers): /api/v1 beside the agents' /api/v1/agents.
  await app.register(publicApiRoutes, { prefix: '/api/v1' });

  const webDir =
    options.webDir === undefined
      ? existsSync(WEB_DIST_DIR)
        ? WEB_DIST_DIR
        : null
      : options.webDir;
  if (webDir) await registerWebApp(app, webDir);
  registerNotFound(app, Boolean(webDir));

  return app;
}

/**
 * Serves the built single-page app's files; hashed assets are cached for a year. The build
 * writes Brotli and gzip copies beside each text file (scripts/precompress.mjs): a browser
 * that accepts one gets it, anything else the file itself.
 */
async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

/**
 * Many clients send `Content-Type: application/json` with no body on PATCH or DELETE
 * (a stop, a revoke): treat that as no body rather than an error. Anything else goes to
 * Fastify's own parser, which guards against prototype poisoning.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const standard = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    standard(request, text, done);
  });
}

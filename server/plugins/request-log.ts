import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A long poll (the agent's POST /api/v1/agents/wait): held on purpose until there is work
     * or its time is up, so its duration is never a slow request.
     */
    longPoll?: boolean;
  }
}

/** A request at least this slow is logged at warn outside production (long polls excepted). */
export const SLOW_REQUEST_MS = 1000;

/**
 * Request logging outside production. Fastify's own two info lines per request would bury
 * what a developer is looking for on the console (a printed sign-in code, an error), so
 * there each finished request is one line at debug (`LOG_LEVEL=debug` shows them), a slow
 * one at warn and a server error at error. Every line carries the request id (`reqId`).
 * In production Fastify's own request logging stays on (app.ts), request ids included.
 */
export function registerQuietRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const responseTime = Math.round(reply.elapsedTime);
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime,
    };
    if (reply.statusCode >= 500) request.log.error(line, 'request failed');
    else if (responseTime >= SLOW_REQUEST_MS && !request.routeOptions.config.longPoll) {
      request.log.warn(line, 'slow request');
    } else request.log.debug(line, 'request completed');
  });
}

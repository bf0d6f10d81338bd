import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CONSOLE_CLOSE, consoleQuery, consoleView } from '../../../../shared/contracts/console';
import { errorResponses } from '../../../../shared/contracts/errors';
import { idParam } from '../../../../shared/contracts/params';
import { crossOriginRefused, rateLimited } from '../../../lib/errors';
import { isSameOrigin, requireUser, signedIn } from '../../../plugins/session';
import type { ConsoleTarget } from '../types';
import { CONSOLE_NOT_OPENED } from './closing';
import { tooManyConsolesMessage } from './guards';
import { type ConsoleSocket, runConsoleSession } from './session';

/**
 * The web console (docs/architecture.md, "Web console"). One URL, two uses:
 * - a plain GET answers whether the console can open now (200 `consoleView`, or the error
 *   body: 401 signed out, 403 cross-site, 404 not the caller's, 409 not running / no key);
 * - the same GET upgraded to a WebSocket (`?cols=&rows=`) runs the same checks before the
 *   upgrade — a refusal is that HTTP answer, no socket opens — and then is the terminal
 *   (framing: shared/contracts/console.ts, session: console/session.ts).
 */
export async function consoleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // The places per user are counted across every server process (console/slots.ts); the
  // host key is checked against the one stored on the instance (console/session.ts).
  const { instances, auth, consoleSlots: slots } = app.deps;
  const targets = new WeakMap<FastifyRequest, ConsoleTarget>();
  const tooMany = () => rateLimited(5, tooManyConsolesMessage(slots.limit));

  app.route({
    method: 'GET',
    url: '/api/kvm/instances/:id/console',
    // A WebSocket is not covered by the same-origin policy: refuse one opened by another site
    // with the visitor's cookie (cross-site WebSocket hijacking), as writes are refused.
    preValidation: [
      signedIn,
      async (request) => {
        if (!isSameOrigin(request)) throw crossOriginRefused();
      },
    ],
    schema: {
      params: idParam,
      querystring: consoleQuery,
      response: { 200: consoleView, ...errorResponses },
    },
    preHandler: async (request) => {
      const { userId } = requireUser(request);
      targets.set(request, await instances.consoleTarget(userId, request.params.id));
      // At the limit: the plain GET and the upgrade are both refused with the reason (429).
      if ((await slots.count(userId)) >= slots.limit) throw tooMany();
    },
    handler: async (request) => {
      const target = targets.get(request);
      if (!target) throw new Error('console target missing');
      return {
        instanceId: target.instanceId,
        status: 'running' as const,
        sshUsername: target.username,
      };
    },
    wsHandler: (socket, request) => {
      const target = targets.get(request);
      const token = request.sessionToken;
      const { userId } = requireUser(request);
      if (!target || !token) throw new Error('console target missing');
      // The place is taken now (two upgrades at once may both have passed the check before
      // the upgrade); keystrokes typed meanwhile wait in the session. Given back on close.
      const lease = slots.acquire(userId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'web console: taking a place failed');
        return 'failed' as const;
      });
      // An open console is activity for idle stop: from now, and at each status check.
      const active = () =>
        instances.consoleActive(target.instanceId, app.deps.clock.now()).catch((error: unknown) => {
          request.log.warn({ err: error }, 'web console: recording activity failed');
        });
      void active();
      socket.on('close', () => {
        void active();
        void lease.then((held) => (typeof held === 'object' ? held?.release() : undefined));
      });
      runConsoleSession(socket as ConsoleSocket, target, {
        cols: request.query.cols,
        rows: request.query.rows,
        pollMs: app.deps.env.CONSOLE_STATUS_POLL_MS,
        admit: lease.then((held) =>
          held === 'failed'
            ? { code: CONSOLE_CLOSE.serverError, reason: CONSOLE_NOT_OPENED }
            : held
              ? null
              : {
                  code: CONSOLE_CLOSE.tooManySessions,
                  reason: tooManyConsolesMessage(slots.limit),
                },
        ),
        pinHostKey: (key) => instances.pinConsoleHostKey(target, key),
        targets: app.deps.targets,
        log: request.log,
        check: async () => {
          const state = await instances.statusOf(target.instanceId);
          if (state !== 'running') {
            return {
              code: CONSOLE_CLOSE.notRunning,
              reason: state ? `The instance is ${state}.` : 'The instance is gone.',
            };
          }
          // An open console is activity: idle stop waits (docs/decisions/019).
          await active();
          if (!(await auth.sessionFor(token))) {
            return { code: CONSOLE_CLOSE.signedOut, reason: 'Your session ended. Sign in again.' };
          }
          return null;
        },
      });
    },
  });
}

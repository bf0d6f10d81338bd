import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageResponse, sendOtpBody, verifyOtpBody } from '../../../shared/contracts/auth';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import { verifyOtpResponse, verifyTwoFactorBody } from '../../../shared/contracts/two-factor';
import { currentUser, signInResponse } from '../../../shared/contracts/user';
import { LOGIN_TEXT } from '../../../shared/rules/login-input';
import { notFound } from '../../lib/errors';
import { createGuessLimits, GUESS_LIMITS } from '../../lib/guess-limits';
import {
  clearSessionCookie,
  isSameOrigin,
  requireUser,
  setSessionCookie,
  signedIn,
} from '../../plugins/session';
import { presentCurrentUser } from '../users/presenter';
import type { IssuedSession } from './service';
import { twoFactorRoutes } from './two-factor-routes';

function client(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** A full-page navigation: answered with a redirect and no body. */
const redirect = { 302: noContent };

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, users, env } = app.deps;
  const secure = env.NODE_ENV === 'production';

  async function signedInAs(reply: FastifyReply, session: IssuedSession) {
    setSessionCookie(reply, session.token, session.expiresAt, secure);
    const user = presentCurrentUser(await users.getProfile(session.userId));
    return { message: 'Login successful', user };
  }

  app.get(
    '/api/auth/user',
    { preValidation: signedIn, schema: { response: { 200: currentUser, ...errorResponses } } },
    async (request) => {
      const { userId } = requireUser(request);
      return presentCurrentUser(await users.getProfile(userId));
    },
  );

  app.post(
    '/api/auth/send-otp',
    { schema: { body: sendOtpBody, response: { 200: messageResponse, ...errorResponses } } },
    async (request) => {
      return { message: await auth.sendCode(request.body.email, client(request)) };
    },
  );

  app.post(
    '/api/auth/verify-otp',
    { schema: { body: verifyOtpBody, response: { 200: verifyOtpResponse, ...errorResponses } } },
    async (request, reply) => {
      const { email, otp } = request.body;
      const step = await auth.verifyCode(
        email,
        otp,
        client(request),
        request.sessionToken ?? undefined,
      );
      if (step.kind === 'two-factor')
        return {
          message: LOGIN_TEXT.appCodeRequired,
          twoFactorRequired: true as const,
          challenge: step.challenge,
        };
      return signedInAs(reply, step.session);
    },
  );

  // The second factor of a sign-in (docs/decisions/023-two-factor-sign-in.md).
  app.post(
    '/api/auth/verify-two-factor',
    {
      schema: { body: verifyTwoFactorBody, response: { 200: signInResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const { challenge, code } = request.body;
      const session = await auth.verifyTwoFactor(
        challenge,
        code,
        client(request),
        request.sessionToken ?? undefined,
      );
      return signedInAs(reply, session);
    },
  );

  await twoFactorRoutes(fastify);

  const testSecret = env.TEST_SESSION_SECRET;
  if (testSecret !== undefined && env.NODE_ENV !== 'production') {
    const guesses = createGuessLimits(app.deps.limiter);
    app.post(
      '/api/test/session',
      {
        schema: {
          hide: true,
          body: sendOtpBody,
          response: { 200: signInResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        // Tries of the one secret are counted per address and in all (only wrong ones stay).
        const session = await guesses.attempt(
          GUESS_LIMITS.testSession,
          { ip: request.ip, target: 'secret' },
          async () => {
            const given = Buffer.from(String(request.headers['x-test-session-secret'] ?? ''));
            const secret = Buffer.from(testSecret);
            if (given.length !== secret.length || !timingSafeEqual(given, secret)) {
              throw notFound('API route');
            }
            return auth.testSignIn(request.body.email, client(request));
          },
        );
        return signedInAs(reply, session);
      },
    );
  }

  app.post(
    '/api/login',
    { schema: { response: { 200: signInResponse, ...errorResponses } } },
    async (request, reply) => {
      const session = await auth.demoSignIn(client(request), request.sessionToken ?? undefined);
      return signedInAs(reply, session);
    },
  );

  // Full-page navigations from the Sign In button and the avatar menu.
  app.get(
    '/api/login',
    { schema: { response: { ...redirect, ...errorResponses } } },
    async (request, reply) => {
      return reply.redirect(request.auth ? '/' : '/#sign-in', 302);
    },
  );

  // A link on another site must not end the session (SameSite=Lax sends the cookie on
  // top-level navigations): only a same-site or typed navigation signs out.
  app.get(
    '/api/logout',
    { schema: { response: { ...redirect, ...errorResponses } } },
    async (request, reply) => {
      if (!isSameOrigin(request)) return reply.redirect('/', 302);
      if (request.sessionToken) await auth.signOut(request.sessionToken);
      clearSessionCookie(reply, secure);
      return reply.redirect('/', 302);
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendOtpBody, verifyOtpBody } from '../../../shared/contracts/auth';
import { parse } from '../../lib/validate';
import {
  clearSessionCookie,
  isSameOrigin,
  requireUser,
  setSessionCookie,
} from '../../plugins/session';
import { presentCurrentUser } from '../users/presenter';
import { usersService } from '../users/service';

function client(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { auth, database, env } = app.deps;
  const secure = env.NODE_ENV === 'production';

  app.get('/api/auth/user', async (request) => {
    const { userId } = requireUser(request);
    return presentCurrentUser(await usersService.getProfile(database.db, userId));
  });

  app.post('/api/auth/send-otp', async (request) => {
    const { email } = parse(sendOtpBody, request.body);
    return { message: await auth.sendCode(email, client(request)) };
  });

  app.post('/api/auth/verify-otp', async (request, reply) => {
    const { email, otp } = parse(verifyOtpBody, request.body);
    const session = await auth.verifyCode(
      email,
      otp,
      client(request),
      request.sessionToken ?? undefined,
    );
    setSessionCookie(reply, session.token, session.expiresAt, secure);
    const user = presentCurrentUser(await usersService.getProfile(database.db, session.userId));
    return { message: 'Login successful', user };
  });

  app.post('/api/login', async (request, reply) => {
    const session = await auth.demoSignIn(client(request), request.sessionToken ?? undefined);
    setSessionCookie(reply, session.token, session.expiresAt, secure);
    const user = presentCurrentUser(await usersService.getProfile(database.db, session.userId));
    return { message: 'Login successful', user };
  });

  // Full-page navigations from the Sign In button and the avatar menu.
  app.get('/api/login', async (request, reply) => {
    return reply.redirect(request.auth ? '/' : '/#sign-in', 302);
  });

  // A link on another site must not end the session (SameSite=Lax sends the cookie on
  // top-level navigations): only a same-site or typed navigation signs out.
  app.get('/api/logout', async (request, reply) => {
    if (!isSameOrigin(request)) return reply.redirect('/', 302);
    if (request.sessionToken) await auth.signOut(request.sessionToken);
    clearSessionCookie(reply, secure);
    return reply.redirect('/', 302);
  });
}

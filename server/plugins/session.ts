import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userIdParam } from '../../shared/contracts/params';
import { crossOriginRefused, forbidden, unauthenticated } from '../lib/errors';
import { parse } from '../lib/validate';

/** Who is signed in on a request: set from the session cookie by registerSession. */
export interface RequestAuth {
  userId: string;
  sessionId: string;
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
    sessionToken: string | null;
  }
}

export const SESSION_COOKIE = 'rentgpu_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Writes that sign in: refused from another site even without a session cookie, so no other
 * site can sign a visitor into an account of its choosing (login CSRF).
 */
function isSignInWrite(request: FastifyRequest): boolean {
  // The matched route (routing is done before onRequest), not the raw URL.
  const route = request.routeOptions.url ?? '';
  return route === '/api/login' || route.startsWith('/api/auth/');
}

/**
 * Reads the session cookie of /api requests and refuses cross-origin writes that carry it,
 * and cross-origin sign-in writes with or without it.
 */
export function registerSession(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('sessionToken', null);

  // A callback hook: most requests (no cookie, or not /api) cost no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api')) return done();
    const token = request.cookies[SESSION_COOKIE];
    const isWrite = !SAFE_METHODS.has(request.method);
    if (isWrite && (token || isSignInWrite(request)) && !isSameOrigin(request)) {
      return done(crossOriginRefused());
    }
    if (!token) return done();
    request.sessionToken = token;
    app.deps.auth.sessionFor(token).then((live) => {
      if (live)
        request.auth = { userId: live.userId, sessionId: live.sessionId, isAdmin: live.isAdmin };
      done();
    }, done);
  });
}

/**
 * Whether a browser request comes from this site: its Origin is this server's own origin,
 * scheme, host and port alike (an https page is another origin than the http site on the same
 * host). Browsers send Origin on every cross-origin request, on same-origin writes and on
 * every WebSocket handshake, and Sec-Fetch-Site on all of them; a client that sends neither
 * is not a browser acting for a victim, so it is let through.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return false;
  const origin = request.headers.origin;
  if (!origin) return true;
  const claimed = normalOrigin(origin);
  return claimed !== null && claimed === ownOrigin(request);
}

/**
 * This server's origin as the browser addressed it. The scheme is the socket's, or the
 * X-Forwarded-Proto a TLS-terminating proxy sets (its last value): a page cannot add that
 * header to a cross-site form post or a WebSocket handshake, so trusting it here lets no other
 * site in, while the rest of the app (client addresses) still trusts no proxy header.
 */
function ownOrigin(request: FastifyRequest): string | null {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = (
    typeof forwarded === 'string' ? forwarded.split(',').pop()?.trim() : null
  )?.toLowerCase();
  const scheme = proto === 'https' || proto === 'http' ? proto : request.protocol;
  return normalOrigin(`${scheme}://${request.host}`);
}

/** scheme://host[:port] with the default port left out, or null for anything but http(s). */
function normalOrigin(value: string): string | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function requireUser(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

/**
 * For paths such as /api/users/:userId: signed in (else 401), and the id in the path is the
 * caller's own (else 403, whether or not that user exists).
 */
export function requireSelf(request: FastifyRequest): RequestAuth {
  const auth = requireUser(request);
  const { userId } = parse(userIdParam, request.params);
  if (auth.userId !== userId) throw forbidden();
  return auth;
}

/**
 * Route hooks for `preValidation`: the access checks that need only the session (and the
 * path's user id). They run before Fastify validates the route's declared params, body and
 * query, so a signed-out caller gets 401 and another user's id 403 whatever the input.
 */
export async function signedIn(request: FastifyRequest): Promise<void> {
  requireUser(request);
}

export async function selfOnly(request: FastifyRequest): Promise<void> {
  requireSelf(request);
}

export function setSessionCookie(
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
  secure: boolean,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

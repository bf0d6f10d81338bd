import type { Socket } from 'node:net';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody, ErrorCode } from '../../shared/error-codes';
import { looksLikeSystemError } from '../../shared/rules/system-error';
import { AppError, notFound } from '../lib/errors';

/** What replaces a system error's text in an answer (the log keeps the original). */
const SYSTEM_FAILURE = 'Something went wrong on our side. Please try again in a moment.';
const SYSTEM_REFUSAL = 'This could not be done right now. Please try again in a moment.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public read, the same for every caller: Cache-Control no-cache instead of no-store. */
    publicRead?: boolean;
  }
}

/** What the client sees of a framework error: status, stable code, message, details. */
interface FrameworkAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Fastify's own errors by their code (bad JSON, wrong content type, body too large, a bad
 * `%` escape, an over-long path parameter), each in the app's error body.
 */
function frameworkAnswer(error: FastifyError, bodyLimit: number): FrameworkAnswer | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The request body is too large.',
        details: { limitBytes: bodyLimit },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json.',
        details: { accepted: ['application/json'] },
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 400,
        code: 'BAD_REQUEST',
        message: 'The request body does not match its Content-Length.',
      };
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: 'INVALID_URL', message: 'The address is not a valid URL.' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, code: 'URI_TOO_LONG', message: 'The address is too long.' };
    default:
      break;
  }
  // Prototype poisoning (`__proto__`, `constructor.prototype`) is refused by the JSON parser.
  if (error instanceof SyntaxError || /prototype property/.test(error.message)) {
    return { status: 400, code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = FALLBACK_CODES[status] ?? 'BAD_REQUEST';
    return { status, code, message: error.message || 'The request is not valid.' };
  }
  return null;
}

const FALLBACK_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

function errorBody(code: ErrorCode, message: string, details = {}): ErrorBody {
  return { error: { code, message, details } };
}

const INTERNAL = errorBody('INTERNAL', 'Something went wrong on our side. Please try again.');

/**
 * The one error handler (docs/rules.md, Errors): named errors become their body, framework
 * errors keep their status in the same body, and anything else is a 500 that is logged and
 * tells the client nothing internal. `details` is always an object.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      const body = error.toBody();
      // A message carrying a system error (ENOTFOUND, a stack frame) is for the log only.
      if (looksLikeSystemError(body.error.message)) {
        request.log.warn({ err: error }, 'error message with a system error, replaced');
        body.error.message = error.status >= 500 ? SYSTEM_FAILURE : SYSTEM_REFUSAL;
      }
      return reply.status(error.status).send(body);
    }
    const answer = frameworkAnswer(error, app.initialConfig.bodyLimit ?? 0);
    if (answer) {
      return reply
        .status(answer.status)
        .send(errorBody(answer.code, answer.message, answer.details));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(INTERNAL);
  });
}

/**
 * Fastify's `frameworkErrors` option: errors met while routing (a bad `%` escape, a path
 * parameter over maxParamLength), before any hook runs, so the headers are set here.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const answer = frameworkAnswer(error, 0) ?? {
    status: 400,
    code: 'BAD_REQUEST' as const,
    message: 'The request is not valid.',
  };
  reply
    .status(answer.status)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(errorBody(answer.code, answer.message, answer.details));
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses before Fastify
 * sees them (broken framing, headers or URL beyond maxHeaderSize, a client too slow). The
 * answer is written on the socket in the same error body, and the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', errorBody('REQUEST_TIMEOUT', 'The request took too long.')]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            errorBody('HEADERS_TOO_LARGE', 'The address or the request headers are too large.'),
          ]
        : [400, 'Bad Request', errorBody('BAD_REQUEST', 'The request is not valid HTTP.')];
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Unknown /api paths answer 404 in the error body. With the web app built, any other
 * page path (no file extension) gets index.html so the client router can take it.
 */
export function registerNotFound(app: FastifyInstance, serveSpa: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !path.extname(pathname);
    if (serveSpa && !isApi && isPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(notFound(isApi ? 'API route' : 'File').toBody());
  });
}

/**
 * Answers under /api are private unless their route says `config: { publicRead: true }`
 * (the marketplace's listings and stats: the same for everyone, revalidated on every use).
 */
export function registerCacheControl(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api') && !reply.hasHeader('cache-control')) {
      const publicRead = reply.statusCode < 400 && request.routeOptions.config?.publicRead === true;
      reply.header('cache-control', publicRead ? 'no-cache' : 'no-store');
    }
    done(null, payload);
  });
}

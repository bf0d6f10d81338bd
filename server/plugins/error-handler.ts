import path from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../shared/error-codes';
import { AppError, notFound } from '../lib/errors';

const FASTIFY_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * The one error handler (DESIGN.md section 5): named errors become their body, framework
 * 4xx errors (bad JSON, wrong content type, body too large) keep their status in the same
 * body, and anything else is a 500 that is logged and tells the client nothing internal.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(error.toBody());
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = FASTIFY_CODES[status] ?? 'BAD_REQUEST';
      const message =
        status === 400 && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? 'The request body is not valid JSON.'
          : error.message;
      return reply.status(status).send({ error: { code, message } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
    });
  });
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

import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that is already text (a read cache's page, an indented download). Fastify sends a
 * string or bytes with a JSON content type as they are, so the route's response schema
 * documents the answer without encoding it a second time. A cached page is kept as bytes:
 * then not even the UTF-8 encoding is done again per request.
 */
export function sendJsonText(reply: FastifyReply, text: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

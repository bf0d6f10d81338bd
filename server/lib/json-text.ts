import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that is already text (a read cache's page, an indented download). Fastify sends a
 * string with a JSON content type as it is, so the route's response schema documents the
 * answer without encoding it a second time.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

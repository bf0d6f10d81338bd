import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CONTACT_TEXT,
  listContactMessagesQuery,
  listContactMessagesResponse,
  sendContactMessageBody,
  sendContactMessageResponse,
} from '../../../shared/contracts/contact';
import { errorResponses } from '../../../shared/contracts/errors';
import { requireUser } from '../../plugins/session';
import { assertCanReadContactMessages } from './policy';
import { presentContactMessage } from './presenter';

export async function contactRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { contact } = app.deps;

  app.post(
    '/api/contact',
    {
      schema: {
        body: sendContactMessageBody,
        response: { 201: sendContactMessageResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const row = await contact.send(request.body, {
        userId: request.auth?.userId ?? null,
        ip: request.ip,
      });
      return reply.status(201).send({ id: row.id, message: CONTACT_TEXT.successTitle });
    },
  );

  app.get(
    '/api/admin/contact-messages',
    {
      preValidation: async (request) => {
        assertCanReadContactMessages(requireUser(request));
      },
      schema: {
        querystring: listContactMessagesQuery,
        response: { 200: listContactMessagesResponse, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await contact.list(request.query.limit);
      return { messages: rows.map(presentContactMessage) };
    },
  );
}

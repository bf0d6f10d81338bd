import type { FastifyInstance } from 'fastify';
import {
  CONTACT_TEXT,
  listContactMessagesQuery,
  sendContactMessageBody,
} from '../../../shared/contracts/contact';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { assertCanReadContactMessages } from './policy';
import { presentContactMessage } from './presenter';
import { createContactService } from './service';

export async function contactRoutes(app: FastifyInstance): Promise<void> {
  const { database, env, clock, limiter, mailer } = app.deps;
  const contact = createContactService({
    db: database.db,
    clock,
    limiter,
    mailer,
    mailEnabled: Boolean(env.SMTP_URL),
    log: app.log,
  });

  app.post('/api/contact', async (request, reply) => {
    const input = parse(sendContactMessageBody, request.body);
    const row = await contact.send(input, {
      userId: request.auth?.userId ?? null,
      ip: request.ip,
    });
    return reply.status(201).send({ id: row.id, message: CONTACT_TEXT.successTitle });
  });

  app.get('/api/admin/contact-messages', async (request) => {
    assertCanReadContactMessages(requireUser(request));
    const { limit } = parse(listContactMessagesQuery, request.query);
    const rows = await contact.list(limit);
    return { messages: rows.map(presentContactMessage) };
  });
}

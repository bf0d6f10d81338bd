import type { FastifyInstance } from 'fastify';
import { subscribeNewsletterBody } from '../../../shared/contracts/newsletter';
import { parse } from '../../lib/validate';
import { presentSubscription } from './presenter';
import { createNewsletterService } from './service';

export async function newsletterRoutes(app: FastifyInstance): Promise<void> {
  const { database, limiter } = app.deps;
  const newsletter = createNewsletterService({ db: database.db, limiter });

  app.post('/api/newsletter/subscribe', async (request) => {
    const { email, subscriptionSource } = parse(subscribeNewsletterBody, request.body);
    await newsletter.subscribe(email, subscriptionSource, request.ip);
    return presentSubscription(email);
  });
}

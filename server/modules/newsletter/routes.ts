import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  subscribeNewsletterBody,
  subscribeNewsletterResponse,
} from '../../../shared/contracts/newsletter';
import { presentSubscription } from './presenter';

export async function newsletterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { newsletter } = app.deps;

  app.post(
    '/api/newsletter/subscribe',
    {
      schema: {
        body: subscribeNewsletterBody,
        response: { 200: subscribeNewsletterResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { email, subscriptionSource } = request.body;
      await newsletter.subscribe(email, subscriptionSource, request.ip);
      return presentSubscription(email);
    },
  );
}

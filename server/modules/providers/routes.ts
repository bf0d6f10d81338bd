import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { userIdParam } from '../../../shared/contracts/params';
import { providerView } from '../../../shared/contracts/providers';
import { notFound } from '../../lib/errors';
import { providersPolicy } from './policy';
import { presentProvider } from './presenter';

export async function providersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { providers } = app.deps;

  app.get(
    '/api/providers/user/:userId',
    {
      preValidation: async (request) => {
        providersPolicy.ownUserProfile(request);
      },
      schema: { params: userIdParam, response: { 200: providerView, ...errorResponses } },
    },
    async (request) => {
      const provider = await providers.findByUserId(request.params.userId);
      if (!provider) throw notFound('Provider profile');
      return presentProvider(provider);
    },
  );
}

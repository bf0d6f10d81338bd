import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/errors';
import { providersPolicy } from './policy';
import { presentProvider } from './presenter';
import { providersService } from './service';

export async function providersRoutes(app: FastifyInstance): Promise<void> {
  const { database } = app.deps;

  app.get('/api/providers/user/:userId', async (request) => {
    const { userId } = providersPolicy.ownUserProfile(request);
    const provider = await providersService.findByUserId(database.db, userId);
    if (!provider) throw notFound('Provider profile');
    return presentProvider(provider);
  });
}

import type { FastifyInstance } from 'fastify';
import { userIdParam } from '../../../shared/contracts/params';
import { forbidden, notFound } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentProvider } from './presenter';
import { providersService } from './service';

export async function providersRoutes(app: FastifyInstance): Promise<void> {
  const { database } = app.deps;

  app.get('/api/providers/user/:userId', async (request) => {
    const auth = requireUser(request);
    const { userId } = parse(userIdParam, request.params);
    if (userId !== auth.userId) throw forbidden();
    const provider = await providersService.findByUserId(database.db, userId);
    if (!provider) throw notFound('Provider profile');
    return presentProvider(provider);
  });
}

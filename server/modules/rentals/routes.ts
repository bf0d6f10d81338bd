import type { FastifyInstance } from 'fastify';
import { idParam, providerIdParam, userIdParam } from '../../../shared/contracts/params';
import { createRentalBody } from '../../../shared/contracts/rentals';
import { forbidden } from '../../lib/errors';
import { recordAnswer } from '../../lib/idempotency';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { providersService } from '../providers/service';
import { presentRental } from './presenter';

export async function rentalsRoutes(app: FastifyInstance): Promise<void> {
  const { rentals, clock, database } = app.deps;

  app.post('/api/rentals', { config: { idempotency: true } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(createRentalBody, request.body);
    const rental = await rentals.rent(userId, body, clock.now(), {
      record: recordAnswer(request, 201, presentRental),
    });
    return reply.status(201).send(presentRental(rental));
  });

  app.patch('/api/rentals/:id/stop', async (request) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    return presentRental(await rentals.stop(userId, id, clock.now()));
  });

  app.get('/api/rentals/user/:userId', async (request) => {
    const auth = requireUser(request);
    const { userId } = parse(userIdParam, request.params);
    if (userId !== auth.userId) throw forbidden();
    return (await rentals.listByUser(userId)).map(presentRental);
  });

  app.get('/api/rentals/provider/:providerId', async (request) => {
    const auth = requireUser(request);
    const { providerId } = parse(providerIdParam, request.params);
    const own = await providersService.providerIdOf(database.db, auth.userId);
    if (own !== providerId)
      throw forbidden('You can only see the rentals of your own provider profile.');
    return (await rentals.listByProvider(providerId)).map(presentRental);
  });
}

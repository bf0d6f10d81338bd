import type { FastifyInstance } from 'fastify';
import { idParam, providerIdParam } from '../../../shared/contracts/params';
import { createRentalBody } from '../../../shared/contracts/rentals';
import { recordAnswer } from '../../lib/idempotency';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { instancesPolicy } from './policy';
import { presentRental } from './presenter';

/** Marketplace rentals: instances on the booked plan, in the words of spec part 1. */
export async function rentalsRoutes(app: FastifyInstance): Promise<void> {
  const { instances, clock, database } = app.deps;

  app.post('/api/rentals', { config: { idempotency: true } }, async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(createRentalBody, request.body);
    const rental = await instances.rent(userId, body, clock.now(), {
      record: recordAnswer(request, 201, presentRental),
    });
    return reply.status(201).send(presentRental(rental));
  });

  app.patch('/api/rentals/:id/stop', async (request) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    return presentRental(await instances.stopRental(userId, id, clock.now()));
  });

  app.get('/api/rentals/user/:userId', async (request) => {
    const { userId } = instancesPolicy.ownUserList(request);
    return (await instances.listRentalsByUser(userId)).map(presentRental);
  });

  app.get('/api/rentals/provider/:providerId', async (request) => {
    requireUser(request);
    const { providerId } = parse(providerIdParam, request.params);
    await instancesPolicy.ownProvider(request, providerId, database.db);
    return (await instances.listRentalsByProvider(providerId)).map(presentRental);
  });
}

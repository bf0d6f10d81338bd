import type { FastifyInstance } from 'fastify';
import {
  createListingBody,
  listingsQuery,
  NEXT_CURSOR_HEADER,
  updateListingBody,
} from '../../../shared/contracts/listings';
import { idParam } from '../../../shared/contracts/rentals';
import { microsToDollars } from '../../../shared/rules/money';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentListing } from './presenter';
import { listingsService } from './service';

export async function listingsRoutes(app: FastifyInstance): Promise<void> {
  const { database, clock } = app.deps;
  const db = database.db;

  /** The list shape stays an array; the next page's cursor travels in a header. */
  app.get('/api/gpu-listings', async (request, reply) => {
    const query = parse(listingsQuery, request.query);
    const { rows, nextCursor } = await listingsService.list(db, query);
    if (nextCursor) reply.header(NEXT_CURSOR_HEADER, nextCursor);
    return rows.map(presentListing);
  });

  app.get('/api/marketplace/stats', async () => {
    const stats = await listingsService.stats(db);
    return {
      availableGPUs: stats.availableGPUs,
      avgPrice: microsToDollars(stats.avgRateMicros),
      activeRentals: stats.activeRentals,
      providersOnline: stats.providersOnline,
    };
  });

  app.post('/api/gpu-listings', async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(createListingBody, request.body);
    const created = await listingsService.create(db, userId, body);
    return reply.status(201).send(presentListing(created));
  });

  app.patch('/api/gpu-listings/:id', async (request) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    const body = parse(updateListingBody, request.body);
    return presentListing(await listingsService.update(db, userId, id, body));
  });

  app.delete('/api/gpu-listings/:id', async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    await listingsService.remove(db, userId, id, clock.now());
    return reply.status(204).send();
  });
}

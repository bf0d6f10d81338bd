import type { FastifyInstance } from 'fastify';
import {
  createListingBody,
  listingsQuery,
  type MarketplaceStats,
  NEXT_CURSOR_HEADER,
  updateListingBody,
} from '../../../shared/contracts/listings';
import { idParam } from '../../../shared/contracts/params';
import { microsToDollars } from '../../../shared/rules/money';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentListing } from './presenter';
import { listingsService } from './service';

export async function listingsRoutes(app: FastifyInstance): Promise<void> {
  const { database, clock, readCache } = app.deps;
  const db = database.db;

  /** The list shape stays an array; the next page's cursor travels in a header. */
  app.get('/api/gpu-listings', { config: { publicRead: true } }, async (request, reply) => {
    const query = parse(listingsQuery, request.query);
    // A demo visitor's own sandbox listings join their view only (ADR 010).
    const sandbox = request.auth
      ? await listingsService.sandboxProviderOf(db, request.auth.userId)
      : undefined;
    const key = `listings:${sandbox ?? ''}:${JSON.stringify(query)}`;
    const page = await readCache.getOrLoad(key, async () => {
      const { rows, nextCursor } = await listingsService.list(db, query, sandbox);
      return { body: JSON.stringify(rows.map(presentListing)), nextCursor };
    });
    if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return reply.type('application/json; charset=utf-8').send(page.body);
  });

  app.get('/api/marketplace/stats', { config: { publicRead: true } }, async (_request, reply) => {
    const page = await readCache.getOrLoad('stats', async () => {
      const stats = await listingsService.stats(db);
      const body: MarketplaceStats = {
        availableGPUs: stats.availableGPUs,
        avgPrice: microsToDollars(stats.avgRateMicros),
        activeRentals: stats.activeRentals,
        providersOnline: stats.providersOnline,
      };
      return { body: JSON.stringify(body), nextCursor: null };
    });
    return reply.type('application/json; charset=utf-8').send(page.body);
  });

  app.post('/api/gpu-listings', async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(createListingBody, request.body);
    const created = await listingsService.create(db, userId, body);
    readCache.invalidate();
    return reply.status(201).send(presentListing(created));
  });

  app.patch('/api/gpu-listings/:id', async (request) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    const body = parse(updateListingBody, request.body);
    const updated = await listingsService.update(db, userId, id, body);
    readCache.invalidate();
    return presentListing(updated);
  });

  app.delete('/api/gpu-listings/:id', async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = parse(idParam, request.params);
    await listingsService.remove(db, userId, id, clock.now());
    readCache.invalidate();
    return reply.status(204).send();
  });
}

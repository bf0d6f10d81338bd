import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  createListingBody,
  gpuListingView,
  listingsQuery,
  type MarketplaceStats,
  marketplaceStats,
  NEXT_CURSOR_HEADER,
  updateListingBody,
} from '../../../shared/contracts/listings';
import { idParam } from '../../../shared/contracts/params';
import { microsToDollars } from '../../../shared/rules/money';
import { sendJsonText } from '../../lib/json-text';
import { requireUser, signedIn } from '../../plugins/session';
import { presentListing } from './presenter';

export async function listingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { listings, clock, readCache } = app.deps;
  const listingResponse = { 200: gpuListingView, ...errorResponses };

  /**
   * The list shape stays an array; the next page's cursor travels in a header. Pages are
   * cached as JSON text (lib/read-cache.ts) and sent as they are.
   */
  app.get(
    '/api/gpu-listings',
    {
      config: { publicRead: true },
      schema: {
        querystring: listingsQuery,
        response: { 200: z.array(gpuListingView), ...errorResponses },
      },
    },
    async (request, reply) => {
      const query = request.query;
      // A demo visitor's own sandbox listings join their view only (ADR 010).
      const sandbox = request.auth
        ? await listings.sandboxProviderOf(request.auth.userId)
        : undefined;
      const key = `listings:${sandbox ?? ''}:${JSON.stringify(query)}`;
      const page = await readCache.getOrLoad(key, async () => {
        const { json, nextCursor } = await listings.page(query, {
          view: 'market',
          viewerSandboxId: sandbox,
          now: clock.now(),
        });
        return { body: json, nextCursor };
      });
      if (page.nextCursor) reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return sendJsonText(reply, page.body);
    },
  );

  app.get(
    '/api/marketplace/stats',
    {
      config: { publicRead: true },
      schema: { response: { 200: marketplaceStats, ...errorResponses } },
    },
    async (_request, reply) => {
      const page = await readCache.getOrLoad('stats', async () => {
        const stats = await listings.stats();
        const body: MarketplaceStats = {
          availableGPUs: stats.availableGPUs,
          avgPrice: microsToDollars(stats.avgRateMicros),
          activeRentals: stats.activeRentals,
          providersOnline: stats.providersOnline,
        };
        return { body: JSON.stringify(body), nextCursor: null };
      });
      return sendJsonText(reply, page.body);
    },
  );

  app.post(
    '/api/gpu-listings',
    {
      preValidation: signedIn,
      schema: { body: createListingBody, response: { 201: gpuListingView, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const created = await listings.create(userId, request.body);
      readCache.invalidate();
      return reply.status(201).send(presentListing(created));
    },
  );

  app.patch(
    '/api/gpu-listings/:id',
    {
      preValidation: signedIn,
      schema: { params: idParam, body: updateListingBody, response: listingResponse },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const updated = await listings.update(userId, request.params.id, request.body);
      readCache.invalidate();
      return presentListing(updated);
    },
  );

  app.delete(
    '/api/gpu-listings/:id',
    {
      preValidation: signedIn,
      schema: { params: idParam, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await listings.remove(userId, request.params.id, clock.now());
      readCache.invalidate();
      return reply.status(204).send();
    },
  );
}

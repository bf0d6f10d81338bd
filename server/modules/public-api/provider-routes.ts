import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  providerHostsAnswer,
  providerListingsPage,
  providerListingsQuery,
} from '../../../shared/contracts/public-api';
import { notAProvider } from '../../lib/errors';
import { providerHostsService } from '../hosts/provider-hosts';
import { presentListing } from '../listings/presenter';
import { listingsService } from '../listings/service';
import { providersService } from '../providers/service';
import { requireKey } from './access';

/**
 * A provider's own listings and hosts (registered inside publicApiRoutes), as the provider
 * dashboard shows them; a key whose user has no (approved) provider profile gets 403
 * NOT_A_PROVIDER, as the dashboard's calls do.
 */
export function registerProviderRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, clock } = app.deps;
  const db = database.db;

  app.get(
    '/provider/listings',
    {
      schema: {
        tags: ['Provider'],
        operationId: 'listProviderListings',
        summary: 'Your GPU listings (providers)',
        description:
          'Every listing of your provider profile, whatever its status (available, rented, maintenance), a page at a time with `cursor`. 403 `NOT_A_PROVIDER` without an approved provider profile.',
        querystring: providerListingsQuery,
        response: { 200: providerListingsPage, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const providerId = await providersService.providerIdOf(db, userId);
      if (providerId === null) throw notAProvider();
      const { limit, cursor } = request.query;
      const { rows, uptime, nextCursor } = await listingsService.list(
        db,
        { providerId, limit, ...(cursor ? { cursor } : {}) },
        undefined,
        clock.now(),
      );
      return { listings: rows.map((row) => presentListing(row, uptime)), nextCursor };
    },
  );

  app.get(
    '/provider/hosts',
    {
      schema: {
        tags: ['Provider'],
        operationId: 'listProviderHosts',
        summary: 'Your hosts (providers)',
        description:
          'The machines running your listings’ instances: status, last heartbeat, 30-day uptime, GPUs with their readings, and what runs on them. 403 `NOT_A_PROVIDER` without an approved provider profile.',
        response: { 200: providerHostsAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { hosts: await providerHostsService.list(db, userId, clock.now()) };
    },
  );
}

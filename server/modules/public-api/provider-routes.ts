import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { idParam } from '../../../shared/contracts/params';
import {
  providerCreateListingBody,
  providerHostsAnswer,
  providerListingAnswer,
  providerListingsPage,
  providerListingsQuery,
  providerUpdateListingBody,
} from '../../../shared/contracts/public-api';
import { notAProvider } from '../../lib/errors';
import { sendJsonText } from '../../lib/json-text';
import { presentListing } from '../listings/presenter';
import { keyIdempotency, requireKey } from './access';

/**
 * A provider's own listings and hosts (registered inside publicApiRoutes), as the provider
 * dashboard shows them; a key whose user has no (approved) provider profile gets 403
 * NOT_A_PROVIDER, as the dashboard's calls do.
 */
export function registerProviderRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { providers, listings, providerHosts, clock, readCache } = app.deps;

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
    async (request, reply) => {
      const { userId } = requireKey(request);
      const providerId = await providers.providerIdOf(userId);
      if (providerId === null) throw notAProvider();
      const { limit, cursor } = request.query;
      // The listings come as JSON text (listings/page-query.ts).
      const { json, nextCursor } = await listings.page(
        { providerId, limit, ...(cursor ? { cursor } : {}) },
        { view: 'market', now: clock.now() },
      );
      return sendJsonText(reply, `{"listings":${json},"nextCursor":${JSON.stringify(nextCursor)}}`);
    },
  );

  app.post(
    '/provider/listings',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Provider'],
        operationId: 'createProviderListing',
        summary: 'List a GPU (providers)',
        description:
          'The provider dashboard’s Add Listing: model, memory, location, hourly rate (the daily rate is derived), how many units, specifications, and optionally the host (`hostId`) and its GPU indexes that run it. Without a host it cannot be rented until one is connected. 403 `NOT_A_PROVIDER` without an approved provider profile.',
        body: providerCreateListingBody,
        response: { 201: providerListingAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      // The service takes the caller's provider (403 NOT_A_PROVIDER without one).
      const created = await listings.create(userId, request.body);
      readCache.invalidate();
      return reply.status(201).send({ listing: presentListing(created) });
    },
  );

  app.patch(
    '/provider/listings/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Provider'],
        operationId: 'updateProviderListing',
        summary: 'Change one of your listings (providers)',
        description:
          'Any of the listing’s fields; `status` `maintenance` takes it off the marketplace and `available` puts it back; `totalCount` cannot go below the units rented now. Another provider’s listing is 403.',
        params: idParam,
        body: providerUpdateListingBody,
        response: { 200: providerListingAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const updated = await listings.update(userId, request.params.id, request.body);
      readCache.invalidate();
      return { listing: presentListing(updated) };
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
      return { hosts: await providerHosts.list(userId, clock.now()) };
    },
  );
}

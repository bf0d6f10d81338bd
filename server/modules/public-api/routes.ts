import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  accountUsage,
  apiKeyIdParam,
  apiKeyView,
  createInstanceBody,
  createPublicRentalBody,
  type GpuListingsPage,
  gpuListingsPage,
  instanceAnswer,
  instanceIdParam,
  instancesPage,
  instancesQuery,
  publicAccount,
  publicListingsQuery,
  rentalAnswer,
  rentalsList,
  rentalsQuery,
  TIER_LIMITS,
  updatePublicRentalBody,
} from '../../../shared/contracts/public-api';
import { addSshKeyBody, sshKeyIdParam, sshKeyView } from '../../../shared/contracts/ssh-keys';
import { microsToDollars } from '../../../shared/rules/money';
import { quoteRental } from '../../../shared/rules/pricing';
import { AppError, badRequest, notFound, validationFailed } from '../../lib/errors';
import { recordAnswer } from '../../lib/idempotency';
import { sendJsonText } from '../../lib/json-text';
import { presentApiKey } from '../api-keys/presenter';
import { apiKeysService } from '../api-keys/service';
import { presentRental, rentalStatus } from '../instances/presenter';
import type { InstanceRow } from '../instances/service';
import { presentListing } from '../listings/presenter';
import { listingsService } from '../listings/service';
import { presentSshKey } from '../ssh-keys/presenter';
import { sshKeysService } from '../ssh-keys/service';
import { usersService } from '../users/service';
import { keyIdempotency, registerApiKeyAccess, requireKey } from './access';
import { registerBillingRoutes } from './billing-routes';
import { instanceCostMicros, presentPublicInstance, presentPublicListing } from './presenter';
import { registerProviderRoutes } from './provider-routes';
import { registerTemplateRoutes } from './template-routes';
import { templateCreateInput } from './templates';

const USAGE_INSTANCES = 500;

/** Keyset cursor of the instance list: the last id seen, as opaque text. */
const encodeInstanceCursor = (id: number) => Buffer.from(`i:${id}`).toString('base64url');
function decodeInstanceCursor(cursor: string): number {
  const match = /^i:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id))
    throw badRequest('The cursor is not valid. Start again without it.');
  return id;
}

const answerOf = (row: InstanceRow) => ({ instance: presentPublicInstance(row) });

/**
 * The public API (spec part 2 section 7), registered under /api/v1: every route takes an API
 * key (modules/public-api/access.ts), counts against the key's hourly tier and declares the
 * permission it needs; every POST, PATCH, PUT and DELETE honours Idempotency-Key. The OpenAPI
 * document is generated from these declarations (openapi.ts).
 */
export async function publicApiRoutes(fastify: FastifyInstance): Promise<void> {
  registerApiKeyAccess(fastify);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, clock, instances, readCache } = app.deps;
  const db = database.db;

  /**
   * A demo visitor's sandbox provider, remembered a while: it is made with the account, before
   * any key exists, and never changes (ADR 010).
   */
  const sandboxes = new Map<string, { id: number | undefined; until: number }>();
  async function sandboxOf(userId: string): Promise<number | undefined> {
    const at = Date.now();
    const hit = sandboxes.get(userId);
    if (hit && hit.until > at) return hit.id;
    const id = await listingsService.sandboxProviderOf(db, userId);
    if (sandboxes.size >= 10_000) sandboxes.clear();
    sandboxes.set(userId, { id, until: at + 60_000 });
    return id;
  }

  /** Another demo visitor's sandbox listing does not exist for this caller (ADR 010). */
  async function listingFor(userId: string, gpuListingId: number) {
    const found = await listingsService.findById(db, gpuListingId);
    if (!found || (found.provider.isSandbox && found.provider.userId !== userId)) {
      throw notFound('GPU listing');
    }
    return found;
  }

  /** A booked rental at the server's own quote (the client names only listing and hours). */
  async function rentBooked(
    request: FastifyRequest,
    userId: string,
    gpuListingId: number,
    durationHours: number,
    present: (row: InstanceRow) => unknown,
  ) {
    const { listing } = await listingFor(userId, gpuListingId);
    const quote = quoteRental(listing.hourlyRateMicros, durationHours);
    return instances.rent(
      userId,
      {
        gpuListingId,
        providerId: listing.providerId,
        durationHours,
        hourlyRate: quote.hourlyRate,
        totalCost: quote.totalCost,
      },
      clock.now(),
      { record: recordAnswer(request, 201, present) },
    );
  }

  // ---- GPU listings ------------------------------------------------------------------------

  app.get(
    '/gpu-listings',
    {
      schema: {
        tags: ['GPUs'],
        operationId: 'listGpus',
        summary: 'Available GPUs',
        description:
          'The marketplace, a page at a time (`limit` up to 100, `cursor` from the last page). Filter by `model` (search) or `gpuType`; sort by `price-asc`, `price-desc`, `memory` or `performance`.',
        querystring: publicListingsQuery,
        response: { 200: gpuListingsPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      // A demo visitor's own sandbox listings join their view only (ADR 010).
      const sandbox = await sandboxOf(userId);
      // Pages are cached as bytes like the marketplace's (lib/read-cache.ts): every write that
      // changes listings clears them.
      const key = `v1:listings:${sandbox ?? ''}:${JSON.stringify(request.query)}`;
      const page = await readCache.getOrLoad(key, async () => {
        const { rows, uptime, nextCursor } = await listingsService.list(
          db,
          request.query,
          sandbox,
          clock.now(),
        );
        const answer: GpuListingsPage = {
          gpus: rows.map((row) => presentPublicListing(presentListing(row, uptime))),
          nextCursor,
        };
        return { body: Buffer.from(JSON.stringify(answer)), nextCursor };
      });
      return sendJsonText(reply, page.body);
    },
  );

  // ---- Instances ---------------------------------------------------------------------------

  app.post(
    '/instances',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Instances'],
        operationId: 'createInstance',
        summary: 'Create an instance',
        description:
          'With `durationHours`: a booked rental at the current price, the hours and the $2.50 storage add-on paid up front (unused time refunded when it is stopped). Without: a metered instance with 50 GB of storage, charged by the minute; the balance must cover one hour. A metered instance may take a `template` from GET /templates: an Instant Deploy template (its software installed on first boot, its cores and RAM) or a VM image (`windows11` only on a listing whose host offers it, else 409). 402 `INSUFFICIENT_CREDITS` carries `required`, `available` and `currency`.',
        body: createInstanceBody,
        response: { 201: instanceAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const { gpuListingId, durationHours, sshKeyId, template } = request.body;
      if (sshKeyId) {
        try {
          await sshKeysService.authorizedKeys(db, userId, [sshKeyId]);
        } catch (error) {
          if (error instanceof AppError && error.status === 404) {
            throw validationFailed({ sshKeyId: ['Not one of your SSH keys'] });
          }
          throw error;
        }
      }
      let row: InstanceRow;
      if (durationHours === undefined) {
        const found = await listingFor(userId, gpuListingId);
        const setup = template ? await templateCreateInput(db, found, template) : {};
        // The Idempotency-Key answer is stored in the create's own transaction.
        row = await instances.createMetered(
          userId,
          { ...setup, gpuListingId, source: 'api', storageGb: 50 },
          clock.now(),
          { record: recordAnswer(request, 201, answerOf) },
        );
      } else {
        row = await rentBooked(request, userId, gpuListingId, durationHours, answerOf);
      }
      return reply.status(201).send(answerOf(row));
    },
  );

  app.get(
    '/instances',
    {
      schema: {
        tags: ['Instances'],
        operationId: 'listInstances',
        summary: 'Your instances',
        description:
          'Every instance of yours, booked and metered, newest first; filter by `status`; a page at a time with `cursor`.',
        querystring: instancesQuery,
        response: { 200: instancesPage, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const { status, limit, cursor } = request.query;
      const beforeId = cursor ? decodeInstanceCursor(cursor) : undefined;
      const rows = await instances.listPageByUser(userId, {
        ...(status ? { status } : {}),
        ...(beforeId !== undefined ? { beforeId } : {}),
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        instances: page.map(presentPublicInstance),
        nextCursor: rows.length > limit && last ? encodeInstanceCursor(last.instance.id) : null,
      };
    },
  );

  app.get(
    '/instances/:id',
    {
      schema: {
        tags: ['Instances'],
        operationId: 'getInstance',
        summary: 'One instance',
        params: instanceIdParam,
        response: { 200: instanceAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return answerOf(await instances.getOwn(userId, request.params.id));
    },
  );

  app.patch(
    '/instances/:id/stop',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Instances'],
        operationId: 'stopInstance',
        summary: 'Stop an instance',
        description:
          'A metered instance stops (its disk kept, compute no longer charged; start it again later). A booked rental ends: used time is paid, the rest refunded. Stopping a rental twice changes nothing.',
        params: instanceIdParam,
        response: { 200: instanceAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const { id } = request.params;
      const { instance } = await instances.getOwn(userId, id);
      const now = clock.now();
      return answerOf(
        instance.billingPlan === 'booked'
          ? await instances.stopRental(userId, id, now, 'api')
          : await instances.stop(userId, id, now),
      );
    },
  );

  app.post(
    '/instances/:id/start',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Instances'],
        operationId: 'startInstance',
        summary: 'Start a stopped instance',
        description: 'Needs one hour at its rate in the balance and a free GPU of its listing.',
        params: instanceIdParam,
        response: { 200: instanceAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return answerOf(await instances.start(userId, request.params.id, clock.now()));
    },
  );

  app.delete(
    '/instances/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Instances'],
        operationId: 'terminateInstance',
        summary: 'Terminate an instance',
        description: 'Ends it for good and deletes its disk; a booked rental is settled.',
        params: instanceIdParam,
        response: { 200: instanceAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return answerOf(await instances.terminate(userId, request.params.id, clock.now(), 'api'));
    },
  );

  // ---- Rentals: the documentation page's older reading -------------------------------------

  app.get(
    '/rentals',
    {
      schema: {
        tags: ['Rentals'],
        operationId: 'listRentals',
        summary: 'Your rentals (booked instances)',
        querystring: rentalsQuery,
        response: { 200: rentalsList, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const { status } = request.query;
      const rows = await instances.listRentalsByUser(userId);
      return {
        rentals: rows
          .filter((row) => status === 'all' || rentalStatus(row.instance) === status)
          .map(presentRental),
      };
    },
  );

  app.post(
    '/rentals',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Rentals'],
        operationId: 'createRental',
        summary: 'Rent a GPU for a number of hours',
        description:
          'The same as creating an instance with `durationHours`: booked at the current price, paid up front.',
        body: createPublicRentalBody,
        response: { 201: rentalAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const { gpuListingId, duration } = request.body;
      const present = (row: InstanceRow) => ({ rental: presentRental(row) });
      const row = await rentBooked(request, userId, gpuListingId, duration, present);
      return reply.status(201).send(present(row));
    },
  );

  app.put(
    '/rentals/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Rentals'],
        operationId: 'updateRental',
        summary: 'Change a rental',
        description:
          'The one change a running rental takes is `{"action": "stop"}`: it ends, used time is paid and the rest refunded. Sending it again changes nothing.',
        params: instanceIdParam,
        body: updatePublicRentalBody,
        response: { 200: rentalAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const row = await instances.stopRental(userId, request.params.id, clock.now(), 'api');
      return { rental: presentRental(row) };
    },
  );

  // ---- Account ----------------------------------------------------------------------------

  app.get(
    '/account',
    {
      schema: {
        tags: ['Account'],
        operationId: 'getAccount',
        summary: 'Your account, balance and this key',
        response: { 200: publicAccount, ...errorResponses },
      },
    },
    async (request) => {
      const key = requireKey(request);
      const profile = await usersService.getProfile(db, key.userId);
      return {
        id: profile.id,
        email: profile.email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        balance: microsToDollars(profile.balanceMicros),
        currency: 'USD' as const,
        apiKey: {
          id: key.keyId,
          permissions: key.permissions,
          rateTier: key.rateTier,
          requestsPerHour: TIER_LIMITS[key.rateTier],
        },
      };
    },
  );

  app.get(
    '/account/usage',
    {
      schema: {
        tags: ['Account'],
        operationId: 'getUsage',
        summary: 'What your instances have cost',
        description: `Your newest ${USAGE_INSTANCES} instances with what each has cost so far, and their total.`,
        response: { 200: accountUsage, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const rows = await instances.listPageByUser(userId, { limit: USAGE_INSTANCES });
      let total = 0n;
      const lines = rows.map(({ instance, listing }) => {
        const cost = instanceCostMicros(instance);
        total += cost;
        return {
          instanceId: instance.id,
          gpuModel: listing.model,
          billingPlan:
            instance.billingPlan === 'booked' ? ('booked' as const) : ('metered' as const),
          status: presentPublicInstance({ instance, listing } as InstanceRow).status,
          startedAt: instance.startTime.toISOString(),
          endedAt: instance.endTime?.toISOString() ?? null,
          cost: microsToDollars(cost),
        };
      });
      return { currency: 'USD' as const, totalCost: microsToDollars(total), instances: lines };
    },
  );

  // ---- SSH keys ---------------------------------------------------------------------------

  app.get(
    '/ssh-keys',
    {
      schema: {
        tags: ['SSH keys'],
        operationId: 'listSshKeys',
        summary: 'Your SSH public keys',
        response: { 200: z.object({ sshKeys: z.array(sshKeyView) }), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { sshKeys: (await sshKeysService.list(db, userId)).map(presentSshKey) };
    },
  );

  app.post(
    '/ssh-keys',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['SSH keys'],
        operationId: 'addSshKey',
        summary: 'Add an SSH public key',
        description: 'Installed on every instance created afterwards.',
        body: addSshKeyBody,
        response: { 201: z.object({ sshKey: sshKeyView }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const row = await db.transaction((tx) => sshKeysService.add(tx, userId, request.body));
      return reply.status(201).send({ sshKey: presentSshKey(row) });
    },
  );

  app.delete(
    '/ssh-keys/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['SSH keys'],
        operationId: 'removeSshKey',
        summary: 'Remove an SSH public key',
        params: sshKeyIdParam,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      await sshKeysService.remove(db, userId, request.params.id);
      return reply.status(204).send();
    },
  );

  // ---- API keys (admin) -------------------------------------------------------------------

  app.get(
    '/api-keys',
    {
      config: { permission: 'admin' },
      schema: {
        tags: ['API keys'],
        operationId: 'listApiKeys',
        summary: 'Your API keys (admin permission)',
        response: { 200: z.object({ apiKeys: z.array(apiKeyView) }), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { apiKeys: (await apiKeysService.list(db, userId)).map(presentApiKey) };
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      config: { permission: 'admin', ...keyIdempotency },
      schema: {
        tags: ['API keys'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key (admin permission)',
        params: apiKeyIdParam,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      await apiKeysService.revoke(db, userId, request.params.id, clock.now());
      return reply.status(204).send();
    },
  );

  registerTemplateRoutes(app);
  registerBillingRoutes(app);
  registerProviderRoutes(app);

  // ---- The document itself ----------------------------------------------------------------

  app.get(
    '/openapi.json',
    {
      config: { permission: 'none', publicRead: true },
      schema: {
        hide: true,
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses },
      },
    },
    async () => fastify.swagger() as unknown as Record<string, unknown>,
  );
}

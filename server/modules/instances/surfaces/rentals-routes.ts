import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../../shared/contracts/errors';
import { idParam, providerIdParam, userIdParam } from '../../../../shared/contracts/params';
import {
  createRentalBody,
  launchedRentalView,
  rentalView,
} from '../../../../shared/contracts/rentals';
import { recordAnswer } from '../../../lib/idempotency';
import { requireUser, signedIn } from '../../../plugins/session';
import { launchWarnings } from '../../ssh-keys/service';
import { instancesPolicy } from '../policy';
import { presentProviderInstance, presentRental } from '../reads/presenter';
import type { InstanceRow } from '../repo-rows';

/** Marketplace rentals: the instances listed as rentals, in the marketplace's words (shared/contracts/rentals.ts). */
export async function rentalsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { instances, clock } = app.deps;

  app.post(
    '/api/rentals',
    {
      config: { idempotency: true },
      preValidation: signedIn,
      schema: { body: createRentalBody, response: { 201: launchedRentalView, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { gpuListingId, providerId, durationHours, hourlyRate, totalCost } = request.body;
      const present = (row: InstanceRow) => ({
        ...presentRental(row),
        warnings: launchWarnings(row),
      });
      const rental = await instances.launch(
        {
          userId,
          source: 'marketplace',
          listing: { id: gpuListingId, providerId },
          plan: { name: 'booked', hours: durationHours, quote: { hourlyRate, totalCost } },
          record: async () => recordAnswer(request, 201, present),
        },
        clock.now(),
      );
      return reply.status(201).send(present(rental));
    },
  );

  app.patch(
    '/api/rentals/:id/stop',
    {
      preValidation: signedIn,
      schema: { params: idParam, response: { 200: rentalView, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return presentRental(await instances.stopRental(userId, request.params.id, clock.now()));
    },
  );

  app.get(
    '/api/rentals/user/:userId',
    {
      preValidation: async (request) => {
        instancesPolicy.ownUserList(request);
      },
      schema: { params: userIdParam, response: { 200: z.array(rentalView), ...errorResponses } },
    },
    async (request) => {
      return (await instances.listRentalsByUser(request.params.userId)).map(presentRental);
    },
  );

  app.get(
    '/api/rentals/provider/:providerId',
    {
      preValidation: signedIn,
      schema: {
        params: providerIdParam,
        response: { 200: z.array(rentalView), ...errorResponses },
      },
    },
    async (request) => {
      const { providerId } = request.params;
      await instancesPolicy.ownProvider(request, providerId, instances.providerIdOf);
      return (await instances.listProviderInstances(providerId)).map(({ row, earned }) =>
        presentProviderInstance(row, earned),
      );
    },
  );
}

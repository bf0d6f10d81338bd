import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  createdInstanceAnswer,
  createdRentalAnswer,
  createInstanceBody,
  createPublicRentalBody,
  instanceActionAnswer,
  instanceAnswer,
  instanceIdParam,
  instancesPage,
  instancesQuery,
  rentalAnswer,
  rentalsList,
  rentalsQuery,
  updateInstanceBody,
  updatePublicRentalBody,
} from '../../../shared/contracts/public-api';
import type { InstanceAction } from '../../../shared/rules/instance-lifecycle';
import { badRequest } from '../../lib/errors';
import { recordAnswer } from '../../lib/idempotency';
import { waitingForHost } from '../instances/host-side/host-presence';
import { requestedDeadlines } from '../instances/reads/deadlines-presenter';
import { requestedIdleStop } from '../instances/reads/idle-presenter';
import { presentRental, rentalStatus } from '../instances/reads/presenter';
import type { InstanceRow } from '../instances/service';
import { launchWarnings } from '../ssh-keys/service';
import { keyIdempotency, requireKey } from './access';
import { presentPublicInstance } from './presenter';

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
/** A stop, start or terminate's answer: with a note while its host is unreachable. */
const actionAnswerOf = (row: InstanceRow, action: InstanceAction) => ({
  ...answerOf(row),
  message: waitingForHost(row.instance, action),
});

/**
 * Instances of either plan, and the documentation page's older reading of booked ones as
 * rentals (registered inside publicApiRoutes).
 */
export function registerInstanceRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { clock, instances } = app.deps;

  /** A booked rental at the server's own quote (the client names only listing and hours). */
  const rentBooked = (
    request: FastifyRequest,
    userId: string,
    gpuListingId: number,
    durationHours: number,
    present: (row: InstanceRow) => unknown,
  ) =>
    instances.launch(
      {
        userId,
        source: 'marketplace',
        listing: { id: gpuListingId },
        plan: { name: 'booked', hours: durationHours },
        ...(request.apiKey ? { apiKeyId: request.apiKey.keyId } : {}),
        record: async () => recordAnswer(request, 201, present),
      },
      clock.now(),
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
          'With `durationHours`: a booked rental at the current price, the hours and the $2.50 storage add-on paid up front (unused time refunded when it is stopped). Without: a metered instance with 50 GB of storage, charged by the minute: storage from create, compute from the moment it is ready (never for its download or boot); the balance must cover one hour. A metered instance may take a `template` from GET /templates: an Instant Deploy template (its software installed on first boot, its cores and RAM) or a VM image (`windows11` only on a listing whose host offers it, else 409). `kind`: `vm` (the default) or `container` (metered only) with an OCI `image` (else the template’s image; none: 400); the listing’s host must run that kind now (its `kinds`), else 409 `HOST_NOT_READY` with `reason` and `fix`, before anything is charged. A container’s `sshUsername` is `root` (root of its own user namespace, not of the host). 402 `INSUFFICIENT_CREDITS` carries `required`, `available` and `currency`; 402 `SPEND_CAP_REACHED` (a daily or monthly spend cap of the account or of this key would be crossed: the hours and storage add-on of a rental, or the storage minute of a metered instance with room for its first compute minute) carries `cap`, `spent`, `period` (`day` or `month`) and `scope` (`account` or `api_key`). A metered instance may also take `stopAt` and `terminateAt` (see PATCH /instances/{id}). The answer’s `warnings` lists what to know about the new instance: `NO_SSH_KEY` when the account has no SSH key (and no `sshKeyId` was named), so ssh cannot sign in to it until one is added (POST /ssh-keys) while it is set up.',
        body: createInstanceBody,
        response: { 201: createdInstanceAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId, keyId: apiKeyId } = requireKey(request);
      const { gpuListingId, durationHours, sshKeyId, template, stopAt, terminateAt } = request.body;
      const { kind, image } = request.body;
      const { idleStopMinutes, idleThresholdPercent } = request.body;
      const created = (row: InstanceRow) => ({
        ...answerOf(row),
        warnings: launchWarnings(row, sshKeyId),
      });
      // The Idempotency-Key answer is stored in the launch's own transaction.
      const row = await instances.launch(
        {
          userId,
          source: durationHours === undefined ? 'api' : 'marketplace',
          listing: { id: gpuListingId },
          plan:
            durationHours === undefined
              ? {
                  name: 'metered',
                  storageGb: 50,
                  deadlines: requestedDeadlines(stopAt, terminateAt),
                  idleStop: requestedIdleStop(idleStopMinutes, idleThresholdPercent),
                }
              : { name: 'booked', hours: durationHours },
          template: durationHours === undefined ? (template ?? null) : null,
          ...(kind ? { kind } : {}),
          ...(image !== undefined ? { image } : {}),
          ...(sshKeyId ? { sshKeyId } : {}),
          apiKeyId,
          record: async () => recordAnswer(request, 201, created),
        },
        clock.now(),
      );
      return reply.status(201).send(created(row));
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
    '/instances/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['Instances'],
        operationId: 'updateInstance',
        summary: 'Set or clear its stop and terminate times and its idle stop',
        description:
          'A metered instance may carry `stopAt` (it is stopped then, its disk kept) and `terminateAt` (it is terminated then, its disk deleted): each in the future and within a year, else 400 `VALIDATION_FAILED` naming the field. `null` clears one; a field left out stays as it is. The worker carries a deadline out within a minute, billed as your own stop or terminate would be. `idleStopMinutes` (0: off, else 15 to 10080) and `idleThresholdPercent` (1 to 100, default 5) stop it, its disk kept, once its GPUs stayed under the threshold with no SSH session and no web console open for that many minutes; you are warned 10 minutes before (`idleWarnedAt`, and an e-mail if your instance alerts are on). An SSH connection counts once its host has seen it open 2 minutes (sshd drops one that has not logged in by then). A booked rental ends with its hours (409).',
        params: instanceIdParam,
        body: updateInstanceBody,
        response: { 200: instanceAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const { stopAt, terminateAt, idleStopMinutes, idleThresholdPercent } = request.body;
      const row = await instances.setSchedule(
        { userId },
        request.params.id,
        {
          deadlines: requestedDeadlines(stopAt, terminateAt),
          idle: requestedIdleStop(idleStopMinutes, idleThresholdPercent),
        },
        clock.now(),
      );
      return answerOf(row);
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
          'A metered instance stops (its disk kept, compute no longer charged; start it again later). A booked rental ends: used time is paid, the rest refunded. Idempotent: an instance already stopping, stopped, terminating, terminated or failed answers 200 with its current state and nothing changes (a rental is never settled twice). A provisioning metered instance cannot stop yet (409 `INVALID_STATE_TRANSITION`; terminate it instead).',
        params: instanceIdParam,
        response: { 200: instanceActionAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      // Each plan's stop: a rental ends (settled as 'api'), a metered instance stops.
      return actionAnswerOf(
        await instances.stop(userId, request.params.id, clock.now(), 'api'),
        'stop',
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
        description:
          'Needs one hour at its rate in the balance and a free GPU of its listing; its first minute is charged at once. Only a `stopped` instance starts: one still `stopping` answers 409 `INVALID_STATE_TRANSITION` (start it again once it has stopped; nothing is queued), and so does a terminated one.',
        params: instanceIdParam,
        response: { 200: instanceActionAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return actionAnswerOf(await instances.start(userId, request.params.id, clock.now()), 'start');
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
        description:
          'Ends it for good and deletes its disk; a booked rental is settled. Idempotent: an instance already terminating, terminated or failed (a booked rental after its stop, a retried DELETE) answers 200 with its current state and nothing changes.',
        params: instanceIdParam,
        response: { 200: instanceActionAnswer, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return actionAnswerOf(
        await instances.terminate(userId, request.params.id, clock.now(), 'api'),
        'terminate',
      );
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
          'The same as creating an instance with `durationHours`: booked at the current price, paid up front. `warnings` as for POST /instances (`NO_SSH_KEY`).',
        body: createPublicRentalBody,
        response: { 201: createdRentalAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const { gpuListingId, duration } = request.body;
      const present = (row: InstanceRow) => ({
        rental: presentRental(row),
        warnings: launchWarnings(row),
      });
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
}

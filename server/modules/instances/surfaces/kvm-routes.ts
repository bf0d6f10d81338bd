import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../../shared/contracts/errors';
import {
  billingSummary,
  createVmBody,
  gpuOffering,
  launchedVmView,
  updateVmDeadlinesBody,
  vmActionAnswer,
  vmInstanceView,
  vmTemplateOption,
} from '../../../../shared/contracts/kvm';
import { idParam } from '../../../../shared/contracts/params';
import { recordAnswer } from '../../../lib/idempotency';
import { requireUser, signedIn } from '../../../plugins/session';
import { launchWarnings } from '../../ssh-keys/service';
import type { Actor } from '../authorize';
import { waitingForHost } from '../host-side/host-presence';
import { presentVm } from '../reads/vm-presenter';
import type { InstanceRow } from '../repo-rows';

/** The VM dashboard shows the machines (plans listed as machines): a rental is not found here. */
const vmActor = (request: FastifyRequest): Actor => ({
  userId: requireUser(request).userId,
  shows: 'machine',
});

/**
 * The VM dashboard's API (shared/contracts/kvm.ts): the machines (metered instances) in
 * the dashboard's snake_case shapes. Only the owner sees or acts on an instance (404 otherwise).
 */
export async function kvmRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { instances, vms, clock } = app.deps;

  app.get(
    '/api/kvm/gpus',
    {
      preValidation: signedIn,
      schema: { response: { 200: z.array(gpuOffering), ...errorResponses } },
    },
    async (request) => vms.offerings(requireUser(request).userId),
  );

  app.get(
    '/api/kvm/templates',
    {
      preValidation: signedIn,
      schema: { response: { 200: z.array(vmTemplateOption), ...errorResponses } },
    },
    async (request) => vms.templates(requireUser(request).userId),
  );

  app.get(
    '/api/kvm/instances',
    {
      preValidation: signedIn,
      schema: { response: { 200: z.array(vmInstanceView), ...errorResponses } },
    },
    async (request) => vms.list(requireUser(request).userId, clock.now()),
  );

  app.post(
    '/api/kvm/instances',
    {
      config: { idempotency: true },
      preValidation: signedIn,
      schema: { body: createVmBody, response: { 201: launchedVmView, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const now = clock.now();
      // A new VM is provisioning: no connection info, nothing to read from its host yet.
      const present = (row: InstanceRow) => ({
        ...presentVm(row, undefined, now),
        warnings: launchWarnings(row),
      });
      const created = await vms.create(userId, request.body, now, {
        record: recordAnswer(request, 201, present),
      });
      return reply.status(201).send(present(created));
    },
  );

  for (const action of ['start', 'stop'] as const) {
    app.post(
      `/api/kvm/instances/:id/${action}`,
      {
        preValidation: signedIn,
        schema: { params: idParam, response: { 200: vmActionAnswer, ...errorResponses } },
      },
      async (request) => {
        const now = clock.now();
        const row = await instances[action](vmActor(request), request.params.id, now);
        return { ...(await vms.present(row, now)), message: waitingForHost(row.instance, action) };
      },
    );
  }

  app.patch(
    '/api/kvm/instances/:id',
    {
      preValidation: signedIn,
      schema: {
        params: idParam,
        body: updateVmDeadlinesBody,
        response: { 200: vmInstanceView, ...errorResponses },
      },
    },
    async (request) =>
      vms.setDeadlines(requireUser(request).userId, request.params.id, request.body, clock.now()),
  );

  app.delete(
    '/api/kvm/instances/:id',
    {
      preValidation: signedIn,
      schema: { params: idParam, response: { 200: vmActionAnswer, ...errorResponses } },
    },
    async (request) => {
      const now = clock.now();
      const row = await instances.terminate(vmActor(request), request.params.id, now);
      return {
        ...(await vms.present(row, now)),
        message: waitingForHost(row.instance, 'terminate'),
      };
    },
  );

  app.get(
    '/api/kvm/billing/summary',
    {
      preValidation: signedIn,
      schema: { response: { 200: billingSummary, ...errorResponses } },
    },
    async (request) => vms.billing(requireUser(request).userId, clock.now()),
  );
}

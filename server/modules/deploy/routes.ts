import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type DeployResultView,
  deployGpuList,
  deploymentStatusView,
  deployRequestBody,
  deployResultView,
} from '../../../shared/contracts/deploy';
import { errorResponses } from '../../../shared/contracts/errors';
import { idParam } from '../../../shared/contracts/params';
import { recordAnswer } from '../../lib/idempotency';
import { requireUser, signedIn } from '../../plugins/session';

/** Instant Deploy: the GPU list, a deploy, and a deployment's live status. */
export async function deployRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deploy, clock } = app.deps;

  app.get(
    '/api/deploy/gpus',
    {
      preValidation: signedIn,
      schema: { response: { 200: deployGpuList, ...errorResponses } },
    },
    async (request) => deploy.gpus(requireUser(request).userId),
  );

  app.post(
    '/api/deploy',
    {
      config: { idempotency: true },
      preValidation: signedIn,
      schema: { body: deployRequestBody, response: { 201: deployResultView, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const result = await deploy.deploy(
        userId,
        request.body,
        clock.now(),
        recordAnswer(request, 201, (answer: DeployResultView) => answer),
      );
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/deploy/:id',
    {
      preValidation: signedIn,
      schema: { params: idParam, response: { 200: deploymentStatusView, ...errorResponses } },
    },
    async (request) => deploy.status(requireUser(request).userId, request.params.id),
  );
}

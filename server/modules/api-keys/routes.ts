import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeyCapsBody,
  apiKeyIdParam,
  apiKeyView,
  createApiKeyBody,
  createdApiKey,
} from '../../../shared/contracts/api-keys';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import { requireUser, signedIn } from '../../plugins/session';
import { presentApiKey } from './presenter';

/** The caller's own API keys; identity from the session only. */
export async function apiKeysRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { apiKeys, clock } = app.deps;

  app.get(
    '/api/auth/api-keys',
    {
      preValidation: signedIn,
      schema: { response: { 200: z.array(apiKeyView), ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return (await apiKeys.list(userId)).map(presentApiKey);
    },
  );

  app.post(
    '/api/auth/api-keys',
    {
      preValidation: signedIn,
      schema: { body: createApiKeyBody, response: { 201: createdApiKey, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const { row, key } = await apiKeys.create(userId, request.body, clock.now());
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ ...presentApiKey(row), key });
    },
  );

  app.put(
    '/api/auth/api-keys/:id/caps',
    {
      preValidation: signedIn,
      schema: {
        params: apiKeyIdParam,
        body: apiKeyCapsBody,
        response: { 200: apiKeyView, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return presentApiKey(await apiKeys.setCaps(userId, request.params.id, request.body));
    },
  );

  app.delete(
    '/api/auth/api-keys/:id',
    {
      preValidation: signedIn,
      schema: { params: apiKeyIdParam, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await apiKeys.revoke(userId, request.params.id, clock.now());
      return reply.status(204).send();
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import { addSshKeyBody, sshKeyIdParam, sshKeyView } from '../../../shared/contracts/ssh-keys';
import { requireUser, signedIn } from '../../plugins/session';
import { presentSshKey } from './presenter';

/** The caller's own SSH public keys; rentals and the public API install them on instances. */
export async function sshKeysRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { sshKeys } = app.deps;

  app.get(
    '/api/ssh-keys',
    {
      preValidation: signedIn,
      schema: { response: { 200: z.array(sshKeyView), ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      return (await sshKeys.list(userId)).map(presentSshKey);
    },
  );

  app.post(
    '/api/ssh-keys',
    {
      preValidation: signedIn,
      schema: { body: addSshKeyBody, response: { 201: sshKeyView, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const row = await sshKeys.add(userId, request.body);
      return reply.status(201).send(presentSshKey(row));
    },
  );

  app.delete(
    '/api/ssh-keys/:id',
    {
      preValidation: signedIn,
      schema: { params: sshKeyIdParam, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await sshKeys.remove(userId, request.params.id);
      return reply.status(204).send();
    },
  );
}

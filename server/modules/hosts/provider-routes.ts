import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  createHostBody,
  createHostResponse,
  hostResponse,
  hostsResponse,
  updateHostBody,
} from '../../../shared/contracts/hosts';
import { uuidIdParam } from '../../../shared/contracts/params';
import { requireUser, signedIn } from '../../plugins/session';
import { registerAgentDownloads } from './downloads';

const hostIdParam = uuidIdParam('Not a host id');

/** The provider dashboard's hosts and the agent downloads (shared/contracts/hosts.ts). */
export async function providerHostsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Install commands name PUBLIC_URL, never the request's Host or Origin (ADR 014).
  const { providerHosts, clock, publicUrl } = app.deps;

  app.get(
    '/api/providers/hosts',
    { preValidation: signedIn, schema: { response: { 200: hostsResponse, ...errorResponses } } },
    async (request) => {
      const { userId } = requireUser(request);
      return { hosts: await providerHosts.list(userId, clock.now()) };
    },
  );

  app.post(
    '/api/providers/hosts',
    {
      preValidation: signedIn,
      schema: { body: createHostBody, response: { 201: createHostResponse, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const created = await providerHosts.create(userId, request.body, publicUrl(), clock.now());
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/providers/hosts/:id/enrolment',
    {
      preValidation: signedIn,
      schema: {
        params: hostIdParam,
        response: { 201: createHostResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      const renewed = await providerHosts.newEnrolment(
        userId,
        request.params.id,
        publicUrl(),
        clock.now(),
      );
      return reply.status(201).send(renewed);
    },
  );

  app.patch(
    '/api/providers/hosts/:id',
    {
      preValidation: signedIn,
      schema: {
        params: hostIdParam,
        body: updateHostBody,
        response: { 200: hostResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const host = await providerHosts.setPublicHost(
        userId,
        request.params.id,
        request.body.publicHost,
        clock.now(),
      );
      return { host };
    },
  );

  app.delete(
    '/api/providers/hosts/:id',
    {
      preValidation: signedIn,
      schema: { params: hostIdParam, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireUser(request);
      await providerHosts.remove(userId, request.params.id, clock.now());
      return reply.status(204).send();
    },
  );

  registerAgentDownloads(app);
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { providerHostsService } from './provider-hosts';

const hostIdParam = uuidIdParam('Not a host id');

/**
 * The origin the browser used, for absolute URLs shown to the user (the install command).
 * A same-origin write carries Origin (the session plugin refuses another site's), which also
 * keeps https behind a TLS-terminating proxy; otherwise the request's own protocol and host.
 */
export function requestOrigin(request: FastifyRequest): string {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') {
    try {
      const url = new URL(origin);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host === request.host)
        return url.origin;
    } catch {
      // fall through to the request's own address
    }
  }
  return `${request.protocol}://${request.host}`;
}

/** The provider dashboard's hosts and the agent downloads (shared/contracts/hosts.ts). */
export async function providerHostsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, clock } = app.deps;
  const db = database.db;

  app.get(
    '/api/providers/hosts',
    { preValidation: signedIn, schema: { response: { 200: hostsResponse, ...errorResponses } } },
    async (request) => {
      const { userId } = requireUser(request);
      return { hosts: await providerHostsService.list(db, userId, clock.now()) };
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
      const created = await providerHostsService.create(
        db,
        userId,
        request.body,
        requestOrigin(request),
        clock.now(),
      );
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
      const renewed = await providerHostsService.newEnrolment(
        db,
        userId,
        request.params.id,
        requestOrigin(request),
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
      const host = await providerHostsService.setPublicHost(
        db,
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
      await providerHostsService.remove(db, userId, request.params.id, clock.now());
      return reply.status(204).send();
    },
  );

  registerAgentDownloads(app);
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import {
  applicationIdParam,
  listProviderApplicationsResponse,
  myProviderApplicationResponse,
  providerApplicationBody,
  providerApplicationView,
  rejectApplicationBody,
} from '../../../shared/contracts/provider-application';
import { adminOnly, requireAdmin } from '../../plugins/admin';
import { requireUser, signedIn } from '../../plugins/session';
import { presentApplication } from './presenter';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) });

export async function providerApplicationsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { providerApplications: applications } = app.deps;
  const applicationResponse = { 200: providerApplicationView, ...errorResponses };

  // The application form's call: POST /api/providers with the full application.
  app.post(
    '/api/providers',
    {
      preValidation: signedIn,
      schema: {
        body: providerApplicationBody,
        response: { 201: providerApplicationView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireUser(request);
      const row = await applications.submit(auth.userId, request.body);
      return reply.status(201).send(presentApplication(row));
    },
  );

  app.get(
    '/api/provider-applications/mine',
    {
      preValidation: signedIn,
      schema: { response: { 200: myProviderApplicationResponse, ...errorResponses } },
    },
    async (request) => {
      const auth = requireUser(request);
      const row = await applications.latestOf(auth.userId);
      return { application: row ? presentApplication(row) : null };
    },
  );

  app.get(
    '/api/admin/provider-applications',
    {
      preValidation: adminOnly,
      schema: {
        querystring: listQuery,
        response: { 200: listProviderApplicationsResponse, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await applications.list(request.query.limit);
      return { applications: rows.map(presentApplication) };
    },
  );

  app.post(
    '/api/admin/provider-applications/:id/approve',
    {
      preValidation: adminOnly,
      schema: { params: applicationIdParam, response: applicationResponse },
    },
    async (request) => {
      const admin = requireAdmin(request);
      return presentApplication(await applications.approve(request.params.id, admin.userId));
    },
  );

  app.post(
    '/api/admin/provider-applications/:id/reject',
    {
      preValidation: adminOnly,
      schema: {
        params: applicationIdParam,
        body: rejectApplicationBody,
        response: applicationResponse,
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const { reason } = request.body;
      return presentApplication(await applications.reject(request.params.id, admin.userId, reason));
    },
  );
}

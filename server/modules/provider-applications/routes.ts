import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  applicationIdParam,
  providerApplicationBody,
  rejectApplicationBody,
} from '../../../shared/contracts/provider-application';
import { requireAdmin } from '../../lib/admin';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentApplication } from './presenter';
import { createProviderApplicationsService } from './service';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) });

export async function providerApplicationsRoutes(app: FastifyInstance): Promise<void> {
  const { database, clock, mailer } = app.deps;
  const applications = createProviderApplicationsService({
    db: database.db,
    clock,
    mailer,
    log: app.log,
  });

  // The spec's call: POST /api/providers with the full application.
  app.post('/api/providers', async (request, reply) => {
    const auth = requireUser(request);
    const input = parse(providerApplicationBody, request.body);
    const row = await applications.submit(auth.userId, input);
    return reply.status(201).send(presentApplication(row));
  });

  app.get('/api/provider-applications/mine', async (request) => {
    const auth = requireUser(request);
    const row = await applications.latestOf(auth.userId);
    return { application: row ? presentApplication(row) : null };
  });

  app.get('/api/admin/provider-applications', async (request) => {
    requireAdmin(request);
    const { limit } = parse(listQuery, request.query);
    const rows = await applications.list(limit);
    return { applications: rows.map(presentApplication) };
  });

  app.post('/api/admin/provider-applications/:id/approve', async (request) => {
    const admin = requireAdmin(request);
    const { id } = parse(applicationIdParam, request.params);
    return presentApplication(await applications.approve(id, admin.userId));
  });

  app.post('/api/admin/provider-applications/:id/reject', async (request) => {
    const admin = requireAdmin(request);
    const { id } = parse(applicationIdParam, request.params);
    const { reason } = parse(rejectApplicationBody, request.body);
    return presentApplication(await applications.reject(id, admin.userId, reason));
  });
}

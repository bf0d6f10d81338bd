import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import { userIdParam } from '../../../shared/contracts/params';
import { userSettings } from '../../../shared/contracts/settings';
import { sendJsonText } from '../../lib/json-text';
import { clearSessionCookie, requireSelf, selfOnly, setSessionCookie } from '../../plugins/session';

/** The export is one JSON document (a download); its sections are those of export.ts. */
const accountExport = z.looseObject({ exportedAt: z.string(), format: z.string() });

/** /api/users/:userId/settings, /export and DELETE /api/users/:userId: the caller's own only. */
export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { account, accountExport: exporter, clock, env } = app.deps;
  const secure = env.NODE_ENV === 'production';

  app.get(
    '/api/users/:userId/settings',
    {
      preValidation: selfOnly,
      schema: { params: userIdParam, response: { 200: userSettings, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireSelf(request);
      return account.getSettings(userId);
    },
  );

  app.patch(
    '/api/users/:userId/settings',
    {
      preValidation: selfOnly,
      schema: {
        params: userIdParam,
        body: userSettings,
        response: { 200: userSettings, ...errorResponses },
      },
    },
    async (request, reply) => {
      const auth = requireSelf(request);
      const { settings, sessionExpiresAt } = await account.saveSettings(
        auth.userId,
        auth.sessionId,
        request.body,
      );
      if (sessionExpiresAt && request.sessionToken) {
        setSessionCookie(reply, request.sessionToken, sessionExpiresAt, secure);
      }
      return settings;
    },
  );

  app.get(
    '/api/users/:userId/export',
    {
      preValidation: selfOnly,
      schema: { params: userIdParam, response: { 200: accountExport, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireSelf(request);
      const now = clock.now();
      const data = await exporter.exportData(userId, now);
      const day = now.toISOString().slice(0, 10);
      reply
        .header('content-disposition', `attachment; filename="rentgpu-account-${day}.json"`)
        .header('cache-control', 'no-store');
      return sendJsonText(reply, JSON.stringify(data, null, 2));
    },
  );

  app.delete(
    '/api/users/:userId',
    {
      preValidation: selfOnly,
      schema: { params: userIdParam, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      const { userId } = requireSelf(request);
      await account.deleteAccount(userId);
      clearSessionCookie(reply, secure);
      return reply.status(204).send();
    },
  );
}

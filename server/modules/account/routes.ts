import type { FastifyInstance } from 'fastify';
import { userSettings } from '../../../shared/contracts/settings';
import { parse } from '../../lib/validate';
import { clearSessionCookie, requireSelf, setSessionCookie } from '../../plugins/session';
import { exportAccountData } from './export';

/** /api/users/:userId/settings, /export and DELETE /api/users/:userId: the caller's own only. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { account, database, instances, payments, clock, env } = app.deps;
  const secure = env.NODE_ENV === 'production';

  app.get('/api/users/:userId/settings', async (request) => {
    const { userId } = requireSelf(request);
    return account.getSettings(userId);
  });

  app.patch('/api/users/:userId/settings', async (request, reply) => {
    const auth = requireSelf(request);
    const { userId } = auth;
    const next = parse(userSettings, request.body);
    const { settings, sessionExpiresAt } = await account.saveSettings(userId, auth.sessionId, next);
    if (sessionExpiresAt && request.sessionToken) {
      setSessionCookie(reply, request.sessionToken, sessionExpiresAt, secure);
    }
    return settings;
  });

  app.get('/api/users/:userId/export', async (request, reply) => {
    const { userId } = requireSelf(request);
    const now = clock.now();
    const data = await exportAccountData({ db: database.db, instances, payments }, userId, now);
    const day = now.toISOString().slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="rentgpu-account-${day}.json"`)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });

  app.delete('/api/users/:userId', async (request, reply) => {
    const { userId } = requireSelf(request);
    await account.deleteAccount(userId);
    clearSessionCookie(reply, secure);
    return reply.status(204).send();
  });
}

import type { FastifyInstance } from 'fastify';
import { apiKeyIdParam, createApiKeyBody } from '../../../shared/contracts/api-keys';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentApiKey } from './presenter';
import { apiKeysService } from './service';

/** The caller's own API keys; identity from the session only. */
export async function apiKeysRoutes(app: FastifyInstance): Promise<void> {
  const { database, clock } = app.deps;

  app.get('/api/auth/api-keys', async (request) => {
    const { userId } = requireUser(request);
    return (await apiKeysService.list(database.db, userId)).map(presentApiKey);
  });

  app.post('/api/auth/api-keys', async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(createApiKeyBody, request.body);
    const { row, key } = await database.db.transaction((tx) =>
      apiKeysService.create(tx, userId, body, clock.now()),
    );
    reply.header('cache-control', 'no-store');
    return reply.status(201).send({ ...presentApiKey(row), key });
  });

  app.delete('/api/auth/api-keys/:id', async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = parse(apiKeyIdParam, request.params);
    await apiKeysService.revoke(database.db, userId, id, clock.now());
    return reply.status(204).send();
  });
}

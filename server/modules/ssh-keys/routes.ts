import type { FastifyInstance } from 'fastify';
import { addSshKeyBody, sshKeyIdParam } from '../../../shared/contracts/ssh-keys';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { presentSshKey } from './presenter';
import { sshKeysService } from './service';

/** The caller's own SSH public keys; rentals and the public API install them on instances. */
export async function sshKeysRoutes(app: FastifyInstance): Promise<void> {
  const { database } = app.deps;

  app.get('/api/ssh-keys', async (request) => {
    const { userId } = requireUser(request);
    return (await sshKeysService.list(database.db, userId)).map(presentSshKey);
  });

  app.post('/api/ssh-keys', async (request, reply) => {
    const { userId } = requireUser(request);
    const body = parse(addSshKeyBody, request.body);
    const row = await database.db.transaction((tx) => sshKeysService.add(tx, userId, body));
    return reply.status(201).send(presentSshKey(row));
  });

  app.delete('/api/ssh-keys/:id', async (request, reply) => {
    const { userId } = requireUser(request);
    const { id } = parse(sshKeyIdParam, request.params);
    await sshKeysService.remove(database.db, userId, id);
    return reply.status(204).send();
  });
}

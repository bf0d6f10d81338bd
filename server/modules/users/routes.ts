import type { FastifyInstance } from 'fastify';
import { updateProfileBody } from '../../../shared/contracts/profile';
import { updateThemeBody } from '../../../shared/contracts/user';
import { parse } from '../../lib/validate';
import { requireSelf, requireUser } from '../../plugins/session';
import { presentUserProfile } from './presenter';
import { usersService } from './service';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const { database, mailer } = app.deps;

  app.patch('/api/user/theme', async (request) => {
    const { userId } = requireUser(request);
    const { theme } = parse(updateThemeBody, request.body);
    await usersService.setTheme(database.db, userId, theme);
    return { theme };
  });

  app.get('/api/users/:userId', async (request) => {
    const { userId } = requireSelf(request);
    return presentUserProfile(await usersService.getProfile(database.db, userId));
  });

  app.patch('/api/users/:userId', async (request) => {
    const { userId } = requireSelf(request);
    const changes = parse(updateProfileBody, request.body);
    const before = await usersService.getProfile(database.db, userId);
    await database.db.transaction((tx) => usersService.updateProfile(tx, userId, changes));
    const after = await usersService.getProfile(database.db, userId);
    if (after.email !== before.email) {
      // Sign-in codes now go to the new address; the old one hears about it.
      mailer
        .send({
          to: before.email,
          subject: 'Your RentGPU e-mail address was changed',
          text: `The e-mail address of your RentGPU account was changed to ${after.email}.\nSign-in codes now go there. If you did not make this change, contact support at once.`,
        })
        .catch((error: unknown) =>
          request.log.error({ err: error }, 'e-mail change notice failed'),
        );
    }
    return presentUserProfile(after);
  });
}

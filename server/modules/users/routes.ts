import type { FastifyInstance } from 'fastify';
import { confirmEmailBody, updateProfileBody } from '../../../shared/contracts/profile';
import { updateThemeBody } from '../../../shared/contracts/user';
import { parse } from '../../lib/validate';
import { requireSelf, requireUser } from '../../plugins/session';
import { presentUserProfile } from './presenter';
import { usersService } from './service';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const { database, auth } = app.deps;

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

  /**
   * The fields sent are saved at once, except a new e-mail address: it waits as pendingEmail
   * and a code goes to it (sending the pending address again sends a new code).
   */
  app.patch('/api/users/:userId', async (request) => {
    const { userId } = requireSelf(request);
    const { email, ...changes } = parse(updateProfileBody, request.body);
    const before = await usersService.getProfile(database.db, userId);
    if (email !== undefined && email !== before.email)
      await auth.emailChange.request(userId, email, request.ip);
    await database.db.transaction((tx) => usersService.updateProfile(tx, userId, changes));
    return presentUserProfile(await usersService.getProfile(database.db, userId));
  });

  app.post('/api/users/:userId/email/confirm', async (request) => {
    const { userId, sessionId } = requireSelf(request);
    const { otp } = parse(confirmEmailBody, request.body);
    await auth.emailChange.confirm(userId, sessionId, otp, request.ip);
    return presentUserProfile(await usersService.getProfile(database.db, userId));
  });

  app.delete('/api/users/:userId/email/pending', async (request) => {
    const { userId } = requireSelf(request);
    await auth.emailChange.cancel(userId);
    return presentUserProfile(await usersService.getProfile(database.db, userId));
  });
}

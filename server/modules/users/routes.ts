import type { FastifyInstance } from 'fastify';
import { updateThemeBody } from '../../../shared/contracts/user';
import { parse } from '../../lib/validate';
import { requireUser } from '../../plugins/session';
import { usersService } from './service';

export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const { database } = app.deps;

  app.patch('/api/user/theme', async (request) => {
    const { userId } = requireUser(request);
    const { theme } = parse(updateThemeBody, request.body);
    await usersService.setTheme(database.db, userId, theme);
    return { theme };
  });
}

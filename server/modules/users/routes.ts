import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { userIdParam } from '../../../shared/contracts/params';
import {
  confirmEmailBody,
  updateProfileBody,
  userProfile,
} from '../../../shared/contracts/profile';
import { updateThemeBody, updateThemeResponse } from '../../../shared/contracts/user';
import { requireSelf, requireUser, selfOnly, signedIn } from '../../plugins/session';
import { presentUserProfile } from './presenter';
import { usersService } from './service';

export async function usersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database, auth } = app.deps;
  const profileResponse = { 200: userProfile, ...errorResponses };

  app.patch(
    '/api/user/theme',
    {
      preValidation: signedIn,
      schema: { body: updateThemeBody, response: { 200: updateThemeResponse, ...errorResponses } },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const { theme } = request.body;
      await usersService.setTheme(database.db, userId, theme);
      return { theme };
    },
  );

  app.get(
    '/api/users/:userId',
    { preValidation: selfOnly, schema: { params: userIdParam, response: profileResponse } },
    async (request) => {
      const { userId } = requireSelf(request);
      return presentUserProfile(await usersService.getProfile(database.db, userId));
    },
  );

  /**
   * The fields sent are saved at once, except a new e-mail address: it waits as pendingEmail
   * and a code goes to it (sending the pending address again sends a new code).
   */
  app.patch(
    '/api/users/:userId',
    {
      preValidation: selfOnly,
      schema: { params: userIdParam, body: updateProfileBody, response: profileResponse },
    },
    async (request) => {
      const { userId } = requireSelf(request);
      const { email, ...changes } = request.body;
      const before = await usersService.getProfile(database.db, userId);
      if (email !== undefined && email !== before.email)
        await auth.emailChange.request(userId, email, request.ip);
      await database.db.transaction((tx) => usersService.updateProfile(tx, userId, changes));
      return presentUserProfile(await usersService.getProfile(database.db, userId));
    },
  );

  app.post(
    '/api/users/:userId/email/confirm',
    {
      preValidation: selfOnly,
      schema: { params: userIdParam, body: confirmEmailBody, response: profileResponse },
    },
    async (request) => {
      const { userId, sessionId } = requireSelf(request);
      await auth.emailChange.confirm(userId, sessionId, request.body.otp, request.ip);
      return presentUserProfile(await usersService.getProfile(database.db, userId));
    },
  );

  app.delete(
    '/api/users/:userId/email/pending',
    { preValidation: selfOnly, schema: { params: userIdParam, response: profileResponse } },
    async (request) => {
      const { userId } = requireSelf(request);
      await auth.emailChange.cancel(userId);
      return presentUserProfile(await usersService.getProfile(database.db, userId));
    },
  );
}

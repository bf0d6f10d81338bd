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

export async function usersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users, auth } = app.deps;
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
      await users.setTheme(userId, theme);
      return { theme };
    },
  );

  app.get(
    '/api/users/:userId',
    { preValidation: selfOnly, schema: { params: userIdParam, response: profileResponse } },
    async (request) => {
      const { userId } = requireSelf(request);
      return presentUserProfile(await users.getProfile(userId));
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
      const before = await users.getProfile(userId);
      if (email !== undefined && email !== before.email)
        await auth.emailChange.request(userId, email, request.ip);
      await users.updateProfile(userId, changes);
      return presentUserProfile(await users.getProfile(userId));
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
      return presentUserProfile(await users.getProfile(userId));
    },
  );

  app.delete(
    '/api/users/:userId/email/pending',
    { preValidation: selfOnly, schema: { params: userIdParam, response: profileResponse } },
    async (request) => {
      const { userId } = requireSelf(request);
      await auth.emailChange.cancel(userId);
      return presentUserProfile(await users.getProfile(userId));
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  recoveryCodesResponse,
  twoFactorCodeBody,
  twoFactorSetupResponse,
} from '../../../shared/contracts/two-factor';
import { requireUser, signedIn } from '../../plugins/session';

/**
 * Settings → Security → two-factor (docs/decisions/023-two-factor-sign-in.md). A browser
 * session only: request.auth is never an API key.
 */
export async function twoFactorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { twoFactor } = app.deps.auth;
  const user = (request: FastifyRequest) => requireUser(request).userId;

  app.post(
    '/api/auth/two-factor/setup',
    {
      preValidation: signedIn,
      schema: { response: { 200: twoFactorSetupResponse, ...errorResponses } },
    },
    async (request) => twoFactor.setup(user(request)),
  );

  app.post(
    '/api/auth/two-factor/enable',
    {
      preValidation: signedIn,
      schema: {
        body: twoFactorCodeBody,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    async (request) => ({
      recoveryCodes: await twoFactor.enable(user(request), request.body.code, request.ip),
    }),
  );

  app.post(
    '/api/auth/two-factor/disable',
    {
      preValidation: signedIn,
      schema: { body: twoFactorCodeBody, response: { 204: noContent, ...errorResponses } },
    },
    async (request, reply) => {
      await twoFactor.disable(user(request), request.body.code, request.ip);
      return reply.code(204).send();
    },
  );
}

import type { FastifyRequest } from 'fastify';
import { requireSelf } from '../../plugins/session';

/** Who may see which provider profiles. */
export const providersPolicy = {
  /** /api/providers/user/:userId: signed in, and the path names the caller. */
  ownUserProfile(request: FastifyRequest) {
    return requireSelf(request);
  },
};

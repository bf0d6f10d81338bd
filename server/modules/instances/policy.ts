import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../lib/errors';
import { requireSelf, requireUser } from '../../plugins/session';

/**
 * Who may see which instances. Acting on one instance is `authorize` below, asked by every
 * instance command: another user's instance answers 404, as if it did not exist.
 */
export const instancesPolicy = {
  /** /…/user/:userId lists: signed in, and the path names the caller (requireSelf). */
  ownUserList(request: FastifyRequest) {
    return requireSelf(request);
  },

  /** A provider's rentals are seen by the provider's owner only. */
  async ownProvider(
    request: FastifyRequest,
    providerId: number,
    providerIdOf: (userId: string) => Promise<number | null>,
  ) {
    const auth = requireUser(request);
    if ((await providerIdOf(auth.userId)) !== providerId) {
      throw forbidden('You can only see the rentals of your own provider profile.');
    }
    return auth;
  },
};

export { type Actor, authorize, type InstanceDeed } from './authorize';

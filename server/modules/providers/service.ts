import type { Conn } from '../../db/client';
import { providersRepo } from './repo';

export const providersService = {
  /** The provider profile a user owns, or null (renters have none). */
  findByUserId(conn: Conn, userId: string) {
    return providersRepo.findByUserId(conn, userId);
  },

  async providerIdOf(conn: Conn, userId: string): Promise<number | null> {
    return (await providersRepo.findByUserId(conn, userId))?.id ?? null;
  },
};

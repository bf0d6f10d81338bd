import type { Conn, Db } from '../../db/client';
import { bindDb } from '../../lib/bind-db';
import { alreadyProvider, conflict } from '../../lib/errors';
import { providersRepo } from './repo';

export const providersService = {
  /** The provider profile a user owns, or null (renters have none). */
  findByUserId(conn: Conn, userId: string) {
    return providersRepo.findByUserId(conn, userId);
  },

  async providerIdOf(conn: Conn, userId: string): Promise<number | null> {
    return (await providersRepo.findByUserId(conn, userId))?.id ?? null;
  },

  /**
   * A new, not yet verified provider profile for an approved applicant (provider
   * applications). Company names are unique among providers.
   */
  async createForApplicant(
    conn: Conn,
    values: { userId: string; companyName: string; location: string },
  ) {
    if (await providersRepo.findByUserId(conn, values.userId)) throw alreadyProvider();
    if (await providersRepo.findByCompanyName(conn, values.companyName)) {
      throw conflict(`A provider named "${values.companyName}" already exists.`, {
        fields: { companyName: ['Another provider already uses this company name'] },
      });
    }
    return providersRepo.insert(conn, values);
  },
};

/** The routes' providers (app.deps.providers): the database bound. */
export function createProvidersService(db: Db) {
  return bindDb(db, providersService, ['findByUserId', 'providerIdOf']);
}

export type ProvidersService = ReturnType<typeof createProvidersService>;

import type { Theme } from '../../../shared/rules/theme';
import type { Conn } from '../../db/client';
import { notFound } from '../../lib/errors';
import { ledgerService } from '../ledger/service';
import { usersRepo } from './repo';

export const usersService = {
  async getProfile(conn: Conn, userId: string) {
    const row = await usersRepo.findProfileById(conn, userId);
    if (!row) throw notFound('User');
    return row;
  },

  /** Finds or creates the account for an e-mail; a new account gets its wallet at once. */
  async findOrCreateByEmail(conn: Conn, email: string): Promise<{ id: string; created: boolean }> {
    const result = await usersRepo.upsertByEmail(conn, email);
    if (result.created) await ledgerService.openWallet(conn, result.id);
    return result;
  },

  findIdByEmail(conn: Conn, email: string) {
    return usersRepo.findIdByEmail(conn, email);
  },

  setTheme(conn: Conn, userId: string, theme: Theme) {
    return usersRepo.setTheme(conn, userId, theme);
  },
};

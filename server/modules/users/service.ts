import { DEMO_USER_EMAIL } from '../../../shared/constants';
import type { ProfileChanges } from '../../../shared/contracts/profile';
import { resolveSettings, type UserSettings } from '../../../shared/contracts/settings';
import type { Theme } from '../../../shared/rules/theme';
import type { Conn, Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { bindDb } from '../../lib/bind-db';
import { demoAccountLocked, emailInUse, noPendingEmail, notFound } from '../../lib/errors';
import { ledgerService } from '../ledger/service';
import { type ProfileColumns, usersRepo } from './repo';

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

  /**
   * Where an instance or host alert goes: the user's address, or null when their settings
   * turn e-mail notifications or instance alerts off.
   */
  async alertAddress(conn: Conn, userId: string): Promise<string | null> {
    const row = await usersRepo.findAlertAddress(conn, userId);
    if (!row) throw notFound('User');
    return usersService.alertAddressOf(row);
  },

  /** The address and settings of each user found (an alert batch's recipients, one statement). */
  alertRecipients: (conn: Conn, userIds: string[]) =>
    usersRepo.findAlertAddresses(conn, [...new Set(userIds)]),

  /** alertAddress of an address and settings already read (with the event that alerts). */
  alertAddressOf(row: { email: string; settings: unknown }): string | null {
    const { notifications } = resolveSettings(row.settings);
    return notifications.email && notifications.instanceAlerts ? row.email : null;
  },

  /**
   * The whole settings object with the defaults (DEFAULT_SETTINGS) filled in. The theme is
   * read from users.theme, which PATCH /api/user/theme also writes, so the two never disagree.
   */
  async getSettings(conn: Conn, userId: string): Promise<UserSettings> {
    const row = await usersRepo.findSettings(conn, userId);
    if (!row) throw notFound('User');
    const settings = resolveSettings(row.settings);
    return resolveSettings({
      ...settings,
      preferences: { ...settings.preferences, theme: row.theme },
    });
  },

  async saveSettings(conn: Conn, userId: string, settings: UserSettings): Promise<void> {
    await usersRepo.saveSettings(conn, userId, settings, settings.preferences.theme);
  },

  /**
   * Applies the fields that were sent. The e-mail address is not among them: a new one waits
   * in pendingEmail until its owner proves it (auth module, email-change).
   */
  async updateProfile(conn: Conn, userId: string, changes: Omit<ProfileChanges, 'email'>) {
    const columns: ProfileColumns = {};
    for (const [key, value] of Object.entries(changes)) {
      if (value !== undefined) (columns as Record<string, unknown>)[key] = value;
    }
    if (Object.keys(columns).length > 0) await usersRepo.updateProfile(conn, userId, columns);
  },

  /** A new address may be asked for unless this is the demo account or another account has it. */
  async checkNewEmail(conn: Conn, userId: string, email: string) {
    const current = await usersRepo.findProfileById(conn, userId);
    if (!current) throw notFound('User');
    if (current.isDemo)
      throw demoAccountLocked('change its e-mail address', current.email === DEMO_USER_EMAIL);
    if (await usersRepo.emailTakenByOther(conn, userId, email)) throw emailInUse();
  },

  setPendingEmail(conn: Conn, userId: string, email: string | null) {
    return usersRepo.setPendingEmail(conn, userId, email);
  },

  /**
   * Moves the pending address to email, inside the caller's transaction. Refuses with 409 when
   * another account has taken the address meanwhile; returns the address it replaced.
   */
  async switchToPendingEmail(conn: Conn, userId: string, pendingEmail: string): Promise<string> {
    const row = await usersRepo.lockById(conn, userId);
    if (!row || row.pendingEmail !== pendingEmail) throw noPendingEmail();
    if (await usersRepo.emailTakenByOther(conn, userId, pendingEmail)) throw emailInUse();
    try {
      await usersRepo.switchEmail(conn, userId, pendingEmail);
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw emailInUse();
      throw error;
    }
    return row.email;
  },

  lockById(conn: Conn, userId: string) {
    return usersRepo.lockById(conn, userId);
  },

  anonymise(conn: Conn, userId: string, at: Date) {
    return usersRepo.anonymise(conn, userId, `deleted-${userId}@deleted.rentgpu.invalid`, at);
  },
};

/** The routes' users (app.deps.users): the database bound, a profile change in one transaction. */
export function createUsersService(db: Db) {
  return {
    ...bindDb(db, usersService, ['getProfile', 'setTheme']),
    updateProfile: (userId: string, changes: Omit<ProfileChanges, 'email'>) =>
      db.transaction((tx) => usersService.updateProfile(tx, userId, changes)),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

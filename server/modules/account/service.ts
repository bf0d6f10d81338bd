import { SESSION_TIMEOUT_MS, type UserSettings } from '../../../shared/contracts/settings';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import {
  accountHasActiveRentals,
  demoAccountLocked,
  notFound,
  validationFailed,
} from '../../lib/errors';
import { apiKeysService } from '../api-keys/service';
import { sessionsService } from '../auth/service';
import { providerApplicationsData } from '../provider-applications/service';
import type { RentalsService } from '../rentals/service';
import { sshKeysService } from '../ssh-keys/service';
import { usersService } from '../users/service';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  rentals: RentalsService;
}

/** Settings with their effects, and closing an account: work that spans several modules. */
export function createAccountService({ db, clock, rentals }: AccountDeps) {
  return {
    getSettings: (userId: string) => usersService.getSettings(db, userId),

    /**
     * Saves the whole settings object and applies what it changes, in one transaction: a new
     * session timeout re-times the sessions, a new key rotation re-dates the API keys.
     * Returns the current session's new expiry when it moved, so the cookie can follow.
     */
    async saveSettings(userId: string, sessionId: string, next: UserSettings) {
      if (next.security.twoFactorEnabled) {
        throw validationFailed({
          'security.twoFactorEnabled': ['Two-factor authentication is not available yet'],
        });
      }
      return db.transaction(async (tx) => {
        const previous = await usersService.getSettings(tx, userId);
        await usersService.saveSettings(tx, userId, next);
        if (previous.security.apiKeyRotation !== next.security.apiKeyRotation) {
          await apiKeysService.applyRotation(tx, userId, next.security.apiKeyRotation);
        }
        let sessionExpiresAt: Date | null = null;
        if (previous.security.sessionTimeout !== next.security.sessionTimeout) {
          sessionExpiresAt = await sessionsService.applyTimeout(
            tx,
            userId,
            sessionId,
            SESSION_TIMEOUT_MS[next.security.sessionTimeout],
            clock.now(),
          );
        }
        return { settings: await usersService.getSettings(tx, userId), sessionExpiresAt };
      });
    },

    /**
     * Closes the account unless instances are running: personal data is cleared and the
     * e-mail freed; sessions, API keys, SSH keys and provider applications are deleted; ledger, rentals and payments
     * stay (financial records are kept, spec part 2 section 9).
     */
    async deleteAccount(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await usersService.lockById(tx, userId);
        if (!user || user.deletedAt) throw notFound('User');
        if (user.isDemo) throw demoAccountLocked('be deleted');
        const active = await rentals.countActiveByUser(userId, tx);
        if (active > 0) throw accountHasActiveRentals(active);
        await usersService.anonymise(tx, userId, clock.now());
        await sessionsService.endAllForUser(tx, userId);
        await apiKeysService.deleteAllForUser(tx, userId);
        await sshKeysService.deleteAllForUser(tx, userId);
        await providerApplicationsData.deleteAllForUser(tx, userId);
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

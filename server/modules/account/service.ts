import { DEMO_USER_EMAIL } from '../../../shared/constants';
import { SESSION_TIMEOUT_MS, type UserSettings } from '../../../shared/contracts/settings';
import { type InstanceState, isLive } from '../../../shared/rules/instance-lifecycle';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import {
  accountHasActiveRentals,
  demoAccountLocked,
  notFound,
  validationFailed,
} from '../../lib/errors';
import type { RaiseSignal, Signals } from '../../lib/signals';
import { apiKeysService } from '../api-keys/service';
import { sessionsService } from '../auth/service';
import type { DemoService } from '../demo/service';
import { providerHostsService } from '../hosts/provider-hosts';
import type { InstancesService } from '../instances/service';
import { providerApplicationsData } from '../provider-applications/service';
import { sshKeysService } from '../ssh-keys/service';
import { usersService } from '../users/service';

export interface AccountDeps {
  db: Db;
  clock: Clock;
  instances: InstancesService;
  demo: DemoService;
  /** Closing an account or re-dating its keys is told to every process after commit. */
  signals: Signals;
  /** After listings change (a demo visitor's sandbox listings are taken off). */
  onListingsChange?: () => void;
  log?: { error(obj: unknown, msg: string): void };
}

/** Settings with their effects, and closing an account: work that spans several modules. */
export function createAccountService({
  db,
  clock,
  instances,
  demo,
  signals,
  onListingsChange,
  log,
}: AccountDeps) {
  /**
   * Clears personal data and ends every way in; ledger, rentals and payments stay. Its keys'
   * remembered authentications are forgotten everywhere once the transaction commits.
   */
  async function close(tx: Tx, userId: string, now: Date, raise: RaiseSignal) {
    await usersService.anonymise(tx, userId, now);
    await sessionsService.endAllForUser(tx, userId);
    await apiKeysService.deleteAllForUser(tx, userId);
    raise('api-keys-of-user', userId);
    await sshKeysService.deleteAllForUser(tx, userId);
    await providerApplicationsData.deleteAllForUser(tx, userId);
    // Its hosts' agents are refused from now on (a demo visitor may have connected one).
    await providerHostsService.removeAllForUser(tx, userId, now);
  }

  return {
    getSettings: (userId: string) => usersService.getSettings(db, userId),

    /**
     * Saves the whole settings object and applies what it changes, in one transaction: a new
     * session timeout re-times the sessions, a new key rotation re-dates the API keys.
     * Returns the current session's new expiry when it moved, so the cookie can follow.
     */
    async saveSettings(userId: string, sessionId: string, next: UserSettings) {
      return signals.afterCommit((raise) =>
        db.transaction(async (tx) => {
          const previous = await usersService.getSettings(tx, userId);
          // Only the two-factor routes turn it on or off (docs/decisions/023-two-factor-sign-in.md).
          if (previous.security.twoFactorEnabled !== next.security.twoFactorEnabled) {
            throw validationFailed({
              'security.twoFactorEnabled': [
                'Turn two-factor sign-in on or off with its Enable or Disable button',
              ],
            });
          }
          await usersService.saveSettings(tx, userId, next);
          if (previous.security.apiKeyRotation !== next.security.apiKeyRotation) {
            await apiKeysService.applyRotation(tx, userId, next.security.apiKeyRotation);
            raise('api-keys-of-user', userId);
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
        }),
      );
    },

    /**
     * Closes the account unless instances are running: personal data is cleared and the
     * e-mail freed; sessions, API keys, SSH keys and provider applications are deleted, hosts removed; ledger, rentals and payments
     * stay (financial records are kept: docs/rules.md, Money).
     */
    async deleteAccount(userId: string): Promise<void> {
      let visitor = false;
      await signals.afterCommit((raise) =>
        db.transaction(async (tx) => {
          const user = await usersService.lockById(tx, userId);
          if (!user || user.deletedAt) throw notFound('User');
          // The shared seeded demo account stays for everyone; a visitor's own may go.
          if (user.isDemo && user.email === DEMO_USER_EMAIL) throw demoAccountLocked('be deleted');
          const active = await instances.countLiveByUser(userId, tx);
          if (active > 0) throw accountHasActiveRentals(active);
          const now = clock.now();
          await close(tx, userId, now, raise);
          if (user.isDemo) {
            visitor = true;
            await demo.retire(tx, userId, now);
          }
        }),
      );
      if (visitor) onListingsChange?.();
    },

    /**
     * The demo cleanup (docs/decisions/010-a-demo-account-per-visitor.md): closes demo
     * visitors' accounts unused for a day. Running rentals are stopped first (settled as
     * 'demo_cleanup', each its own transaction); then, with the account row claimed FOR
     * UPDATE SKIP LOCKED and the condition checked again, it is closed like a deleted account
     * and its sandbox listings and leftover demo credits go. Running it again, or in several
     * processes at once, closes each account once. Returns how many it closed.
     */
    async closeUnusedDemoAccounts(batch = 20, now = clock.now()): Promise<number> {
      let closed = 0;
      for (const userId of await demo.findDue(now, batch)) {
        try {
          for (const row of await instances.listRentalsByUser(userId)) {
            if (isLive(row.instance.status as InstanceState))
              await instances.stopRental(userId, row.instance.id, now, 'demo_cleanup');
          }
          for (const row of await instances.listMeteredByUser(userId)) {
            if (isLive(row.instance.status as InstanceState))
              await instances.terminate(userId, row.instance.id, now, 'demo_cleanup');
          }
          const done = await signals.afterCommit((raise) =>
            db.transaction(async (tx) => {
              if (!(await demo.claimDue(tx, userId, now))) return false;
              if ((await instances.countLiveByUser(userId, tx)) > 0) return false;
              await close(tx, userId, now, raise);
              await demo.retire(tx, userId, now);
              return true;
            }),
          );
          if (done) closed += 1;
        } catch (error) {
          log?.error({ err: error, userId }, 'demo account cleanup failed; retried next run');
        }
      }
      if (closed > 0) onListingsChange?.();
      return closed;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

import type { Db } from '../../db/client';
import { AppError, noPendingEmail, serviceUnavailable } from '../../lib/errors';
import type { Mailer } from '../../lib/mailer';
import { usersService } from '../users/service';
import type { Codes } from './codes';
import type { CodeScope } from './otp-repo';
import { sessionsRepo } from './sessions-repo';

interface EmailChangeDeps {
  db: Db;
  mailer: Mailer;
  codes: Codes;
  log: { error(obj: unknown, msg: string): void };
}

const scopeFor = (userId: string, email: string): CodeScope => ({
  purpose: 'email-change',
  userId,
  email,
});

/**
 * Changing the sign-in address needs proof (docs/architecture.md, "E-mail change"): the new
 * address waits in users.pending_email, a code goes there, and only the code moves it.
 */
export function createEmailChange(deps: EmailChangeDeps) {
  const { db, mailer, codes } = deps;

  return {
    /** Asks for a new address: checks, limits, stores the code and the pending address, mails. */
    async request(userId: string, email: string, ip: string): Promise<void> {
      await usersService.checkNewEmail(db, userId, email);
      const scope = scopeFor(userId, email);
      await codes.limitSend(scope, ip);
      const code = await db.transaction(async (tx) => {
        const stored = await codes.store(tx, scope, ip);
        await usersService.setPendingEmail(tx, userId, email);
        return stored;
      });
      try {
        await mailer.send({
          to: email,
          subject: `Your RentGPU e-mail change code: ${code}`,
          text: `Someone asked to use this address for a RentGPU account. The code to confirm it is ${code}\n\nIt is valid for 10 minutes and can be used once. If you did not ask for it, ignore this e-mail: the address will not be added to any account.`,
        });
      } catch (error) {
        deps.log.error({ err: error }, 'e-mail change code failed');
        throw serviceUnavailable('We could not send the code. Please try again in a minute.');
      }
    },

    /**
     * Checks the code; the pending address becomes the sign-in address, the user's other
     * sessions end (the current one stays) and the old address is told.
     */
    async confirm(userId: string, currentSessionId: string, otp: string, ip: string) {
      const { pendingEmail } = await usersService.getProfile(db, userId);
      if (!pendingEmail) throw noPendingEmail();
      await codes.check(scopeFor(userId, pendingEmail), otp, ip);
      let oldEmail: string;
      try {
        oldEmail = await db.transaction(async (tx) => {
          const replaced = await usersService.switchToPendingEmail(tx, userId, pendingEmail);
          await sessionsRepo.deleteOthers(tx, userId, currentSessionId);
          return replaced;
        });
      } catch (error) {
        // Another account took the address after the code was sent: the request is over.
        if (error instanceof AppError && error.code === 'EMAIL_IN_USE')
          await usersService.setPendingEmail(db, userId, null);
        throw error;
      }
      mailer
        .send({
          to: oldEmail,
          subject: 'Your RentGPU e-mail address was changed',
          text: `The e-mail address of your RentGPU account was changed to ${pendingEmail}.\nSign-in codes now go there, and your other devices were signed out. If you did not make this change, contact support at once.`,
        })
        .catch((error: unknown) => deps.log.error({ err: error }, 'e-mail change notice failed'));
    },

    /** Drops the pending address and its codes; the sign-in address stays as it was. */
    async cancel(userId: string): Promise<void> {
      const { pendingEmail } = await usersService.getProfile(db, userId);
      if (!pendingEmail) return;
      await db.transaction(async (tx) => {
        await usersService.setPendingEmail(tx, userId, null);
        await codes.retireAll(tx, scopeFor(userId, pendingEmail));
      });
    },
  };
}

export type EmailChange = ReturnType<typeof createEmailChange>;

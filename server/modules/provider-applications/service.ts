import type { ProviderApplication } from '../../../shared/contracts/provider-application';
import type { Conn, Db } from '../../db/client';
import type { ProviderApplicationRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { alreadyProvider, applicationOpen, applicationReviewed, notFound } from '../../lib/errors';
import type { Mail, Mailer } from '../../lib/mailer';
import { providersService } from '../providers/service';
import { usersService } from '../users/service';
import { providerApplicationsRepo } from './repo';

export interface ProviderApplicationsDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: { error(obj: unknown, msg: string): void };
}

/** One line, so text from an application can never add a mail header. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

export function approvalMail(to: string, row: ProviderApplicationRow): Mail {
  return {
    to,
    subject: `Your RentGPU provider application for ${oneLine(row.application.companyName)} is approved`,
    text: [
      `Good news: your application to become a GPU provider as ${row.application.companyName} was approved.`,
      '',
      'Open your Provider Dashboard at /provider to add your first GPU listing.',
      'Next steps: verification with benchmarks (24-48 hours), integration, then go live.',
    ].join('\n'),
  };
}

export function rejectionMail(to: string, row: ProviderApplicationRow, reason: string): Mail {
  return {
    to,
    subject: `Your RentGPU provider application for ${oneLine(row.application.companyName)}`,
    text: [
      `We reviewed your application to become a GPU provider as ${row.application.companyName} and cannot approve it yet.`,
      '',
      `Reason: ${reason}`,
      '',
      'You may apply again at /provider-signup.',
    ].join('\n'),
  };
}

/** For account deletion: applications hold contact details and an address. */
export const providerApplicationsData = {
  deleteAllForUser(conn: Conn, userId: string) {
    return providerApplicationsRepo.deleteAllForUser(conn, userId);
  },
};

export function createProviderApplicationsService(deps: ProviderApplicationsDeps) {
  const { db, clock, mailer } = deps;

  /** Mail after the commit; a failure is logged, the decision stands. */
  async function mailApplicant(userId: string, build: (to: string) => Mail) {
    try {
      const user = await usersService.getProfile(db, userId);
      await mailer.send(build(user.email));
    } catch (error) {
      deps.log.error({ err: error, userId }, 'provider application e-mail failed');
    }
  }

  return {
    /** Stores a pending application; one open application per user, none for providers. */
    async submit(userId: string, application: ProviderApplication) {
      return db.transaction(async (tx) => {
        if (await providersService.findByUserId(tx, userId)) throw alreadyProvider();
        if (await providerApplicationsRepo.findPendingByUser(tx, userId)) throw applicationOpen();
        // The partial unique index settles two submissions racing past the check above.
        const row = await providerApplicationsRepo.insert(tx, userId, application);
        if (!row) throw applicationOpen();
        return row;
      });
    },

    latestOf(userId: string) {
      return providerApplicationsRepo.latestByUser(db, userId);
    },

    list(limit: number) {
      return providerApplicationsRepo.list(db, limit);
    },

    /** One transaction: the application becomes approved and its provider profile exists. */
    async approve(id: string, adminId: string) {
      const row = await db.transaction(async (tx) => {
        const current = await providerApplicationsRepo.lockById(tx, id);
        if (!current) throw notFound('Provider application');
        if (current.status !== 'pending') throw applicationReviewed(current.status);
        const { application } = current;
        const provider = await providersService.createForApplicant(tx, {
          userId: current.userId,
          companyName: application.companyName,
          location: `${application.city}, ${application.country}`,
        });
        const reviewed = await providerApplicationsRepo.review(tx, id, {
          status: 'approved',
          reviewedBy: adminId,
          reviewedAt: clock.now(),
          providerId: provider.id,
        });
        if (!reviewed) throw applicationReviewed('reviewed');
        return reviewed;
      });
      await mailApplicant(row.userId, (to) => approvalMail(to, row));
      return row;
    },

    async reject(id: string, adminId: string, reason: string) {
      const row = await db.transaction(async (tx) => {
        const current = await providerApplicationsRepo.lockById(tx, id);
        if (!current) throw notFound('Provider application');
        if (current.status !== 'pending') throw applicationReviewed(current.status);
        const reviewed = await providerApplicationsRepo.review(tx, id, {
          status: 'rejected',
          reviewedBy: adminId,
          reviewedAt: clock.now(),
          rejectionReason: reason,
        });
        if (!reviewed) throw applicationReviewed('reviewed');
        return reviewed;
      });
      await mailApplicant(row.userId, (to) => rejectionMail(to, row, reason));
      return row;
    },
  };
}

export type ProviderApplicationsService = ReturnType<typeof createProviderApplicationsService>;

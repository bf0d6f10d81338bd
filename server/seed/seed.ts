import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { DEMO_ADMIN, DEMO_PROVIDERS, DEMO_USER } from './demo-data';
import { createListing, createProvider, createUser, findProviderByCompany } from './factories';

export interface SeedReport {
  createdUsers: number;
  createdProviders: number;
  createdListings: number;
}

/** Adds the demo world where it is missing; running it again changes nothing. */
export async function seedDemoData(db: Db): Promise<SeedReport> {
  return db.transaction(async (tx) => {
    const report: SeedReport = { createdUsers: 0, createdProviders: 0, createdListings: 0 };
    const findUser = async (email: string) =>
      (await tx.select().from(users).where(eq(users.email, email)).limit(1))[0] ?? null;

    let demo = await findUser(DEMO_USER.email);
    if (!demo) {
      demo = await createUser(tx, { ...DEMO_USER, isDemo: true });
      report.createdUsers += 1;
    }
    if (!(await findUser(DEMO_ADMIN.email))) {
      await createUser(tx, { ...DEMO_ADMIN, isAdmin: true });
      report.createdUsers += 1;
    }

    for (const { listings, ownedByDemoUser, ...provider } of DEMO_PROVIDERS) {
      if (await findProviderByCompany(tx, provider.companyName)) continue;
      const created = await createProvider(tx, {
        ...provider,
        userId: ownedByDemoUser ? demo.id : null,
      });
      report.createdProviders += 1;
      for (const listing of listings) {
        await createListing(tx, { ...listing, providerId: created.id, isDemoHost: true });
        report.createdListings += 1;
      }
    }
    return report;
  });
}

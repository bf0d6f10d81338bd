import { eq } from 'drizzle-orm';
import { dollarsToMicros, microsToDollars } from '../../shared/rules/money';
import type { Database, Db } from '../db/client';
import { users } from '../db/schema';
import type { InstancesService } from '../modules/instances/service';
import type { Worker } from '../worker';
import { DEMO_ADMIN, DEMO_PROVIDERS, DEMO_RENTERS, DEMO_USER, type DemoHistory } from './demo-data';
import {
  createListing,
  createProvider,
  createUser,
  findProviderByCompany,
  recordDemoOutages,
} from './factories';

export interface SeedReport {
  createdUsers: number;
  createdProviders: number;
  createdListings: number;
  createdRentals: number;
}

const HOURS = [48, 72, 96, 120, 168];
const DAY_MS = 24 * 60 * 60_000;

/** A demo listing's recorded outages, counted back from `now`. */
export function demoOutages(history: DemoHistory, now: Date) {
  return history.outages.map(([hoursAgo, minutes]) => {
    const startedAt = new Date(now.getTime() - hoursAgo * 60 * 60_000);
    return { startedAt, endedAt: new Date(startedAt.getTime() + minutes * 60_000) };
  });
}

/**
 * The start-up seed (server/main.ts): `seedDemoData` under the `seed` advisory lock, so of
 * several processes started together on one empty PostgreSQL the first seeds and the others
 * find the demo world there and add nothing.
 */
export function seedDemoDataOnce(
  database: Pick<Database, 'db' | 'exclusively'>,
  services: { instances: InstancesService; worker: Worker } | null,
  now = new Date(),
): Promise<SeedReport> {
  return database.exclusively('seed', () => seedDemoData(database.db, services, now));
}

/**
 * Adds the demo world where it is missing; running it again changes nothing (one seeder at a
 * time: `seedDemoDataOnce` takes turns across processes). Units that
 * are not free are rented through the real rental service, so the ledger, the listings'
 * counts and the rentals agree from the first start.
 */
export async function seedDemoData(
  db: Db,
  services: { instances: InstancesService; worker: Worker } | null,
  now = new Date(),
): Promise<SeedReport> {
  const report: SeedReport = {
    createdUsers: 0,
    createdProviders: 0,
    createdListings: 0,
    createdRentals: 0,
  };
  const toRent: { listingId: number; providerId: number; rate: string; units: number }[] = [];
  const renterIds: string[] = [];

  await db.transaction(async (tx) => {
    const findUser = async (email: string) =>
      (await tx.select().from(users).where(eq(users.email, email)).limit(1))[0] ?? null;
    const ensureUser = async (input: Parameters<typeof createUser>[1] & { email: string }) => {
      const found = await findUser(input.email);
      if (found) return found;
      report.createdUsers += 1;
      return createUser(tx, input);
    };

    const demo = await ensureUser({ ...DEMO_USER, isDemo: true });
    await ensureUser({ ...DEMO_ADMIN, isAdmin: true });
    // The background renters' rentals become ready right after start; with e-mail off their
    // instance alerts are not printed, so the console keeps to what a developer looks for.
    for (const renter of DEMO_RENTERS) {
      const quiet = { notifications: { email: false } };
      renterIds.push((await ensureUser({ ...renter, settings: quiet })).id);
    }

    for (const { listings, ownedByDemoUser, ...provider } of DEMO_PROVIDERS) {
      if (await findProviderByCompany(tx, provider.companyName)) continue;
      const created = await createProvider(tx, {
        ...provider,
        userId: ownedByDemoUser ? demo.id : null,
      });
      report.createdProviders += 1;
      for (const { history, ...listing } of listings) {
        const total = listing.totalCount ?? 1;
        const free = listing.availableCount ?? total;
        const row = await createListing(tx, {
          ...listing,
          providerId: created.id,
          availableCount: total,
          isDemoHost: true,
          createdAt: new Date(now.getTime() - history.listedDaysAgo * DAY_MS),
        });
        await recordDemoOutages(tx, row.id, demoOutages(history, now));
        report.createdListings += 1;
        if (free < total) {
          toRent.push({
            listingId: row.id,
            providerId: created.id,
            rate: listing.hourlyRate ?? '1.00',
            units: total - free,
          });
        }
      }
    }
  });

  if (services) {
    let n = 0;
    for (const item of toRent) {
      for (let unit = 0; unit < item.units; unit += 1, n += 1) {
        const hours = HOURS[n % HOURS.length] ?? 72;
        const renter = renterIds[n % renterIds.length];
        if (!renter) break;
        await services.instances.rent(
          renter,
          {
            gpuListingId: item.listingId,
            providerId: item.providerId,
            durationHours: hours,
            hourlyRate: item.rate,
            totalCost: microsToDollars(dollarsToMicros(item.rate) * BigInt(hours)),
          },
          now,
        );
        report.createdRentals += 1;
      }
    }
    // The seeded instances are already up.
    if (report.createdRentals > 0)
      await services.worker.runOnce(new Date(now.getTime() + 60 * 60_000));
  }
  return report;
}

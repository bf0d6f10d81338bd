import { dollarsToMicros, microsToDollars } from '../../shared/rules/money';
import { checkInvariants } from '../modules/ledger/invariants';
import {
  createListing,
  createProvider,
  type ListingInput,
  type UserInput,
} from '../seed/factories';
import type { TestApp } from './app';

/** Test data built with the seed's factories, so tests and the demo describe one world. */
export function world(t: TestApp) {
  const db = t.database.db;
  /** The body the rent dialog would send for a listing at the server's price. */
  const rentBody = (
    listing: { id: number; providerId: number; hourlyRateMicros: bigint },
    hours = 2,
  ) => ({
    gpuListingId: listing.id,
    providerId: listing.providerId,
    durationHours: hours,
    hourlyRate: microsToDollars(listing.hourlyRateMicros),
    totalCost: microsToDollars(listing.hourlyRateMicros * BigInt(hours)),
  });
  /** The signed-in user of `cookie` renting `hours` of the listing as the rent dialog does. */
  const rentAs = (
    cookie: string,
    listing: { id: number; providerId: number; hourlyRateMicros: bigint },
    hours?: number,
  ) =>
    t.request({ method: 'POST', url: '/api/rentals', payload: rentBody(listing, hours), cookie });
  return {
    async provider(owner?: UserInput) {
      const user = await t.signIn(owner);
      const provider = await createProvider(db, { userId: user.userId });
      return { ...user, providerId: provider.id };
    },

    async listing(input: Partial<ListingInput> & { providerId?: number } = {}) {
      const providerId = input.providerId ?? (await createProvider(db, {})).id;
      return createListing(db, {
        model: 'RTX 4090',
        hourlyRate: '1.50',
        totalCount: 4,
        ...input,
        providerId,
      });
    },

    rentBody,
    rentAs,

    /**
     * A new renter with `credits` renting `hours` of the listing as the rent dialog does
     * (POST /api/rentals): the renter and the answer.
     */
    async rent(
      listing: { id: number; providerId: number; hourlyRateMicros: bigint },
      hours: number,
      credits: string,
    ) {
      const renter = await t.signIn({ credits });
      return { renter, res: await rentAs(renter.cookie, listing, hours) };
    },

    async balance(cookie: string): Promise<string> {
      const res = await t.request({ method: 'GET', url: '/api/auth/user', cookie });
      return res.json().credits as string;
    },

    async invariants() {
      return checkInvariants(db);
    },

    micros: dollarsToMicros,
  };
}

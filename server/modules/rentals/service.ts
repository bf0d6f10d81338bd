import type { CreateRentalBody } from '../../../shared/contracts/rentals';
import { dollarsToMicros, microsToDollars } from '../../../shared/rules/money';
import {
  bookedCostMicros,
  quoteRental,
  STORAGE_ADDON_MICROS,
  sameDollars,
  splitEarnings,
  usedCostMicros,
} from '../../../shared/rules/pricing';
import type { Conn, Db, Tx } from '../../db/client';
import type { Rental } from '../../db/schema';
import { badRequest, listingUnavailable, notFound, quoteMismatch } from '../../lib/errors';
import { ledgerService } from '../ledger/service';
import { listingsService } from '../listings/service';
import { type RentalRow, rentalsRepo } from './repo';

export interface RentalConfig {
  platformFeeBps: number;
  provisioningTimeoutMs: number;
  demoProvisioningDelayMs: number;
  /** Called after any change to rentals or listing availability (read caches listen). */
  onChange?: () => void;
  /** Told after commit when the worker makes an instance ready or ends it (instance alerts). */
  onInstanceEvent?: (event: InstanceEvent) => void;
}

export interface InstanceEvent {
  kind: 'ready' | 'expired' | 'timed_out';
  rentalId: number;
  userId: string;
}

export interface RentOptions {
  /** Runs last inside the rent's transaction (the route stores its Idempotency-Key answer). */
  record?: (tx: Tx, created: RentalRow) => Promise<void>;
}

export type SettledBy = 'user' | 'expiry' | 'provisioning_timeout' | 'api' | 'demo_cleanup';

/** A demo host's SSH address: it says what it is. */
export function demoHostFor(listingId: number): string {
  return `gpu-${listingId}.demo.rentgpu.dev`;
}

function parseDollars(value: string): bigint | null {
  try {
    return dollarsToMicros(value);
  } catch {
    return null;
  }
}

export function createRentalsService(db: Db, config: RentalConfig) {
  const escrow = (tx: Tx) => ledgerService.systemAccount(tx, 'escrow', db);
  const platform = (tx: Tx) => ledgerService.systemAccount(tx, 'platform_revenue', db);

  // Account ids never change once committed. They are remembered only after the
  // transaction that read them commits, so a rolled-back creation can never be cached.
  const known = { wallets: new Map<string, number>(), providers: new Map<number, number>() };
  const remember = (wallets: [string, number][], providers: [number, number][]) => {
    if (known.wallets.size > 100_000) known.wallets.clear();
    if (known.providers.size > 100_000) known.providers.clear();
    for (const [user, id] of wallets) known.wallets.set(user, id);
    for (const [provider, id] of providers) known.providers.set(provider, id);
  };
  type Seen = { wallets: [string, number][]; providers: [number, number][] };
  const seenIn = new WeakMap<object, Seen>();
  const walletOf = async (tx: Tx, userId: string) => {
    const cached = known.wallets.get(userId);
    if (cached !== undefined) return cached;
    const id = await ledgerService.walletAccount(tx, userId);
    seenIn.get(tx)?.wallets.push([userId, id]);
    return id;
  };
  const earningsOf = async (tx: Tx, providerId: number) => {
    const cached = known.providers.get(providerId);
    if (cached !== undefined) return cached;
    const id = await ledgerService.providerAccount(tx, providerId);
    seenIn.get(tx)?.providers.push([providerId, id]);
    return id;
  };
  /** A database transaction after whose commit the account ids it read are remembered. */
  async function transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const seen: Seen = { wallets: [], providers: [] };
    const result = await db.transaction((tx) => {
      seenIn.set(tx, seen);
      return work(tx);
    });
    remember(seen.wallets, seen.providers);
    return result;
  }

  /**
   * Ends a rental inside the caller's transaction (the row must be locked). Completed:
   * the used time's cost (by the second, rounded up to the cent) goes to the provider less
   * the platform fee, the rest of the escrow back to the wallet. Cancelled: everything,
   * storage included, goes back to the wallet.
   */
  async function settle(
    tx: Tx,
    rental: Rental,
    how: { at: Date; by: SettledBy; cancel: boolean },
  ): Promise<Partial<Rental>> {
    if (rental.status !== 'active') return {};
    const wallet = await walletOf(tx, rental.userId);
    const escrowId = await escrow(tx);
    const platformId = await platform(tx);
    const booked = rental.bookedCostMicros;
    const reference = `rental:${rental.id}`;
    if (how.cancel) {
      await listingsService.releaseUnit(tx, rental.gpuListingId);
      await ledgerService.post(tx, {
        kind: 'rental_cancel',
        memo: `Full refund: rental ${rental.id} cancelled (${how.by})`,
        reference,
        lines: [
          { accountId: escrowId, amountMicros: -booked, system: true },
          { accountId: platformId, amountMicros: -rental.storageFeeMicros, system: true },
          { accountId: wallet, amountMicros: booked + rental.storageFeeMicros },
        ],
      });
      const changes = {
        status: 'cancelled',
        endTime: how.at,
        usedSeconds: 0,
        usedCostMicros: 0n,
        refundMicros: booked + rental.storageFeeMicros,
        platformFeeMicros: 0n,
        settledBy: how.by,
      } satisfies Partial<Rental>;
      await rentalsRepo.markSettled(tx, rental.id, changes);
      return changes;
    }
    const end = how.at < rental.endsAt ? how.at : rental.endsAt;
    const usedSeconds = Math.max(
      0,
      Math.floor((end.getTime() - rental.startTime.getTime()) / 1000),
    );
    const used = usedCostMicros(rental.hourlyRateMicros, usedSeconds, rental.durationHours);
    const { providerMicros, feeMicros } = splitEarnings(used, config.platformFeeBps);
    const providerId = await earningsOf(tx, rental.providerId);
    await listingsService.releaseUnit(tx, rental.gpuListingId);
    await ledgerService.post(tx, {
      kind: 'rental_settle',
      memo: `Rental ${rental.id}: ${usedSeconds} s used (${how.by})`,
      reference,
      lines: [
        { accountId: escrowId, amountMicros: -booked, system: true },
        { accountId: providerId, amountMicros: providerMicros },
        { accountId: platformId, amountMicros: feeMicros, system: true },
        { accountId: wallet, amountMicros: booked - used },
      ],
    });
    const changes = {
      status: 'completed',
      endTime: end,
      usedSeconds,
      usedCostMicros: used,
      refundMicros: booked - used,
      platformFeeMicros: feeMicros,
      settledBy: how.by,
    } satisfies Partial<Rental>;
    await rentalsRepo.markSettled(tx, rental.id, changes);
    return changes;
  }

  /** The error for a rent that could not take a unit: the first rule it breaks. */
  async function whyNotRentable(body: CreateRentalBody, userId: string) {
    const found = await listingsService.findById(db, body.gpuListingId);
    // Another demo visitor's sandbox listing does not exist for this renter.
    if (!found || (found.provider.isSandbox && found.provider.userId !== userId))
      return notFound('GPU listing');
    const listing = found.listing;
    if (body.providerId !== listing.providerId) {
      return badRequest('providerId does not match the listing.', {
        fields: { providerId: ['Does not match the listing'] },
      });
    }
    const quote = quoteRental(listing.hourlyRateMicros, body.durationHours);
    if (
      !sameDollars(body.hourlyRate, quote.hourlyRate) ||
      !sameDollars(body.totalCost, quote.totalCost)
    ) {
      return quoteMismatch({ ...quote });
    }
    return listingUnavailable();
  }

  return {
    /**
     * Rents one unit: the server's quote must match what the client showed; in one
     * transaction a unit is taken, the booked cost moves from the wallet to escrow and the
     * storage add-on is charged as its own line.
     */
    async rent(
      userId: string,
      body: CreateRentalBody,
      now: Date,
      options: RentOptions = {},
    ): Promise<RentalRow> {
      const clientRate = parseDollars(body.hourlyRate);
      const booked = clientRate === null ? 0n : bookedCostMicros(clientRate, body.durationHours);
      // The common case costs one statement: take a unit at the rate the client was shown.
      // Anything else (unknown listing, changed price, rented out) is explained afterwards.
      const created = await transact(async (tx) => {
        if (clientRate === null) return null;
        const listing = await listingsService.reserveUnit(
          tx,
          body.gpuListingId,
          clientRate,
          body.providerId,
          userId,
        );
        if (!listing) return null;
        if (!sameDollars(body.totalCost, microsToDollars(booked))) {
          throw quoteMismatch({ ...quoteRental(clientRate, body.durationHours) });
        }
        const rental = await rentalsRepo.insert(tx, {
          userId,
          gpuListingId: listing.id,
          providerId: listing.providerId,
          durationHours: body.durationHours,
          hourlyRateMicros: clientRate,
          bookedCostMicros: booked,
          storageFeeMicros: STORAGE_ADDON_MICROS,
          status: 'active',
          startTime: now,
          endsAt: new Date(now.getTime() + body.durationHours * 3_600_000),
          readyDueAt: listing.isDemoHost
            ? new Date(now.getTime() + config.demoProvisioningDelayMs)
            : null,
          provisioningDeadline: new Date(now.getTime() + config.provisioningTimeoutMs),
        });
        await ledgerService.post(tx, {
          kind: 'rental_start',
          memo: `Rental ${rental.id}: ${body.durationHours} h of ${listing.model} held in escrow, storage add-on charged`,
          reference: `rental:${rental.id}`,
          lines: [
            {
              accountId: await walletOf(tx, userId),
              amountMicros: -(booked + STORAGE_ADDON_MICROS),
            },
            { accountId: await escrow(tx), amountMicros: booked, system: true },
            { accountId: await platform(tx), amountMicros: STORAGE_ADDON_MICROS, system: true },
          ],
        });
        const row: RentalRow = {
          rental,
          listing: {
            model: listing.model,
            location: listing.location,
            isDemoHost: listing.isDemoHost,
          },
          provider: { companyName: listing.companyName },
        };
        await options.record?.(tx, row);
        return row;
      });
      if (!created) throw await whyNotRentable(body, userId);
      config.onChange?.();
      return created;
    },

    /**
     * Stops the caller's rental; stopping twice changes nothing. A rental stopped before
     * its instance was ready is cancelled with a full refund.
     */
    async stop(
      userId: string,
      rentalId: number,
      now: Date,
      by: SettledBy = 'user',
    ): Promise<RentalRow> {
      const stopped = await transact(async (tx) => {
        const row = await rentalsRepo.lockView(tx, rentalId);
        if (!row || row.rental.userId !== userId) throw notFound('Rental');
        const changes = await settle(tx, row.rental, {
          at: now,
          by,
          cancel: row.rental.readyAt === null,
        });
        return { ...row, rental: { ...row.rental, ...changes } };
      });
      config.onChange?.();
      return stopped;
    },

    listByUser: (userId: string) => rentalsRepo.listByUser(db, userId),
    /** Running instances of a user, counted in the caller's transaction when given one. */
    countActiveByUser: (userId: string, conn: Conn = db) =>
      rentalsRepo.countActiveByUser(conn, userId),
    listByProvider: (providerId: number) => rentalsRepo.listByProvider(db, providerId),

    /** One pass of the worker's duties; returns what it did. */
    async processDue(now: Date, batch = 50) {
      const done = { ready: 0, timedOut: 0, expired: 0 };
      const events: InstanceEvent[] = [];
      const event = (kind: InstanceEvent['kind'], rental: Rental) =>
        events.push({ kind, rentalId: rental.id, userId: rental.userId });
      await transact(async (tx) => {
        for (const rental of await rentalsRepo.claimDue(tx, 'ready', now, batch)) {
          // A savepoint: two workers picking the same free port lose one attempt, not the batch.
          try {
            const ok = await tx.transaction((sp) =>
              rentalsRepo.markReady(
                sp,
                rental.id,
                demoHostFor(rental.gpuListingId),
                rental.readyDueAt ?? now,
              ),
            );
            if (ok) {
              done.ready += 1;
              event('ready', rental);
            }
          } catch {
            // retried on the next tick
          }
        }
      });
      await transact(async (tx) => {
        for (const rental of await rentalsRepo.claimDue(tx, 'timeout', now, batch)) {
          await settle(tx, rental, { at: now, by: 'provisioning_timeout', cancel: true });
          done.timedOut += 1;
          event('timed_out', rental);
        }
      });
      await transact(async (tx) => {
        for (const rental of await rentalsRepo.claimDue(tx, 'expiry', now, batch)) {
          await settle(tx, rental, { at: rental.endsAt, by: 'expiry', cancel: false });
          done.expired += 1;
          event('expired', rental);
        }
      });
      if (done.ready + done.timedOut + done.expired > 0) config.onChange?.();
      for (const e of events) config.onInstanceEvent?.(e);
      return done;
    },
  };
}

export type RentalsService = ReturnType<typeof createRentalsService>;

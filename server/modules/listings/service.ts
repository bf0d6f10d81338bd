import type { ListingChanges, ListingsQuery, NewListing } from '../../../shared/contracts/listings';
import { gpuModelInfo, performanceScore } from '../../../shared/gpu-models';
import { dollarsToMicros } from '../../../shared/rules/money';
import type { Db } from '../../db/client';
import {
  badRequest,
  forbidden,
  listingHasActiveRentals,
  notAProvider,
  notFound,
} from '../../lib/errors';
import { providersService } from '../providers/service';
import { decodeCursor, encodeCursor } from './cursor';
import { listingsRepo } from './repo';

/** Columns derived from the model and memory, kept so sorting stays an index scan. */
export function derivedListingColumns(model: string, memory: string) {
  return { memoryGb: Number.parseInt(memory, 10) || 0, performanceScore: performanceScore(model) };
}
const derived = derivedListingColumns;

async function ownedListing(db: Db, userId: string, listingId: number) {
  const providerId = await providersService.providerIdOf(db, userId);
  const row = await listingsRepo.findById(db, listingId);
  if (!row) throw notFound('GPU listing');
  if (providerId === null || row.listing.providerId !== providerId)
    throw forbidden('Only the provider who listed this GPU can change it.');
  return row;
}

export const listingsService = {
  findById: listingsRepo.findById,
  /** Takes one unit at the given rate inside the caller's transaction; false if not rentable. */
  reserveUnit: listingsRepo.reserveUnit,
  releaseUnit: listingsRepo.releaseUnit,
  takeUnit: listingsRepo.takeUnit,

  /** A page of the marketplace; a demo visitor also sees their own sandbox listings. */
  async list(db: Db, query: ListingsQuery, viewerSandboxId?: number) {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (query.cursor && !after)
      throw badRequest('The cursor is not valid. Start again without it.');
    const { rows, next } = await listingsRepo.list(db, {
      ...(query.model ? { search: query.model } : {}),
      ...(query.gpuType && query.gpuType !== 'All GPU Types' ? { gpuType: query.gpuType } : {}),
      ...(query.providerId ? { providerId: query.providerId } : {}),
      ...(query.sort ? { sort: query.sort } : {}),
      ...(viewerSandboxId !== undefined ? { viewerSandboxId } : {}),
      limit: query.limit,
      ...(after ? { after } : {}),
    });
    return { rows, nextCursor: next ? encodeCursor(next) : null };
  },

  /** The sandbox provider a demo visitor owns, if any (whose listings only they see). */
  async sandboxProviderOf(db: Db, userId: string): Promise<number | undefined> {
    const provider = await providersService.findByUserId(db, userId);
    return provider?.isSandbox ? provider.id : undefined;
  },

  stats(db: Db) {
    return listingsRepo.stats(db);
  },

  async create(db: Db, userId: string, body: NewListing) {
    const providerId = await providersService.providerIdOf(db, userId);
    if (providerId === null) throw notAProvider();
    if (body.providerId !== providerId)
      throw forbidden('You can only list GPUs for your own provider profile.');
    const info = gpuModelInfo(body.model);
    const specs = body.specifications ?? {
      pcieLanes: '16x',
      powerConsumption: '',
      cooling: 'Air Cooled',
      additionalSpecs: '',
    };
    const id = await listingsRepo.insert(db, {
      providerId,
      model: body.model,
      memory: body.memory,
      cudaCores: body.cudaCores ?? null,
      tensorCores: info?.tensorCores ?? null,
      location: body.location,
      bandwidth: body.bandwidth,
      hourlyRateMicros: dollarsToMicros(body.hourlyRate),
      status: 'available',
      availableCount: body.availableCount,
      totalCount: body.availableCount,
      specifications: { ...specs, bandwidth: body.bandwidth },
      isDemoHost: false,
      ...derived(body.model, body.memory),
    });
    const created = await listingsRepo.findById(db, id);
    if (!created) throw new Error('created listing vanished');
    return created;
  },

  async update(db: Db, userId: string, listingId: number, body: ListingChanges) {
    await ownedListing(db, userId, listingId);
    await db.transaction(async (tx) => {
      const locked = await listingsRepo.lockById(tx, listingId);
      if (!locked || locked.removedAt) throw notFound('GPU listing');
      const model = body.model ?? locked.model;
      const memory = body.memory ?? locked.memory;
      const changes: Parameters<typeof listingsRepo.update>[2] = {
        model,
        memory,
        ...derived(model, memory),
        ...(body.cudaCores !== undefined ? { cudaCores: body.cudaCores } : {}),
        ...(body.location ? { location: body.location } : {}),
        ...(body.bandwidth ? { bandwidth: body.bandwidth } : {}),
        ...(body.hourlyRate ? { hourlyRateMicros: dollarsToMicros(body.hourlyRate) } : {}),
      };
      if (body.specifications || body.bandwidth) {
        changes.specifications = {
          ...locked.specifications,
          ...(body.specifications ?? {}),
          bandwidth: body.bandwidth ?? locked.bandwidth,
        };
      }
      const active = await listingsRepo.countUnitsHeld(tx, listingId);
      const total = body.totalCount ?? locked.totalCount;
      if (total < active) {
        throw badRequest(
          `This listing has ${active} active rentals; the total count cannot go below that.`,
          {
            fields: { totalCount: [`At least ${active}`] },
          },
        );
      }
      changes.totalCount = total;
      changes.availableCount = total - active;
      const wanted = body.status ?? (locked.status === 'maintenance' ? 'maintenance' : 'available');
      changes.status =
        wanted === 'maintenance' ? 'maintenance' : total - active === 0 ? 'rented' : 'available';
      await listingsRepo.update(tx, listingId, changes);
    });
    const updated = await listingsRepo.findById(db, listingId);
    if (!updated) throw notFound('GPU listing');
    return updated;
  },

  /** Removal keeps the row (and so every rental's history); refused while rentals run. */
  async remove(db: Db, userId: string, listingId: number, now: Date) {
    await ownedListing(db, userId, listingId);
    await db.transaction(async (tx) => {
      await listingsRepo.lockById(tx, listingId);
      const active = await listingsRepo.countLiveInstances(tx, listingId);
      if (active > 0) throw listingHasActiveRentals(active);
      await listingsRepo.update(tx, listingId, { removedAt: now });
    });
  },
};

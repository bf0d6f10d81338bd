import type { ListingChanges, ListingsQuery, NewListing } from '../../../shared/contracts/listings';
import { gpuModelInfo, performanceScore } from '../../../shared/gpu-models';
import { dollarsToMicros } from '../../../shared/rules/money';
import type { Conn, Db } from '../../db/client';
import { bindDb } from '../../lib/bind-db';
import {
  badRequest,
  forbidden,
  listingHasActiveRentals,
  notAProvider,
  notFound,
  validationFailed,
} from '../../lib/errors';
import { providerHostsService } from '../hosts/provider-hosts';
import { providersService } from '../providers/service';
import { decodeCursor, encodeCursor } from './cursor';
import { gpuOfferings } from './offerings';
import { listingsPolicy } from './policy';
import { withHostUptime } from './presenter';
import { listingsRepo } from './repo';

/** Columns derived from the model and memory, kept so sorting stays an index scan. */
export function derivedListingColumns(model: string, memory: string) {
  return { memoryGb: Number.parseInt(memory, 10) || 0, performanceScore: performanceScore(model) };
}
const derived = derivedListingColumns;

const firstGpus = (count: number) => Array.from({ length: Math.min(count, 256) }, (_, i) => i);

/**
 * Where a listing's instances run: one of the provider's own hosts (not removed) and the
 * host's GPU indexes it offers, at most one per unit; none given means the first totalCount.
 * Undefined when the body changes neither.
 */
async function placement(
  conn: Conn,
  providerId: number,
  change: { hostId?: string | null; hostGpuIndexes?: number[] },
  current: { hostId: string | null; hostGpuIndexes: number[]; totalCount: number | null },
  totalCount: number,
): Promise<{ hostId: string | null; hostGpuIndexes: number[] } | undefined> {
  if (change.hostId === undefined && change.hostGpuIndexes === undefined) {
    // A new total re-derives indexes that were the default ones.
    const wasDefault =
      current.hostId !== null &&
      current.totalCount !== null &&
      current.hostGpuIndexes.join() === firstGpus(current.totalCount).join();
    return wasDefault && current.totalCount !== totalCount
      ? { hostId: current.hostId, hostGpuIndexes: firstGpus(totalCount) }
      : undefined;
  }
  const hostId = change.hostId === undefined ? current.hostId : change.hostId;
  const indexes = change.hostGpuIndexes ?? [];
  if (hostId === null) {
    if (indexes.length > 0)
      throw validationFailed({ hostGpuIndexes: ['Choose a host for these GPUs first'] });
    return { hostId: null, hostGpuIndexes: [] };
  }
  if (!(await providerHostsService.ownsHost(conn, providerId, hostId)))
    throw validationFailed({ hostId: ['Choose one of your hosts'] });
  if (indexes.length > totalCount) {
    throw validationFailed({
      hostGpuIndexes: [`At most ${totalCount} GPU indexes (one per unit)`],
    });
  }
  return { hostId, hostGpuIndexes: indexes.length > 0 ? indexes : firstGpus(totalCount) };
}

/** The listing the caller's provider owns, or the policy's 404 / 403 (listingsPolicy). */
async function ownedListing(db: Db, userId: string, listingId: number) {
  const providerId = await providersService.providerIdOf(db, userId);
  return listingsPolicy.ownedListing(await listingsRepo.findById(db, listingId), providerId);
}

export const listingsService = {
  findById: listingsRepo.findById,
  /** Takes one unit at the given rate inside the caller's transaction; false if not rentable. */
  reserveUnit: listingsRepo.reserveUnit,
  releaseUnit: listingsRepo.releaseUnit,
  takeUnit: listingsRepo.takeUnit,
  /** Per GPU type: its listings and the cheapest rentable one (Instant Deploy, the VM list). */
  offerings: gpuOfferings,
  /** Listings a VM can be made from, cheapest first (the VM dashboard's GPU list and create). */
  vmCandidates: listingsRepo.vmCandidates,
  /** The images each listing's host holds (server/modules/images/catalogue.ts heldImages). */
  heldImagesOf: listingsRepo.heldImagesOf,
  /** The host GPU indexes each named listing on this host offers (placing instances). */
  gpuIndexesOnHost: listingsRepo.gpuIndexesOnHost,

  /**
   * A page of the marketplace as JSON text (an array of listing views: `market`, the
   * marketplace's; `public`, the public API's); a demo visitor also sees their own sandbox
   * listings.
   */
  async page(
    db: Db,
    query: ListingsQuery,
    options: { view: 'market' | 'public'; viewerSandboxId?: number | undefined; now: Date },
  ): Promise<{ json: string; nextCursor: string | null }> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (query.cursor && !after)
      throw badRequest('The cursor is not valid. Start again without it.');
    const { json, hostIds, next } = await listingsRepo.page(db, {
      ...(query.model ? { search: query.model } : {}),
      ...(query.gpuType && query.gpuType !== 'All GPU Types' ? { gpuType: query.gpuType } : {}),
      ...(query.providerId ? { providerId: query.providerId } : {}),
      ...(query.sort ? { sort: query.sort } : {}),
      ...(options.viewerSandboxId !== undefined
        ? { viewerSandboxId: options.viewerSandboxId }
        : {}),
      limit: query.limit,
      ...(after ? { after } : {}),
      view: options.view,
    });
    const uptime =
      hostIds.length > 0
        ? await providerHostsService.uptimeOf(db, hostIds, options.now)
        : new Map<string, number | null>();
    return { json: withHostUptime(json, uptime), nextCursor: next ? encodeCursor(next) : null };
  },

  /** The sandbox provider a demo visitor owns, if any (whose listings only they see). */
  async sandboxProviderOf(db: Db, userId: string): Promise<number | undefined> {
    const provider = await providersService.findByUserId(db, userId);
    return provider?.isSandbox ? provider.id : undefined;
  },

  stats(db: Db) {
    return listingsRepo.stats(db);
  },

  /** `providerId` must be the caller's own; without one (the public API), it is taken as theirs. */
  async create(
    db: Db,
    userId: string,
    body: Omit<NewListing, 'providerId'> & { providerId?: number },
  ) {
    const providerId = await providersService.providerIdOf(db, userId);
    if (providerId === null) throw notAProvider();
    if (body.providerId !== undefined && body.providerId !== providerId)
      throw forbidden('You can only list GPUs for your own provider profile.');
    const info = gpuModelInfo(body.model);
    const specs = body.specifications ?? {
      pcieLanes: '16x',
      powerConsumption: '',
      cooling: 'Air Cooled',
      additionalSpecs: '',
    };
    const placed = await placement(
      db,
      providerId,
      body,
      { hostId: null, hostGpuIndexes: [], totalCount: null },
      body.availableCount,
    );
    const id = await listingsRepo.insert(db, {
      ...(placed ?? {}),
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
      const placed = await placement(tx, locked.providerId, body, locked, total);
      if (placed) Object.assign(changes, placed);
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

/** A unit's reserve and release as SQL, for a rent's or a settlement's one statement. */
export { releaseUnitSql, reserveUnitSql } from './repo';

/** The routes' listings (app.deps.listings): the database bound. */
export function createListingsService(db: Db) {
  return bindDb(db, listingsService, [
    'page',
    'sandboxProviderOf',
    'stats',
    'create',
    'update',
    'remove',
  ]);
}

export type ListingsService = ReturnType<typeof createListingsService>;

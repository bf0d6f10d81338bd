import type {
  GpuShareView,
  ListingChanges,
  ListingsQuery,
  NewListing,
} from '../../../shared/contracts/listings';
import { catalogueMemoryProblem, gpuModelInfo, performanceScore } from '../../../shared/gpu-models';
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
import { gpuBinding } from './gpu-binding';
import { type HostMachineRow, listingShare, shareView } from './gpu-share';
import { gpuOfferings } from './offerings';
import { listingsPolicy } from './policy';
import { withGpuShares, withHostUptime, withKinds, withMachines } from './presenter';
import { listingsRepo } from './repo';

/** Columns derived from the model and memory, kept so sorting stays an index scan. */
export function derivedListingColumns(model: string, memory: string) {
  return { memoryGb: Number.parseInt(memory, 10) || 0, performanceScore: performanceScore(model) };
}
const derived = derivedListingColumns;

/**
 * Where a listing's instances run: one of the provider's own hosts (not removed) and the
 * host's GPUs it sells, one per unit, all of the listing's model and sold by no other listing
 * (docs/decisions/020; none given means the free ones). Undefined when nothing that binds it
 * changes (host, GPUs, model, total). A listing placed on a host is no longer a demo host's.
 */
async function placement(
  conn: Conn,
  providerId: number,
  listingId: number | null,
  change: { hostId?: string | null; hostGpuIndexes?: number[] },
  current: { hostId: string | null; hostGpuIndexes: number[]; model: string; totalCount: number },
  next: { model: string; totalCount: number },
): Promise<
  | {
      hostId: string | null;
      hostGpuIndexes: number[];
      gpuProblem: null;
      unreadyGpus: number;
      isDemoHost?: false;
    }
  | undefined
> {
  const moved = change.hostId !== undefined || change.hostGpuIndexes !== undefined;
  const resized = next.model !== current.model || next.totalCount !== current.totalCount;
  if (!moved && (current.hostId === null || !resized)) return undefined;
  const hostId = change.hostId === undefined ? current.hostId : change.hostId;
  const wanted = change.hostGpuIndexes ?? [];
  if (hostId === null) {
    if (wanted.length > 0)
      throw validationFailed({ hostGpuIndexes: ['Choose a host for these GPUs first'] });
    return { hostId: null, hostGpuIndexes: [], gpuProblem: null, unreadyGpus: 0 };
  }
  if (moved && !(await providerHostsService.ownsHost(conn, providerId, hostId)))
    throw validationFailed({ hostId: ['Choose one of your hosts'] });
  if (wanted.length > 0 && wanted.length !== next.totalCount) {
    throw validationFailed({
      hostGpuIndexes: [`Exactly ${next.totalCount} GPU indexes (one per unit)`],
    });
  }
  const { indexes: hostGpuIndexes, unreadyGpus } = await gpuBinding.bind(conn, {
    hostId,
    listingId,
    model: next.model,
    units: next.totalCount,
    wanted,
    keep: hostId === current.hostId ? current.hostGpuIndexes : [],
  });
  // On a provider's host it runs there, not on the demo host: the badge follows (migration 0030).
  return { hostId, hostGpuIndexes, gpuProblem: null, unreadyGpus, isDemoHost: false };
}

/** The listing the caller's provider owns, or the policy's 404 / 403 (listingsPolicy). */
async function ownedListing(db: Db, userId: string, listingId: number) {
  const providerId = await providersService.providerIdOf(db, userId);
  return listingsPolicy.ownedListing(await listingsRepo.findById(db, listingId), providerId);
}

export const listingsService = {
  findById: listingsRepo.findById,
  /** findById as a launch reads it in its transaction (no reliability). */
  findForLaunch: listingsRepo.findForLaunch,
  /** A launch's unit taken and its listing read in one statement; null: none taken. */
  reserveForLaunch: listingsRepo.reserveForLaunch,
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
  /** A free GPU of an instance's listing, in the rent's transaction (ADR 020); not written. */
  chooseGpu: gpuBinding.choose,
  /** Where a new instance's GPU comes from, chosen by its insert (instancesRepo.insertChoosingGpu). */
  gpuChoiceForNew: gpuBinding.choiceForNew,
  /** After a heartbeat: listings whose GPUs the host no longer reports stop being rentable. */
  checkHostGpus: gpuBinding.checkHost,

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
      ...(query.kind ? { kind: query.kind } : {}),
      now: options.now,
      ...(query.gpuCount !== undefined ? { gpuCount: query.gpuCount } : {}),
      ...(query.minVramGb !== undefined ? { minVramGb: query.minVramGb } : {}),
      ...(query.maxGpuHourPrice !== undefined
        ? { maxGpuRateMicros: BigInt(Math.round(query.maxGpuHourPrice * 1_000_000)) }
        : {}),
      ...(query.minReliability !== undefined ? { minReliability: query.minReliability } : {}),
    });
    const uptime =
      hostIds.length > 0
        ? await providerHostsService.uptimeOf(db, hostIds, options.now)
        : new Map<string, number | null>();
    const hostsOfPage = await listingsRepo.machinesOf(db, hostIds);
    const shares = new Map<string, GpuShareView | null>();
    const machines = new Map<string, HostMachineRow | null>();
    for (const id of hostIds) {
      const machine = hostsOfPage.get(id)?.machine;
      shares.set(id, shareView(listingShare({ hostId: id, isDemoHost: false }, machine)));
      machines.set(id, machine ?? null);
    }
    const hosted = withGpuShares(withHostUptime(json, uptime), shares);
    return {
      // A kinds slot is written only for a listing on a host (page-query.ts KINDS_SLOT): a page
      // without one has none, and is not searched for it (issue 43's eleventh stop: on the
      // demo marketplace, whose listings have no host, that search of the whole page was 7%
      // of the server thread serving it).
      json: withMachines(hostIds.length > 0 ? withKinds(hosted, hostsOfPage) : hosted, machines),
      nextCursor: next ? encodeCursor(next) : null,
    };
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
    const next = { model: body.model, totalCount: body.availableCount };
    const id = await db.transaction(async (tx) => {
      const placed = await placement(
        tx,
        providerId,
        null,
        body,
        { hostId: null, hostGpuIndexes: [], ...next },
        next,
      );
      return listingsRepo.insert(tx, {
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
      // A change of either must leave a catalogue GPU (the contract checks both given together).
      const problem =
        body.model !== undefined || body.memory !== undefined
          ? catalogueMemoryProblem(model, memory)
          : null;
      if (problem) throw validationFailed({ memory: [problem] });
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
      const placed = await placement(tx, locked.providerId, listingId, body, locked, {
        model,
        totalCount: total,
      });
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

/** The GPU pool a unit's statement answers, its lock held (gpuBinding.assign). */
export { type TakenPool, type TakenPoolRow, takenPool } from './gpu-repo';
/** A unit's reserve and release as SQL, for a rent's or a settlement's one statement. */
export { releaseUnitSql } from './listing-sql';

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

import type { HostReadiness } from '../../../shared/contracts/hosts';
import {
  bindListing,
  demoGpuIndexes,
  freeGpu,
  gpuProblem,
  type ReportedGpu,
  unreadyGpuCount,
  usableGpus,
} from '../../../shared/rules/gpu-binding';
import type { Conn, Db } from '../../db/client';
import { conflict } from '../../lib/errors';
import { gpuRepo, type TakenPool } from './gpu-repo';

/**
 * A new instance's GPU, chosen in its insert: the lowest of `usable` that no live instance of
 * the pool holds — a host's (`key` its id) or a demo listing's own (`key` its id).
 */
export interface GpuChoice {
  pool: 'host' | 'listing';
  key: string;
  usable: readonly number[];
}

/**
 * Listings and instances bound to the GPUs their host reported (docs/decisions/020). Each
 * call that hands out GPUs takes the pool's lock first, inside the caller's transaction.
 */
export const gpuBinding = {
  /**
   * The GPU indexes a listing of `units` × `model` sells on the host (shared/rules/
   * gpu-binding.ts bindListing), and how many of them its host's verdict says cannot serve;
   * 409 naming what the host has when it cannot.
   */
  async bind(
    conn: Conn,
    at: {
      hostId: string;
      listingId: number | null;
      model: string;
      units: number;
      wanted: readonly number[];
      keep: readonly number[];
    },
  ): Promise<{ indexes: number[]; unreadyGpus: number }> {
    await gpuRepo.lockPool(conn, at.hostId);
    const host = await gpuRepo.hostGpus(conn, at.hostId);
    const bound = bindListing({
      model: at.model,
      units: at.units,
      wanted: at.wanted,
      keep: at.keep,
      gpus: host.reported,
      others: await gpuRepo.listingsOnHost(conn, at.hostId, at.listingId),
    });
    if (!bound.ok) {
      throw conflict(bound.message, {
        fields: { [bound.field]: [bound.message] },
        hostGpus: bound.hostGpus,
      });
    }
    return { indexes: bound.indexes, unreadyGpus: unreadyGpuCount(bound.indexes, host.readiness) };
  },

  /**
   * The lowest free GPU of an instance's listing, in the caller's transaction, under the
   * pool's lock: one its host still reports, says is ready (when it has said) and no other
   * instance there holds. `refusal` is thrown when none is free (the transaction then rolls
   * back: nothing is charged). `taken`: the pool as the statement that took the unit answered
   * it, its lock already held (else the listing is read and the lock taken here). The instance
   * core writes it on the instance (only it writes instances); a new instance not yet inserted
   * is named with id 0.
   */
  async choose(
    conn: Conn,
    instance: { id: number; gpuListingId: number },
    refusal: () => Error,
    taken?: TakenPool,
  ): Promise<number[]> {
    const listing = taken ?? (await gpuRepo.listingOf(conn, instance.gpuListingId));
    if (!listing) throw refusal();
    let usable: readonly number[];
    let used: Set<number>;
    if (listing.hostId !== null) {
      if (!taken) await gpuRepo.lockPool(conn, listing.hostId);
      const pool = await gpuRepo.hostPool(conn, listing.hostId, instance.id);
      usable = usableGpus(listing, pool.reported ?? [], pool.readiness?.readyGpus ?? null);
      used = pool.used;
    } else if (listing.isDemoHost) {
      if (!taken) await gpuRepo.lockPool(conn, `listing:${listing.id}`);
      usable = demoGpuIndexes(listing.totalCount);
      used = await gpuRepo.usedGpus(conn, listing.id, instance.id);
    } else {
      throw refusal();
    }
    const free = freeGpu(usable, used);
    if (free === null) throw refusal();
    return [free];
  },

  /**
   * Where a new instance's GPU comes from, for the insert that chooses it
   * (instancesRepo.insertChoosingGpu: the lowest of `usable` no live instance of the pool
   * holds, read in that statement, after the reserve took the pool's lock): a host's pool, or a
   * demo listing's own machines. Null when the unit's listing has neither (nothing to choose).
   * The same choice as `choose`, one statement fewer on every launch (issue 43).
   */
  choiceForNew(
    taken: TakenPool,
    host: { reported: ReportedGpu[] | null; readiness: HostReadiness | null },
  ): GpuChoice | null {
    if (taken.hostId !== null) {
      return {
        pool: 'host',
        key: taken.hostId,
        usable: usableGpus(taken, host.reported ?? [], host.readiness?.readyGpus ?? null),
      };
    }
    if (taken.isDemoHost) {
      return { pool: 'listing', key: String(taken.id), usable: demoGpuIndexes(taken.totalCount) };
    }
    return null;
  },

  /**
   * After a heartbeat: each of the host's listings is rentable only while the host still
   * reports every GPU it sells (the reason is kept for the provider: gpu_problem), and sells
   * only as many units as it has GPUs the host's verdict says can serve (unready_gpus).
   * Written only when one changes; true when one did.
   */
  async checkHost(
    db: Db,
    hostId: string,
    gpus: readonly ReportedGpu[],
    verdict: HostReadiness,
  ): Promise<boolean> {
    let changed = false;
    for (const listing of await gpuRepo.listingsOnHost(db, hostId)) {
      const problem = gpuProblem(listing, gpus);
      const unready = unreadyGpuCount(listing.hostGpuIndexes, verdict);
      if (problem !== listing.gpuProblem || unready !== listing.unreadyGpus) {
        await gpuRepo.setGpuState(db, listing.id, { gpuProblem: problem, unreadyGpus: unready });
        changed = true;
      }
    }
    return changed;
  },
};

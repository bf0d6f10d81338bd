import { and, asc, eq, getTableColumns, inArray, isNull, or, sql } from 'drizzle-orm';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import type { ListingHostStatus, ReliabilityView } from '../../../shared/contracts/listings';
import { UNIT_HOLDING_STATES } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiled, runSqlArrays } from '../../db/compiled';
import { gpuListings, hosts, instances, providers, sshKeys } from '../../db/schema';
import { POOL_LOCK_SQL, reportedGpus, type TakenPool, takenPool } from './gpu-repo';
import { type HostMachineRow, hostMachineJson, hostMachineSql } from './gpu-share';
import {
  heldImagesSql,
  hostCanRun,
  hostOfListing,
  hostReadinessOfListing,
  hostStatusOfListing,
  oneUnitFewer,
  releaseUnitStatement,
  sellableUnitsSql,
  takeUnitStatement,
  unitFree,
  unitOnSale,
} from './listing-sql';
import {
  type PageSqlRow,
  pageOfRow,
  RELIABILITY_STATEMENT,
  reliabilitySlotIds,
  withReliability,
} from './page-query';
import { type ListingFilter, pageQueryOf } from './page-statements';
import { reliabilityJsonSql } from './reliability-sql';

/** What a listing's kinds are read from: its host online, and its readiness verdict. */
export interface HostKindFacts {
  online: boolean;
  readiness: HostReadiness | null;
}

/** A listing's columns but its stored JSON (only the page statement reads that). */
const { marketJson: _market, publicJson: _public, ...listingFields } = getTableColumns(gpuListings);

export const listingColumns = {
  listing: listingFields,
  provider: {
    id: providers.id,
    companyName: providers.companyName,
    location: providers.location,
    isVerified: providers.isVerified,
    reputation: providers.reputation,
    userId: providers.userId,
    isSandbox: providers.isSandbox,
  },
  hostStatus: hostStatusOfListing,
  hostReadiness: hostReadinessOfListing,
  hostMachine: hostMachineSql,
  /** Its reliability (shared/contracts/listings.ts reliabilityView) as JSON, measured now. */
  reliabilityJson: sql<string>`${sql.raw(reliabilityJsonSql('gpu_listings', 'now()'))}`,
};

/**
 * What a launch reads of its listing (findForLaunch, reserveForLaunch): every listing column but
 * its reliability, and whether the renter (`renterId`) has an SSH key (the NO_SSH_KEY warning).
 */
const { reliabilityJson: _reliability, ...listingColumnsForLaunch } = listingColumns;
const launchColumns = {
  ...listingColumnsForLaunch,
  renterHasSshKey: sql<boolean>`exists (select 1 from ${sshKeys}
      where ${sshKeys.userId} = ${sql.placeholder('renterId')}::uuid)`,
};

/** findForLaunch's statement (server/db/compiled.ts: its SQL built once, planned once a connection). */
const findForLaunchStatement = compiled('listings_find_for_launch', (conn: Conn) =>
  conn
    .select(launchColumns)
    .from(gpuListings)
    .innerJoin(providers, eq(providers.id, gpuListings.providerId))
    .where(and(eq(gpuListings.id, sql.placeholder('id')), isNull(gpuListings.removedAt)))
    .limit(1),
);

/**
 * A launch's unit taken and its listing read in one statement (reserveForLaunch): the unit as
 * the reserve takes it (an available listing whose host runs the kind, of the provider named,
 * a sandbox's only for its owner), the pool's lock, and every column findForLaunch reads, of
 * the row as it stands after the unit was taken.
 */
const reserveForLaunchStatement = compiled('listings_reserve_for_launch', (conn: Conn) => {
  const hostRow = sql`from ${hosts} h where h.id = ${gpuListings.hostId} and h.removed_at is null`;
  return conn
    .update(gpuListings)
    .set(oneUnitFewer)
    .from(providers)
    .where(
      and(
        eq(gpuListings.id, sql.placeholder('id')),
        eq(providers.id, gpuListings.providerId),
        unitFree(sql`${sql.placeholder('kind')}`),
        sql`(${sql.placeholder('providerId')}::int is null or ${gpuListings.providerId} = ${sql.placeholder('providerId')}::int)`,
        sql`(not ${providers.isSandbox} or ${providers.userId} is not distinct from ${sql.placeholder('renterId')}::uuid)`,
      ),
    )
    .returning({
      ...launchColumns,
      unitHostId: hostOfListing,
      poolLocked: sql<unknown>`${sql.raw(POOL_LOCK_SQL)}`,
      poolHostGpus: sql<
        { index: number; name: string }[] | null
      >`(select h.inventory -> 'gpus' -> 'gpus' ${hostRow})`,
      poolHostReadiness: sql<HostReadiness | null>`(select h.readiness ${hostRow})`,
    });
});

export type ListingRow = {
  listing: Omit<typeof gpuListings.$inferSelect, 'marketJson' | 'publicJson'>;
  provider: {
    id: number;
    companyName: string;
    location: string;
    isVerified: boolean;
    reputation: string;
    userId: string | null;
    isSandbox: boolean;
  };
  /** demo: the in-process demo host; none: no host yet; online / not_ready / offline: its host. */
  hostStatus: ListingHostStatus;
  /** Its host's readiness verdict (docs/decisions/021); null when there is none. */
  hostReadiness?: HostReadiness | null;
  /** What its host reported of its machine (gpu-share.ts); null without one. */
  hostMachine?: HostMachineRow | null;
  /** Its reliability as JSON (listingColumns); absent: none measured. */
  reliabilityJson?: string;
};

/** Providers in the public marketplace (demo visitors' sandbox providers are not). */
const publicProviders = sql`(select ${providers.id} from ${providers} where not ${providers.isSandbox})`;

const holdsUnit = inArray(instances.status, UNIT_HOLDING_STATES);

/**
 * Listings on offer to a viewer (joined with their provider): not removed, available or
 * rented, public or the viewer's own sandbox; `model` narrows to one GPU type.
 */
export function offeredTo(viewerSandboxId: number | undefined, model?: string) {
  return and(
    isNull(gpuListings.removedAt),
    inArray(gpuListings.status, ['available', 'rented']),
    viewerSandboxId === undefined
      ? eq(providers.isSandbox, false)
      : or(eq(providers.isSandbox, false), eq(providers.id, viewerSandboxId)),
    model === undefined ? undefined : eq(gpuListings.model, model),
  );
}

/** The order a new instance tries listings in: cheapest, then a provider's host before the demo host. */
export const OFFER_ORDER = [
  asc(gpuListings.hourlyRateMicros),
  asc(sql`${gpuListings.hostId} is null`),
  asc(gpuListings.id),
] as const;

export const listingsRepo = {
  /**
   * One page in a stable order (sort key, then id), read after a keyset cursor, as JSON text
   * (page-query.ts), with the hosts its listings run on and the next page's position.
   */
  async page(
    conn: Conn,
    filter: ListingFilter,
  ): Promise<{ json: string; hostIds: string[]; next: { value: string; id: number } | null }> {
    const { statement, name, values, choose, valuesWith } = pageQueryOf(filter);
    let pageValues = values;
    if (choose) {
      const chosen = await runSqlArrays<[number]>(conn, choose.text, choose.values);
      if (chosen.length === 0) return { json: '[]', hostIds: [], next: null };
      pageValues = valuesWith(chosen.map(([id]) => id));
    }
    const [row] = await runSqlArrays<PageSqlRow>(conn, statement.text, pageValues, name);
    if (!row) throw new Error('the page statement answered no row');
    const page = pageOfRow(row, filter.limit);
    if (!statement.reliabilitySlots) return page;
    const ids = reliabilitySlotIds(page.json);
    if (ids.length === 0) return page;
    const measured = await runSqlArrays<[number, string]>(
      conn,
      RELIABILITY_STATEMENT.text,
      [ids, filter.now.toISOString()],
      RELIABILITY_STATEMENT.name,
    );
    return { ...page, json: withReliability(page.json, new Map(measured)) };
  },

  /**
   * Listings a VM can be made from (the VM dashboard): not removed, not in maintenance, visible
   * to the viewer (public, or the viewer's own sandbox), cheapest first; `model` narrows to
   * one GPU type, `id` to one listing. At the same price a listing on a provider's host comes
   * before one on the demo host. Says whether a unit can be taken now, what its host reported
   * of its machine (the GPU share, gpu-share.ts) and which images its host holds
   * (heldImagesSql; the caller adds those it can fetch: server/modules/images/catalogue.ts).
   * `rentable` is for the kind named (`kind`), else for any kind; the host's verdict and the
   * listing's GPUs come with it for the kinds it shows (hosts/kind-readiness.ts listingKinds).
   */
  async vmCandidates(
    conn: Conn,
    filter: { model?: string; id?: number; viewerSandboxId?: number; kind?: InstanceKind },
  ) {
    return conn
      .select({
        id: gpuListings.id,
        model: gpuListings.model,
        memoryGb: gpuListings.memoryGb,
        hourlyRateMicros: gpuListings.hourlyRateMicros,
        hostId: gpuListings.hostId,
        isDemoHost: gpuListings.isDemoHost,
        providerName: providers.companyName,
        location: gpuListings.location,
        hostStatus: hostStatusOfListing,
        hostMachine: hostMachineSql,
        rentable: sql<boolean>`(${unitOnSale} and ${hostCanRun(filter.kind ?? null)})`,
        heldImages: heldImagesSql,
        hostGpuIndexes: gpuListings.hostGpuIndexes,
        hostReadiness: hostReadinessOfListing,
      })
      .from(gpuListings)
      .innerJoin(providers, eq(providers.id, gpuListings.providerId))
      .where(
        and(
          offeredTo(filter.viewerSandboxId, filter.model),
          filter.id === undefined ? undefined : eq(gpuListings.id, filter.id),
        ),
      )
      .orderBy(...OFFER_ORDER)
      .limit(1000);
  },

  /**
   * What each named host reported of its machine (gpu-share.ts), and what its listings' kinds
   * are read from (presenter.ts withKinds: its verdict, whether it is online), by host id: one
   * query per page.
   */
  async machinesOf(
    conn: Conn,
    hostIds: string[],
  ): Promise<Map<string, { machine: HostMachineRow | null } & HostKindFacts>> {
    if (hostIds.length === 0) return new Map();
    const rows = await conn
      .select({
        id: hosts.id,
        machine: sql<HostMachineRow | null>`${sql.raw(hostMachineJson('"hosts"."inventory"'))}`,
        readiness: hosts.readiness,
        online: sql<boolean>`(${hosts.removedAt} is null and ${hosts.offlineSince} is null and ${hosts.lastHeartbeatAt} is not null)`,
      })
      .from(hosts)
      .where(inArray(hosts.id, hostIds));
    return new Map(
      rows.map(
        (r) => [r.id, { machine: r.machine, online: r.online, readiness: r.readiness }] as const,
      ),
    );
  },

  /** Each named listing's reliability (reliabilityView) measured at `now`, by listing id. */
  async reliabilityOf(conn: Conn, ids: number[], now: Date) {
    if (ids.length === 0) return new Map<number, ReliabilityView>();
    const rows = await conn
      .select({
        id: gpuListings.id,
        json: sql<string>`${sql.raw(reliabilityJsonSql('gpu_listings', `'${now.toISOString()}'::timestamptz`))}`,
      })
      .from(gpuListings)
      .where(inArray(gpuListings.id, ids));
    return new Map(rows.map((r) => [r.id, JSON.parse(r.json) as ReliabilityView] as const));
  },

  /** The host GPU indexes of each named listing that is on this host. */
  async gpuIndexesOnHost(conn: Conn, hostId: string, ids: number[]) {
    if (ids.length === 0) return new Map<number, number[]>();
    const rows = await conn
      .select({ id: gpuListings.id, indexes: gpuListings.hostGpuIndexes })
      .from(gpuListings)
      .where(and(inArray(gpuListings.id, ids), eq(gpuListings.hostId, hostId)));
    return new Map(rows.map((r) => [r.id, r.indexes] as const));
  },

  /** heldImagesSql of each listing named (the deploy page's candidates). */
  async heldImagesOf(conn: Conn, ids: number[]) {
    if (ids.length === 0) return [];
    return conn
      .select({ id: gpuListings.id, heldImages: heldImagesSql })
      .from(gpuListings)
      .where(inArray(gpuListings.id, ids));
  },

  async findById(conn: Conn, id: number): Promise<ListingRow | null> {
    const rows = await conn
      .select(listingColumns)
      .from(gpuListings)
      .innerJoin(providers, eq(providers.id, gpuListings.providerId))
      .where(and(eq(gpuListings.id, id), isNull(gpuListings.removedAt)))
      .limit(1);
    return rows[0] ?? null;
  },

  /**
   * findById without its reliability (what a launch reads in its transaction: its host, share
   * and price, not its uptime, which is measured over the host's outages on every read), and
   * whether the renter has an SSH key on their account (the launch's NO_SSH_KEY warning),
   * in the same statement: one round trip fewer on every launch. Built once.
   */
  async findForLaunch(
    conn: Conn,
    id: number,
    renterId: string,
  ): Promise<(ListingRow & { renterHasSshKey: boolean }) | null> {
    const rows = await findForLaunchStatement(conn, { id, renterId });
    return rows[0] ?? null;
  },

  /**
   * Takes one unit of a listing for a launch and reads the listing as findForLaunch does, in
   * one statement (one round trip fewer on every launch, issue 43); null when no unit was
   * taken, and the caller reads the listing to say why. The unit's price is the row's own:
   * read and taken at once, it cannot change between the two.
   */
  async reserveForLaunch(
    conn: Conn,
    at: { id: number; renterId: string; providerId?: number; kind: InstanceKind },
  ) {
    const [row] = await reserveForLaunchStatement(conn, {
      id: at.id,
      renterId: at.renterId,
      providerId: at.providerId ?? null,
      kind: at.kind,
    });
    if (!row) return null;
    const { unitHostId, poolLocked: _locked, poolHostGpus, poolHostReadiness, ...found } = row;
    const { listing } = found;
    return {
      found,
      unit: {
        id: listing.id,
        providerId: listing.providerId,
        hostId: unitHostId,
        pool: {
          id: listing.id,
          model: listing.model,
          hostId: listing.hostId,
          isDemoHost: listing.isDemoHost,
          totalCount: listing.totalCount,
          hostGpuIndexes: listing.hostGpuIndexes,
          locked: true,
        } satisfies TakenPool,
        hostGpus: { reported: reportedGpus(poolHostGpus), readiness: poolHostReadiness },
      },
    };
  },

  async lockById(conn: Conn, id: number) {
    const rows = await conn
      .select()
      .from(gpuListings)
      .where(eq(gpuListings.id, id))
      .for('update')
      .limit(1);
    return rows[0] ?? null;
  },

  async insert(conn: Conn, values: typeof gpuListings.$inferInsert) {
    const [row] = await conn.insert(gpuListings).values(values).returning({ id: gpuListings.id });
    if (!row) throw new Error('listing insert returned nothing');
    return row.id;
  },

  async update(conn: Conn, id: number, values: Partial<typeof gpuListings.$inferInsert>) {
    await conn.update(gpuListings).set(values).where(eq(gpuListings.id, id));
  },

  /**
   * Takes one unit whatever the price (a stopped instance starting again at its own rate):
   * its GPU pool, locked (as the reserve answers it), or null when none is free (or its host
   * cannot run the instance's kind now).
   */
  async takeUnit(conn: Conn, id: number, kind: InstanceKind): Promise<TakenPool | null> {
    const [row] = await takeUnitStatement(conn, [id, kind]);
    return row ? takenPool(id, row) : null;
  },

  /** Gives a unit back; a fully rented listing becomes available again. */
  async releaseUnit(conn: Conn, id: number) {
    await releaseUnitStatement(conn, [id]);
  },

  /** Instances of the listing holding a unit (provisioning, starting, running). */
  async countUnitsHeld(conn: Conn, listingId: number): Promise<number> {
    const [row] = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(eq(instances.gpuListingId, listingId), holdsUnit));
    return row?.n ?? 0;
  },

  /** Instances of the listing that still exist (stopped ones included). */
  async countLiveInstances(conn: Conn, listingId: number): Promise<number> {
    const [row] = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(eq(instances.gpuListingId, listingId), isNull(instances.endTime)));
    return row?.n ?? 0;
  },

  async stats(conn: Conn) {
    const [row] = await conn
      .select({
        availableGPUs: sql<number>`coalesce(sum(${sellableUnitsSql}) filter (where ${gpuListings.status} = 'available'), 0)::int`,
        avgRateMicros: sql<
          string | null
        >`round(avg(${gpuListings.hourlyRateMicros}) filter (where ${unitOnSale}))::text`,
        providersOnline: sql<number>`(count(distinct ${gpuListings.providerId}) filter (where ${unitOnSale}))::int`,
      })
      .from(gpuListings)
      .where(
        and(isNull(gpuListings.removedAt), sql`${gpuListings.providerId} in ${publicProviders}`),
      );
    const [active] = await conn
      .select({ n: sql<number>`count(*)::int` })
      .from(instances)
      .where(and(holdsUnit, sql`${instances.providerId} in ${publicProviders}`));
    return {
      availableGPUs: row?.availableGPUs ?? 0,
      avgRateMicros: BigInt(row?.avgRateMicros ?? '0'),
      providersOnline: row?.providersOnline ?? 0,
      activeRentals: active?.n ?? 0,
    };
  },
};

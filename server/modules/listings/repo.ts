import { and, asc, eq, getTableColumns, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { ListingHostStatus } from '../../../shared/contracts/listings';
import { UNIT_HOLDING_STATES } from '../../../shared/rules/instance-lifecycle';
import type { Conn } from '../../db/client';
import { compiledSql, runSqlArrays } from '../../db/compiled';
import { gpuListings, hosts, instances, providers } from '../../db/schema';
import { TAKEN_POOL_SQL, type TakenPool, type TakenPoolRow, takenPool } from './gpu-repo';
import { type HostMachineRow, hostMachineJson, hostMachineSql } from './gpu-share';
import { type ListingFilter, type PageSqlRow, pageOfRow, pageQueryOf } from './page-query';

/**
 * The host a listing's instances are placed on: its enrolled host, or the in-process demo
 * host (server/modules/hosts/demo-host.ts) for seeded demo listings.
 */
const hostOfListing = sql<
  string | null
>`coalesce(${gpuListings.hostId}, case when ${gpuListings.isDemoHost} then 'demo' else null end)`;

/**
 * A unit can be taken only where a machine can run it: a demo listing, or a listing whose
 * host is enrolled, has heartbeated and is not offline (docs/decisions/008), still reports
 * every GPU the listing sells (no gpu_problem, docs/decisions/020), and is ready — the host's
 * verdict (docs/decisions/021) and one of the listing's GPUs among its ready ones.
 */
export const hostCanRun = sql`(case when ${gpuListings.hostId} is null then ${gpuListings.isDemoHost}
  else ${gpuListings.gpuProblem} is null and exists (select 1 from ${hosts} h
    where h.id = ${gpuListings.hostId} and h.removed_at is null
    and h.offline_since is null and h.last_heartbeat_at is not null
    and (h.readiness is null or ((h.readiness->>'ready')::boolean
      and (jsonb_array_length(${gpuListings.hostGpuIndexes}) = 0
        or exists (select 1 from jsonb_array_elements(${gpuListings.hostGpuIndexes}) g(i)
          where (h.readiness->'readyGpus') @> jsonb_build_array(g.i)))))) end)`;

/** The listing's host's readiness verdict (null: the demo host, no host, or not judged yet). */
const hostReadinessOfListing = sql<HostReadiness | null>`(select h.readiness from ${hosts} h
  where h.id = ${gpuListings.hostId})`;

/**
 * The images a listing's host holds, as catalogue names: its last heartbeat's `ready` image
 * statuses (`inventory.images`), and an older agent's template names (`inventory.host.images`,
 * mapped by heldImages in server/modules/images/catalogue.ts). Read as two JSON arrays.
 */
export const heldImagesSql = sql<{ ready: unknown; legacy: unknown } | null>`(select
  jsonb_build_object(
    'ready', jsonb_path_query_array(coalesce(h.inventory->'images', '[]'::jsonb), '$[*] ? (@.state == "ready").name'),
    'legacy', coalesce(h.inventory->'host'->'images', '[]'::jsonb))
  from ${hosts} h where h.id = ${gpuListings.hostId})`;

/**
 * What the marketplace says about where a listing runs: not_ready when its host is online but
 * none of the GPUs it sells can serve a VM (unready_gpus, kept from the host's verdict). The
 * stored page JSON says the same from the listing's host_online (migration 0032's trigger);
 * pages.test.ts compares the two.
 */
export const hostStatusOfListing = sql<ListingHostStatus>`(case
  when ${gpuListings.hostId} is null then (case when ${gpuListings.isDemoHost} then 'demo' else 'none' end)
  when exists (select 1 from ${hosts} h where h.id = ${gpuListings.hostId} and h.removed_at is null
    and h.offline_since is null and h.last_heartbeat_at is not null) then
    (case when ${gpuListings.unreadyGpus} > 0 and ${gpuListings.unreadyGpus} >= ${gpuListings.totalCount}
      then 'not_ready' else 'online' end)
  else 'offline' end)`;

/** Units a renter can get now (shared/rules/gpu-binding.ts sellableUnits), as SQL. */
export const sellableUnitsSql = sql<number>`greatest(${gpuListings.availableCount} - ${gpuListings.unreadyGpus}, 0)`;
/** On sale with a unit free on a GPU its host can serve (its host's state aside). */
const unitOnSale = sql`(${gpuListings.status} = 'available' and ${gpuListings.availableCount} > ${gpuListings.unreadyGpus})`;

/** One unit taken: the last one makes the listing rented. */
const oneUnitFewer = {
  availableCount: sql`${gpuListings.availableCount} - 1`,
  status: sql`case when ${gpuListings.availableCount} - 1 = 0 then 'rented' else ${gpuListings.status} end`,
};
/**
 * A unit can be taken: the listing is available with a unit free on a GPU its host can serve
 * (unready_gpus), not removed, and its host can run it.
 */
const unitFree = sql`(${unitOnSale} and ${gpuListings.removedAt} is null and ${hostCanRun})`;
/** One unit given back (never above the total); a fully rented listing becomes available again. */
const oneUnitMore = {
  availableCount: sql`least(${gpuListings.availableCount} + 1, ${gpuListings.totalCount})`,
  status: sql`case when ${gpuListings.status} = 'rented' then 'available' else ${gpuListings.status} end`,
};

const dialect = new PgDialect();
/** A fragment without values as SQL text, for statements written by hand. */
function sqlText(fragment: SQL): string {
  const query = dialect.sqlToQuery(fragment);
  if (query.params.length > 0) throw new Error(`fragment has values: ${query.sql}`);
  return query.sql;
}

/**
 * Takes one unit at the rate the renter was shown, as SQL text with its values at the given
 * markers ($n): only from an available listing on a host that can run it, of the provider
 * named (when one is), and a sandbox provider's units only for its owner. Returns the
 * listing's id, provider_id, model, location, is_demo_host, host_id (where its instances
 * run) and company_name. Run alone (reserveUnit) or as the first step of a rent's statement
 * (server/modules/instances/repo.ts).
 */
export function reserveUnitSql(at: {
  id: string;
  rate: string;
  providerId: string;
  renterId: string;
}): string {
  return `update gpu_listings set available_count = ${sqlText(oneUnitFewer.availableCount)},
      status = ${sqlText(oneUnitFewer.status)}
    where gpu_listings.id = ${at.id}::int and ${sqlText(unitFree)}
      and gpu_listings.hourly_rate_micros = ${at.rate}::bigint
      and (${at.providerId}::int is null or gpu_listings.provider_id = ${at.providerId}::int)
      and (${at.renterId}::uuid is null or not exists (select 1 from providers p
        where p.id = gpu_listings.provider_id and p.is_sandbox
        and p.user_id is distinct from ${at.renterId}::uuid))
    returning gpu_listings.id, gpu_listings.provider_id, gpu_listings.model, gpu_listings.location,
      gpu_listings.is_demo_host, ${sqlText(hostOfListing)} as host_id,
      (select p.company_name from providers p where p.id = gpu_listings.provider_id) as company_name,
      ${TAKEN_POOL_SQL}`;
}

/**
 * Gives a unit back, as SQL text with the listing's id at `id` and a condition (`when`, a
 * boolean marker) that must hold: run alone (releaseUnit) or inside a settlement's statement.
 */
export function releaseUnitSql(id: string, when = 'true'): string {
  return `update gpu_listings set available_count = ${sqlText(oneUnitMore.availableCount)},
      status = ${sqlText(oneUnitMore.status)}
    where gpu_listings.id = ${id}::int and ${when}`;
}

/** A listing's unit as the reserve answers it (snake_case, as PostgreSQL sends it). */
export interface ReservedUnitRow extends TakenPoolRow {
  id: number;
  provider_id: number;
  model: string;
  location: string;
  is_demo_host: boolean;
  host_id: string | null;
  company_name: string;
}

export const reservedUnit = (row: ReservedUnitRow) => ({
  id: row.id,
  providerId: row.provider_id,
  model: row.model,
  location: row.location,
  isDemoHost: row.is_demo_host,
  hostId: row.host_id,
  companyName: row.company_name,
  /** Its GPU pool, locked: the instance's GPU is chosen from it (gpuBinding.assign). */
  pool: takenPool(row.id, row),
});

/** Built once (server/db/compiled.ts). */
const reserveUnitStatement = compiledSql<ReservedUnitRow>(
  'listings_reserve_unit',
  reserveUnitSql({ id: '$1', rate: '$2', providerId: '$3', renterId: '$4' }),
);

const takeUnitStatement = compiledSql<TakenPoolRow>(
  'listings_take_unit',
  `update gpu_listings set available_count = ${sqlText(oneUnitFewer.availableCount)},
      status = ${sqlText(oneUnitFewer.status)}
    where gpu_listings.id = $1::int and ${sqlText(unitFree)}
    returning ${TAKEN_POOL_SQL}`,
);

const releaseUnitStatement = compiledSql('listings_release_unit', releaseUnitSql('$1'));

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
};

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
    const { statement, name, values } = pageQueryOf(filter);
    const [row] = await runSqlArrays<PageSqlRow>(conn, statement.text, values, name);
    if (!row) throw new Error('the page statement answered no row');
    return pageOfRow(row, filter.limit);
  },

  /**
   * Listings a VM can be made from (the VM dashboard): not removed, not in maintenance, visible
   * to the viewer (public, or the viewer's own sandbox), cheapest first; `model` narrows to
   * one GPU type, `id` to one listing. At the same price a listing on a provider's host comes
   * before one on the demo host. Says whether a unit can be taken now, what its host reported
   * of its machine (the GPU share, gpu-share.ts) and which images its host holds
   * (heldImagesSql; the caller adds those it can fetch: server/modules/images/catalogue.ts).
   */
  async vmCandidates(
    conn: Conn,
    filter: { model?: string; id?: number; viewerSandboxId?: number },
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
        rentable: sql<boolean>`(${unitOnSale} and ${hostCanRun})`,
        heldImages: heldImagesSql,
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

  /** What each named host reported of its machine (gpu-share.ts), by host id. */
  async machinesOf(conn: Conn, hostIds: string[]): Promise<Map<string, HostMachineRow | null>> {
    if (hostIds.length === 0) return new Map();
    const rows = await conn
      .select({
        id: hosts.id,
        machine: sql<HostMachineRow | null>`${sql.raw(hostMachineJson('"hosts"."inventory"'))}`,
      })
      .from(hosts)
      .where(inArray(hosts.id, hostIds));
    return new Map(rows.map((r) => [r.id, r.machine] as const));
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
   * Takes one unit at the quoted rate; null when the listing is not rentable (or its price
   * changed). The count can never go below zero: the WHERE and a CHECK both say so.
   */
  async reserveUnit(
    conn: Conn,
    id: number,
    hourlyRateMicros: bigint,
    providerId?: number,
    renterId?: string,
  ) {
    const [row] = await reserveUnitStatement(conn, [
      id,
      String(hourlyRateMicros),
      providerId ?? null,
      renterId ?? null,
    ]);
    return row ? reservedUnit(row) : null;
  },

  /**
   * Takes one unit whatever the price (a stopped instance starting again at its own rate):
   * its GPU pool, locked (as the reserve answers it), or null when none is free.
   */
  async takeUnit(conn: Conn, id: number): Promise<TakenPool | null> {
    const [row] = await takeUnitStatement(conn, [id]);
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

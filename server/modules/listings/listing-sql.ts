import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { HostReadiness } from '../../../shared/contracts/hosts';
import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import type { ListingHostStatus } from '../../../shared/contracts/listings';
import { compiledSql } from '../../db/compiled';
import { gpuListings, hosts } from '../../db/schema';
import { kindReadySql } from '../hosts/kind-readiness';
import { TAKEN_POOL_SQL, type TakenPoolRow } from './gpu-repo';

/**
 * A listing in SQL: where its instances run and whether that host can run one now, and the
 * taking and giving back of a unit, as fragments for the repo's queries and as text for
 * hand-written statements (a rent's, a settlement's: server/modules/instances/plans/booked-sql.ts).
 */

/**
 * The host a listing's instances are placed on: its enrolled host, or the in-process demo
 * host (server/modules/hosts/demo-host.ts) for seeded demo listings.
 */
export const hostOfListing = sql<
  string | null
>`coalesce(${gpuListings.hostId}, case when ${gpuListings.isDemoHost} then 'demo' else null end)`;

/** A kind as SQL: a literal (the kind is one of INSTANCE_KINDS) or a statement's marker ($n). */
const kindLiteral = (kind: InstanceKind) => sql.raw(`'${kind}'`);

/**
 * A unit can be taken only where a machine can run it: a demo listing (the demo host runs
 * every kind), or a listing whose host is enrolled, has heartbeated and is not offline
 * (docs/decisions/008), still reports every GPU the listing sells (no gpu_problem,
 * docs/decisions/020), and is ready for the kind asked — the kind's verdict and one of the
 * listing's GPUs among the ones that serve it (docs/decisions/021 and 025;
 * server/modules/hosts/kind-readiness.ts). `kind`: a kind, a marker holding one, or null for
 * any kind (whether the listing can be rented at all).
 */
export function hostCanRun(kind: InstanceKind | SQL | null): SQL {
  const ready = (k: SQL) => kindReadySql(sql`h.readiness`, sql`${gpuListings.hostGpuIndexes}`, k);
  const readyFor =
    kind === null
      ? sql`(${ready(kindLiteral('vm'))} or ${ready(kindLiteral('container'))})`
      : ready(typeof kind === 'string' ? kindLiteral(kind) : kind);
  return sql`(case when ${gpuListings.hostId} is null then ${gpuListings.isDemoHost}
  else ${gpuListings.gpuProblem} is null and exists (select 1 from ${hosts} h
    where h.id = ${gpuListings.hostId} and h.removed_at is null
    and h.offline_since is null and h.last_heartbeat_at is not null
    and ${readyFor}) end)`;
}

/**
 * A listing (table alias `alias`) whose host runs `kind` now, as SQL text for the marketplace's
 * page statements (page-query.ts): the demo host runs every kind; a host must be online and its
 * verdict ready for the kind on one of the listing's GPUs (hosts/kind-readiness.ts
 * listingKinds, which shows the same as `kinds`). One condition on the host's row by its key:
 * the default page (no kind) is not touched.
 */
export function listingRunsKindText(alias: string, kind: InstanceKind): string {
  const ready = kindReadySql(
    sql.raw('h.readiness'),
    sql.raw(`${alias}.host_gpu_indexes`),
    kindLiteral(kind),
  );
  return `(case when ${alias}.host_id is null then ${alias}.is_demo_host
    when ${alias}.unready_gpus > 0 and ${alias}.unready_gpus >= ${alias}.total_count then false
    else exists (select 1 from hosts h where h.id = ${alias}.host_id and h.removed_at is null
      and h.offline_since is null and h.last_heartbeat_at is not null and ${sqlText(ready)}) end)`;
}

/** The listing's host's readiness verdict (null: the demo host, no host, or not judged yet). */
export const hostReadinessOfListing = sql<HostReadiness | null>`(select h.readiness from ${hosts} h
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
export const unitOnSale = sql`(${gpuListings.status} = 'available' and ${gpuListings.availableCount} > ${gpuListings.unreadyGpus})`;

/** One unit taken: the last one makes the listing rented. */
export const oneUnitFewer = {
  availableCount: sql`${gpuListings.availableCount} - 1`,
  status: sql`case when ${gpuListings.availableCount} - 1 = 0 then 'rented' else ${gpuListings.status} end`,
};
/**
 * A unit can be taken: the listing is available with a unit free on a GPU its host can serve
 * (unready_gpus), not removed, and its host can run the kind asked (`kind`, a marker).
 */
export const unitFree = (kind: string | SQL) =>
  sql`(${unitOnSale} and ${gpuListings.removedAt} is null and ${hostCanRun(typeof kind === 'string' ? sql.raw(kind) : kind)})`;
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
 * Gives a unit back, as SQL text with the listing's id at `id` and a condition (`when`, a
 * boolean marker) that must hold: run alone (releaseUnit) or inside a settlement's statement.
 */
export function releaseUnitSql(id: string, when = 'true'): string {
  return `update gpu_listings set available_count = ${sqlText(oneUnitMore.availableCount)},
      status = ${sqlText(oneUnitMore.status)}
    where gpu_listings.id = ${id}::int and ${when}`;
}

export const takeUnitStatement = compiledSql<TakenPoolRow>(
  'listings_take_unit',
  `update gpu_listings set available_count = ${sqlText(oneUnitFewer.availableCount)},
      status = ${sqlText(oneUnitFewer.status)}
    where gpu_listings.id = $1::int and ${sqlText(unitFree('$2'))}
    returning ${TAKEN_POOL_SQL}`,
);

export const releaseUnitStatement = compiledSql('listings_release_unit', releaseUnitSql('$1'));

import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import type { ListingSort } from '../../../shared/listing-options';
import { DEMO_GPU_SHARE } from '../../../shared/rules/gpu-share';
import { DEMO_HOST_KINDS } from '../hosts/kind-readiness';
import { shareView } from './gpu-share';
import { listingRunsKindText } from './listing-sql';
import { reliabilityJsonSql, uptimePercentSql } from './reliability-sql';

/**
 * One page of the marketplace as one SQL statement, written once per shape
 * (docs/architecture.md, "Marketplace queries"). Every shape is served by an index of
 * migration 0015:
 *
 * - the public marketplace reads one partial index per sort, holding only the listings it
 *   shows (not removed, available or rented, not a sandbox's), in the sort's order with id
 *   breaking ties; descending sorts order by the negated key, so that a keyset cursor is one
 *   row comparison `(key, id) > (…)` the index starts from, however deep the page;
 * - search text is a case-insensitive substring of the listing's model, location or
 *   provider name, matched on `search_text` (the three, lower-cased, one per line): the
 *   trigram index finds it when it is rare, the sort's index filters it when it is common.
 *   PostgreSQL chooses by its statistics, so shapes with text are planned for their values
 *   (unnamed statements, which choose only the page's ids; the page itself by those ids is
 *   named) and the others once per connection (named); a text asked often is written into a
 *   named statement of its own that chooses the ids in a subquery (`idsFrom`);
 * - a provider's own listings (maintenance included) read the (provider_id, id) index;
 * - a demo visitor's own sandbox listings join their view as a second branch.
 *
 * Each listing leaves the database as JSON text in the shape presentListing (presenter.ts)
 * gives it, or presentPublicListing for the public API (turning 50 rows into objects and back
 * into JSON cost the server three times the rest of the request), joined into one text. The
 * text is stored with the listing (market_json, public_json: migrations 0020 and 0032, written
 * by triggers when the listing, its provider, its status, its counts or its host's state
 * change) and only its GPU share is appended per read: writing the JSON per row on each read
 * was three quarters of the database's work for a page. The keys are not in presentListing's
 * order; the test "presents a page's listings as presentListing does" keeps the two in step.
 */

/** Which listings, in which order, from where, as what: everything that changes the SQL. */
export interface PageShape {
  sort: ListingSort | undefined;
  search: boolean;
  gpuType: boolean;
  after: boolean;
  /** A provider's own listings (`providerId`), rather than the marketplace. */
  provider: boolean;
  /** The viewer's own sandbox provider joins the view. */
  viewerSandbox: boolean;
  limit: number;
  /** market: GpuListingView (the web's and a provider's); public: the public API's GpuListing. */
  view: 'market' | 'public';
  /** Only listings whose host runs this kind now (a literal of the statement: two kinds). */
  kind?: InstanceKind;
  /** Only listings whose instances get this many GPUs (`gpuCount`). */
  gpuCount?: boolean;
  /** Only listings with at least this memory on each GPU (`minVramGb`). */
  minVram?: boolean;
  /** Only listings costing at most this per GPU-hour (`maxGpuRate`, micro-dollars). */
  maxGpuRate?: boolean;
  /** Only listings whose host's uptime is at least `minReliability` percent (never null). */
  minReliability?: boolean;
  /**
   * The listings named by `ids` (chosen by the shape's statement of mode 'ids'), nothing else
   * asked: the second half of a page whose text is a value (pageQueryOf).
   */
  byIds?: boolean;
  /**
   * With `byIds`: the statement (mode 'ids', built with the same parameters) whose ids the
   * page reads, as a subquery of its own, instead of an `ids` value: a page in one statement
   * that still chooses its listings by their narrow index alone (page-statements.ts, a text
   * asked often).
   */
  idsFrom?: string;
  /**
   * Search text and GPU type written into the statement as literals instead of sent as values
   * (their LIKE patterns, lower-cased): only the catalogue's GPU names (catalogueText), so that
   * each gets a statement of its own, planned for its text once per connection.
   */
  literals?: { search?: string; gpuType?: string };
}

/** The values a shape's statement takes, by name. */
export interface PageValues {
  search?: string;
  gpuType?: string;
  providerId?: number;
  viewerSandboxId?: number;
  afterValue?: string;
  afterId?: number;
  /** The time reliability is measured at (ISO text): every statement takes it. */
  now?: string;
  gpuCount?: number;
  minVram?: number;
  maxGpuRate?: string;
  minReliability?: number;
  /** The page's listings, in any order (a shape with `byIds`). */
  ids?: number[];
}

export interface PageStatement {
  text: string;
  /** The names of $1, $2, … in PageValues. */
  params: (keyof PageValues)[];
  /**
   * Whether its listings' reliability is written as slots (RELIABILITY_MARKER) for
   * RELIABILITY_STATEMENT to fill: false for a page statement that measures it (its page is not
   * searched for them) and for a statement that chooses ids only.
   */
  reliabilitySlots: boolean;
}

/** The statement's one row (in array mode). */
export type PageSqlRow = [
  /**
   * The listings in order, one more than the page holds when another page follows, each as
   * JSON (hostUptimePercent left null, a host's gpuShare a slot: presenter.ts fills both),
   * separated by LISTING_SEPARATOR; '' when there are none.
   */
  json: string,
  /** How many listings `json` holds. */
  count: number,
  /** Each listing's sort value and id, in order, separated by spaces: the cursors. */
  cursors: string | null,
  /** The hosts of the listings, a host once per listing (the extra listing's included). */
  hostIds: string[] | null,
];

/**
 * Between two listings in a page's JSON: a comma and a line break, which JSON allows between
 * array elements and which cannot occur inside a listing's JSON (to_json and JSON.stringify
 * escape a line break in a string), so the page's last listing is cut off at the last one.
 */
const LISTING_SEPARATOR = ',\n';

/**
 * A sort's key as the indexes hold it: `key(alias)` is the first ORDER BY expression (id
 * follows); `cursor` the same of the cursor's value ($v); `value` what a cursor carries.
 */
interface SortKey {
  key: (alias: string) => string;
  cursor: (v: string) => string;
  value: string;
}

const SORT_KEYS: Record<ListingSort | 'id', SortKey> = {
  id: { key: (a) => `${a}.id`, cursor: () => '', value: 'l.id::text' },
  'price-asc': {
    key: (a) => `${a}.hourly_rate_micros`,
    cursor: (v) => `${v}::bigint`,
    value: 'l.hourly_rate_micros::text',
  },
  'price-desc': {
    key: (a) => `(- ${a}.hourly_rate_micros)`,
    cursor: (v) => `(- ${v}::bigint)`,
    value: 'l.hourly_rate_micros::text',
  },
  memory: {
    key: (a) => `(- ${a}.memory_gb)`,
    cursor: (v) => `(- ${v}::bigint)`,
    value: 'l.memory_gb::text',
  },
  performance: {
    key: (a) => `(- ${a}.performance_score)`,
    cursor: (v) => `(- ${v}::bigint)`,
    value: 'l.performance_score::text',
  },
  'gpu-price-asc': {
    key: (a) => `${a}.gpu_hour_rate_micros`,
    cursor: (v) => `${v}::bigint`,
    value: 'l.gpu_hour_rate_micros::text',
  },
};

/** hostStatusOfListing (listing-sql.ts) is `demo` or `online`. */
const READY_TO_RUN = `(l.is_demo_host or (l.host_online and not (l.unready_gpus > 0 and l.unready_gpus >= l.total_count)))`;

/** A string as an SQL literal (standard_conforming_strings: only quotes are doubled). */
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * What the marketplace shows, in the words of the partial indexes' predicate, and only where
 * its machines can run now: on the demo host, or on a host that is online (host_online, kept by
 * migration 0032's triggers) and ready for one of its GPUs. A listing without a host, on an
 * offline host or a not-ready one is its provider's to see (their own page), nobody else's.
 */
const MARKETPLACE = `l.removed_at is null and l.status in ('available', 'rented') and not l.is_sandbox
    and ${READY_TO_RUN}`;

/**
 * A listing's GPU share: the demo host's share itself for a demo listing (a constant, written
 * into the statement), null without a host, and for a listing on a host a slot naming the host
 * (`{"of":<host id>}`) that presenter.ts withGpuShares fills in from the host's last report.
 */
const GPU_SHARE_SLOT = `',"gpuShare":' || (case when l.host_id is not null then '{"of":' || to_json(l.host_id)::text || '}'
    when l.is_demo_host and l.demo_machine is not null then '{"demo":' || l.demo_machine::text || '}'
    when l.is_demo_host then ${sqlText(JSON.stringify(shareView(DEMO_GPU_SHARE)))} else 'null' end)`;

/**
 * A listing's kinds (presentListing's `kinds`): both on the demo host, none without a host or
 * when none of its GPUs can serve (its hostStatus `not_ready`), and for a listing on a host a slot naming the host and the listing's GPUs
 * (`{"kindsOf":<host id>,"gpus":[…]}`) that presenter.ts withKinds fills in from the host's
 * verdict (server/modules/hosts/kind-readiness.ts listingKinds).
 */
const KINDS_SLOT = `',"kinds":' || (case when l.host_id is not null and l.unready_gpus > 0 and l.unready_gpus >= l.total_count then '[]'
    when l.host_id is not null then '{"kindsOf":' || to_json(l.host_id)::text || ',"gpus":' || l.host_gpu_indexes::text || '}'
    when l.is_demo_host then ${sqlText(JSON.stringify(DEMO_HOST_KINDS))} else '[]' end)`;

/**
 * Where a statement's listing reliability goes. A statement planned once per connection (named)
 * measures it itself, at its `now` value (reliability-sql.ts: a subplan a row). Any other is
 * planned for its values on every request, and the measurement's subqueries cost more to plan
 * than the rest of the page: it writes a slot, `"reliability":{"reliabilityOf":<listing id>}`,
 * that RELIABILITY_STATEMENT fills (repo.ts page), one more round trip of a named statement.
 */
const RELIABILITY_MARKER = '$reliability';
const RELIABILITY_SLOT_SQL = `'{"reliabilityOf":' || l.id::text || '}'`;

/** microsToDollars (shared/rules/money.ts) of a micro-dollar column: cents, rounded half up. */
const dollarsText = (micros: string) =>
  `'"' || ((${micros} + 5000) / 1000000)::text || '.' || lpad((((${micros} + 5000) / 10000) % 100)::text, 2, '0') || '"'`;

/**
 * What a renter compares (issue 42): GPUs per instance, memory per GPU, the price per GPU-hour,
 * the reliability (RELIABILITY_MARKER, above) and a slot for the machine's disk and versions
 * (`"machineOf":[<gpuCount>,<machine>]`, the machine `{"of":<host id>}` for a listing on a host,
 * the demo machine's JSON for a demo listing, null without either) that presenter.ts
 * withMachines fills in.
 */
const COMPARE_SLOT = `',"gpuCount":' || l.gpu_count::text || ',"gpuMemoryGb":' || l.gpu_memory_gb::text
    || ',"pricePerGpuHour":' || ${dollarsText('l.gpu_hour_rate_micros')}
    || ',"reliability":' || ${RELIABILITY_MARKER}
    || ',"machineOf":[' || l.gpu_count::text || ',' || (case when l.host_id is not null then '{"of":' || to_json(l.host_id)::text || '}'
      when l.is_demo_host and l.demo_machine is not null then l.demo_machine::text else 'null' end) || ']'`;

/**
 * presentListing (presenter.ts): the stored JSON (written by a trigger when the listing, its
 * provider, its status, its counts or its host's state change: migrations 0020 and 0032) and
 * its GPU share.
 */
const MARKET_JSON = `l.market_json || ${GPU_SHARE_SLOT} || ${KINDS_SLOT} || ${COMPARE_SLOT} || '}'`;

/** presentPublicListing (public-api/presenter.ts) of presentListing. */
const PUBLIC_JSON = `l.public_json || ${GPU_SHARE_SLOT} || ${KINDS_SLOT} || ${COMPARE_SLOT} || '}'`;

/**
 * Builds a shape's statement; its text depends on the shape only (its literals included), never
 * on the values. `measuresReliability`: the statement measures its listings' reliability itself
 * (one planned once per connection), else it writes their slots (RELIABILITY_MARKER).
 */
export function pageStatement(
  shape: PageShape,
  measuresReliability = false,
  mode: 'page' | 'ids' = 'page',
  /** The parameters so far, shared with a statement this one's text is built into. */
  params: (keyof PageValues)[] = [],
): PageStatement {
  const $ = (name: keyof PageValues) => {
    const at = params.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    params.push(name);
    return `$${params.length}`;
  };
  const sort = SORT_KEYS[shape.sort ?? 'id'];
  const filters: string[] = [];
  const { literals } = shape;
  // A filter's value is read through a subquery (an InitPlan, run once a statement), which the
  // planner cannot look into: it estimates the filter alike for every value, so the plan made
  // for the values costs what the plan made once does, and PostgreSQL keeps the one made once.
  // Written as plain values, the plan for the values looked cheaper (`l.gpu_count = 1` has its
  // statistics, `$1` only a default), so the named statement was planned again on every request
  // (EXPLAIN: 0.72 ms to plan, 0.54 ms to run; PostgreSQL's CPU a request 690–712 µs, 276–277
  // planned once; issue 43: the filters' shape at 49–59% of the first page). The plan is the
  // same either way: the sort's index walked, the price bound its index condition, the rest
  // filters on the rows it reads (docs/architecture.md).
  const value = (name: keyof PageValues, type: string) => `(select ${$(name)}::${type})`;
  if (shape.gpuCount) filters.push(`l.gpu_count = ${value('gpuCount', 'int')}`);
  if (shape.minVram) filters.push(`l.gpu_memory_gb >= ${value('minVram', 'numeric')}`);
  if (shape.maxGpuRate) filters.push(`l.gpu_hour_rate_micros <= ${value('maxGpuRate', 'bigint')}`);
  if (shape.minReliability) {
    filters.push(
      `${uptimePercentSql('l', `${$('now')}::timestamptz`)} >= ${value('minReliability', 'numeric')}`,
    );
  }
  if (shape.search) {
    const text = literals?.search === undefined ? $('search') : sqlText(literals.search);
    filters.push(`l.search_text like lower(${text})`);
  }
  if (shape.gpuType) {
    const text = literals?.gpuType === undefined ? $('gpuType') : sqlText(literals.gpuType);
    filters.push(`l.model ilike ${text}`);
  }
  if (shape.kind) filters.push(listingRunsKindText('l', shape.kind));
  if (shape.after) {
    filters.push(
      shape.sort === undefined
        ? `l.id > ${$('afterId')}::bigint`
        : `(${sort.key('l')}, l.id) > (${sort.cursor($('afterValue'))}, ${$('afterId')}::bigint)`,
    );
  }
  const take = shape.limit + 1;
  const order = shape.sort === undefined ? 'l.id' : `${sort.key('l')}, l.id`;
  const json = (shape.view === 'market' ? MARKET_JSON : PUBLIC_JSON).replace(
    RELIABILITY_MARKER,
    () =>
      measuresReliability
        ? reliabilityJsonSql('l', `${$('now')}::timestamptz`)
        : RELIABILITY_SLOT_SQL,
  );
  const columns =
    mode === 'ids'
      ? 'l.id'
      : `${json} as json,
    ${sort.value} as cursor_value, l.id, l.host_id`;
  const branch = (where: string, extra = '') => `select ${columns}${extra}
  from gpu_listings l
  where ${[where, ...filters].join(' and ')}
  order by ${order} limit ${take}`;
  let rows: string;
  if (shape.byIds) {
    // The listings a statement of mode 'ids' chose, in the same order (pageQueryOf).
    rows = branch(
      shape.idsFrom === undefined
        ? `l.id = any(${$('ids')}::int[])`
        : `l.id = any(array(${shape.idsFrom}))`,
    );
  } else if (shape.provider) {
    const visible = shape.viewerSandbox
      ? `(not l.is_sandbox or l.provider_id = ${$('viewerSandboxId')})`
      : 'not l.is_sandbox';
    rows = branch(`l.provider_id = ${$('providerId')} and l.removed_at is null and ${visible}`);
  } else if (shape.viewerSandbox) {
    const own = `l.provider_id = ${$('viewerSandboxId')} and l.removed_at is null and l.status in ('available', 'rented')`;
    const key = `, ${sort.key('l')} as sort_key`;
    rows = `select ${mode === 'ids' ? 'b.id' : 'b.json, b.cursor_value, b.id, b.host_id'}
  from ((${branch(MARKETPLACE, key)}) union all (${branch(own, key)})) b
  order by b.sort_key, b.id limit ${take}`;
  } else rows = branch(MARKETPLACE);
  if (mode === 'ids') return { text: rows, params, reliabilitySlots: false };
  // The aggregates read the rows in the order the subquery's ORDER BY and LIMIT give them (a
  // single stream: a LIMIT is never run in parallel workers), so string_agg needs no ORDER BY
  // of its own, which would sort the page's texts a second time. Numbering the rows to leave
  // the last one out (a window) cost more than the rest of the aggregation: pageOfRow cuts it.
  return {
    text: `select coalesce(string_agg(page.json, ${sqlText(LISTING_SEPARATOR)}), '') as json,
  count(*)::int as count,
  string_agg(page.cursor_value || ' ' || page.id::text, ' ') as cursors,
  array_agg(page.host_id) filter (where page.host_id is not null) as host_ids
from (${rows}) page`,
    params,
    reliabilitySlots: !measuresReliability,
  };
}

/**
 * The page a statement's row holds: its listings as a JSON array (the extra listing, read to
 * know whether another page follows, cut off at the last separator), the distinct hosts
 * named, and the next page's cursor (the page's last listing's sort value and id).
 */
export function pageOfRow(
  [listings, count, cursors, hostIds]: PageSqlRow,
  limit: number,
): { json: string; hostIds: string[]; next: { value: string; id: number } | null } {
  const more = count > limit;
  const json = more ? listings.slice(0, listings.lastIndexOf(LISTING_SEPARATOR)) : listings;
  let next: { value: string; id: number } | null = null;
  if (more && cursors) {
    const parts = cursors.split(' ');
    const value = parts[2 * limit - 2];
    const id = parts[2 * limit - 1];
    if (value !== undefined && id !== undefined) next = { value, id: Number(id) };
  }
  return { json: `[${json}]`, hostIds: hostIds ? [...new Set(hostIds)] : [], next };
}

/**
 * The reliability of a page's listings (its slots `"reliability":{"reliabilityOf":<id>}`), as
 * JSON text by listing id: a second statement, named, so it is planned once per connection. In
 * the page statement it was planned again with every search text (an unnamed statement): its
 * subqueries cost more to plan than the rest of the page (issue 43).
 */
export const RELIABILITY_STATEMENT = {
  name: 'listings_reliability',
  text: `select l.id, ${reliabilityJsonSql('l', '$2::timestamptz')} from gpu_listings l where l.id = any($1::int[])`,
};

/** The listing ids of a page's reliability slots. */
export function reliabilitySlotIds(json: string): number[] {
  return [...json.matchAll(RELIABILITY_SLOT)].map((match) => Number(match[1]));
}

/**
 * A page's JSON with each reliability slot replaced by its listing's reliability (JSON text);
 * a listing missing from `byId` gets none measured. The pattern cannot occur inside a JSON
 * string (a quote there is escaped).
 */
export function withReliability(json: string, byId: ReadonlyMap<number, string>): string {
  return json.replace(
    RELIABILITY_SLOT,
    (_slot, id: string) =>
      `"reliability":${byId.get(Number(id)) ?? '{"uptimePercent":null,"windowDays":30,"observedDays":0}'}`,
  );
}

const RELIABILITY_SLOT = /"reliability":\{"reliabilityOf":(\d+)\}/g;

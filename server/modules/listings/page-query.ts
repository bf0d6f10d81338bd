import type { ListingSort } from '../../../shared/listing-options';
import { DEMO_GPU_SHARE } from '../../../shared/rules/gpu-share';
import { shareView } from './gpu-share';

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
 *   (unnamed statements) and the others once per connection (named);
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
}

/** The values a shape's statement takes, by name. */
export interface PageValues {
  search?: string;
  gpuType?: string;
  providerId?: number;
  viewerSandboxId?: number;
  afterValue?: string;
  afterId?: number;
}

export interface PageStatement {
  text: string;
  /** The names of $1, $2, … in PageValues. */
  params: (keyof PageValues)[];
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
};

/** A string as an SQL literal (standard_conforming_strings: only quotes are doubled). */
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** What the marketplace shows, in the words of the partial indexes' predicate. */
const MARKETPLACE = `l.removed_at is null and l.status in ('available', 'rented') and not l.is_sandbox`;

/**
 * A listing's GPU share: the demo host's share itself for a demo listing (a constant, written
 * into the statement), null without a host, and for a listing on a host a slot naming the host
 * (`{"of":<host id>}`) that presenter.ts withGpuShares fills in from the host's last report.
 */
const GPU_SHARE_SLOT = `',"gpuShare":' || (case when l.host_id is not null then '{"of":' || to_json(l.host_id)::text || '}'
    when l.is_demo_host then ${sqlText(JSON.stringify(shareView(DEMO_GPU_SHARE)))} else 'null' end)`;

/**
 * presentListing (presenter.ts): the stored JSON (written by a trigger when the listing, its
 * provider, its status, its counts or its host's state change: migrations 0020 and 0032) and
 * its GPU share.
 */
const MARKET_JSON = `l.market_json || ${GPU_SHARE_SLOT} || '}'`;

/** presentPublicListing (public-api/presenter.ts) of presentListing. */
const PUBLIC_JSON = `l.public_json || ${GPU_SHARE_SLOT} || '}'`;

/** Builds a shape's statement; its text depends on the shape only, never on the values. */
export function pageStatement(shape: PageShape): PageStatement {
  const params: (keyof PageValues)[] = [];
  const $ = (name: keyof PageValues) => {
    const at = params.indexOf(name);
    if (at >= 0) return `$${at + 1}`;
    params.push(name);
    return `$${params.length}`;
  };
  const sort = SORT_KEYS[shape.sort ?? 'id'];
  const filters: string[] = [];
  if (shape.search) filters.push(`l.search_text like lower(${$('search')})`);
  if (shape.gpuType) filters.push(`l.model ilike ${$('gpuType')}`);
  if (shape.after) {
    filters.push(
      shape.sort === undefined
        ? `l.id > ${$('afterId')}::bigint`
        : `(${sort.key('l')}, l.id) > (${sort.cursor($('afterValue'))}, ${$('afterId')}::bigint)`,
    );
  }
  const take = shape.limit + 1;
  const order = shape.sort === undefined ? 'l.id' : `${sort.key('l')}, l.id`;
  const columns = `${shape.view === 'market' ? MARKET_JSON : PUBLIC_JSON} as json,
    ${sort.value} as cursor_value, l.id, l.host_id`;
  const branch = (where: string, extra = '') => `select ${columns}${extra}
  from gpu_listings l
  where ${[where, ...filters].join(' and ')}
  order by ${order} limit ${take}`;
  let rows: string;
  if (shape.provider) {
    const visible = shape.viewerSandbox
      ? `(not l.is_sandbox or l.provider_id = ${$('viewerSandboxId')})`
      : 'not l.is_sandbox';
    rows = branch(`l.provider_id = ${$('providerId')} and l.removed_at is null and ${visible}`);
  } else if (shape.viewerSandbox) {
    const own = `l.provider_id = ${$('viewerSandboxId')} and l.removed_at is null and l.status in ('available', 'rented')`;
    const key = `, ${sort.key('l')} as sort_key`;
    rows = `select b.json, b.cursor_value, b.id, b.host_id
  from ((${branch(MARKETPLACE, key)}) union all (${branch(own, key)})) b
  order by b.sort_key, b.id limit ${take}`;
  } else rows = branch(MARKETPLACE);
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

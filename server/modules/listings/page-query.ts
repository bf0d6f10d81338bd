import type { ListingSort } from '../../../shared/listing-options';

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
 * The page leaves the database as JSON text, each listing in the shape presentListing
 * (presenter.ts) gives it, or presentPublicListing for the public API: turning 50 rows into
 * objects and back into JSON cost the server three times the rest of the request. The test
 * "presents a page's listings as presentListing does" keeps the two in step.
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

/** The statement's one row. */
export interface PageSqlRow {
  /** The page's listings as a JSON array, hostUptimePercent left null (presenter.ts fills it). */
  json: string;
  /** Whether a listing follows the page. */
  more: boolean;
  /** The last listing's sort value and id: the next page's cursor. */
  last_value: string | null;
  last_id: number | null;
  /** The hosts of the page's listings (market view). */
  host_ids: string[] | null;
}

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

/** What the marketplace shows, in the words of the partial indexes' predicate. */
const MARKETPLACE = `l.removed_at is null and l.status in ('available', 'rented') and not l.is_sandbox`;

/** Micro-dollars as microsToDollars (shared/rules/money.ts) writes them: cents rounded half up. */
const dollars = (micros: string) =>
  `((${micros} + 5000) / 1000000)::text || '.' || lpad((((${micros} + 5000) / 10000) % 100)::text, 2, '0')`;

/** hostStatusOfListing (repo.ts). */
const HOST_STATUS = `(case when l.host_id is null then (case when l.is_demo_host then 'demo' else 'none' end)
    when exists (select 1 from hosts h where h.id = l.host_id and h.removed_at is null
      and h.offline_since is null and h.last_heartbeat_at is not null) then 'online'
    else 'offline' end)`;

/**
 * A JSON object as text, its keys in the order given, written as JSON.stringify writes it.
 * `string`: a text value (quoted and escaped by to_json); `literal`: a number or boolean, as
 * its text; `json`: already JSON text. Null is null. Concatenation costs PostgreSQL a third of
 * json_build_object, which looks up every argument's type again for every row.
 */
function jsonObject(fields: [key: string, kind: 'string' | 'literal' | 'json', sql: string][]) {
  const parts = fields.map(([key, kind, value], i) => {
    const text =
      kind === 'string'
        ? `to_json(${value})::text`
        : kind === 'literal'
          ? `(${value})::text`
          : value;
    return `'${i === 0 ? '{' : ','}"${key}":' || coalesce(${text}, 'null')`;
  });
  return `${parts.join(' || ')} || '}'`;
}

/** presentListing (presenter.ts), key for key. */
const MARKET_JSON = jsonObject([
  ['id', 'literal', 'l.id'],
  ['providerId', 'literal', 'l.provider_id'],
  ['model', 'string', 'l.model'],
  ['memory', 'string', 'l.memory'],
  ['cudaCores', 'literal', 'l.cuda_cores'],
  ['tensorCores', 'literal', 'l.tensor_cores'],
  ['location', 'string', 'l.location'],
  ['bandwidth', 'string', 'l.bandwidth'],
  ['hourlyRate', 'string', dollars('l.hourly_rate_micros')],
  ['dailyRate', 'string', dollars('l.hourly_rate_micros * 24')],
  ['status', 'string', 'l.status'],
  ['availableCount', 'literal', 'l.available_count'],
  ['totalCount', 'literal', 'l.total_count'],
  [
    'specifications',
    'string',
    `(jsonb_build_object('bandwidth', l.bandwidth) || l.specifications)::text`,
  ],
  ['isDemoHost', 'literal', 'l.is_demo_host'],
  ['hostStatus', 'string', HOST_STATUS],
  ['hostId', 'string', 'l.host_id'],
  // Filled in by withHostUptime (presenter.ts), which finds it right after hostId.
  ['hostUptimePercent', 'json', 'null'],
  [
    'provider',
    'json',
    jsonObject([
      ['id', 'literal', 'p.id'],
      ['companyName', 'string', 'p.company_name'],
      ['location', 'string', 'p.location'],
      ['isVerified', 'literal', 'p.is_verified'],
      ['reputation', 'string', 'p.reputation::text'],
    ]),
  ],
]);

/** presentPublicListing (public-api/presenter.ts) of presentListing. */
const PUBLIC_JSON = jsonObject([
  ['id', 'literal', 'l.id'],
  ['model', 'string', 'l.model'],
  ['memory', 'string', 'l.memory'],
  ['cudaCores', 'literal', 'l.cuda_cores'],
  ['location', 'string', 'l.location'],
  ['hourlyRate', 'string', dollars('l.hourly_rate_micros')],
  ['dailyRate', 'string', dollars('l.hourly_rate_micros * 24')],
  ['availableCount', 'literal', 'l.available_count'],
  [
    'provider',
    'json',
    jsonObject([
      ['name', 'string', 'p.company_name'],
      ['reputation', 'string', 'p.reputation::text'],
    ]),
  ],
]);

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
  const branch = (where: string) => `(select ${sort.key('l')} as sort_key, l.id, l.host_id,
    ${sort.value} as cursor_value, ${shape.view === 'market' ? MARKET_JSON : PUBLIC_JSON} as j
  from gpu_listings l join providers p on p.id = l.provider_id
  where ${[where, ...filters].join(' and ')}
  order by ${order} limit ${take})`;

  let rows: string;
  if (shape.provider) {
    const visible = shape.viewerSandbox
      ? `(not l.is_sandbox or l.provider_id = ${$('viewerSandboxId')})`
      : 'not l.is_sandbox';
    rows = branch(`l.provider_id = ${$('providerId')} and l.removed_at is null and ${visible}`);
  } else if (shape.viewerSandbox) {
    const own = `l.provider_id = ${$('viewerSandboxId')} and l.removed_at is null and l.status in ('available', 'rented')`;
    rows = `(${branch(MARKETPLACE)} union all ${branch(own)})`;
  } else rows = branch(MARKETPLACE);
  const n = shape.limit;
  return {
    text: `select '[' || coalesce(string_agg(page.j, ',' order by page.n) filter (where page.n <= ${n}), '') || ']' as json,
  count(*) > ${n} as more,
  max(page.cursor_value) filter (where page.n = ${n}) as last_value,
  max(page.id) filter (where page.n = ${n}) as last_id,
  array_agg(distinct page.host_id) filter (where page.n <= ${n} and page.host_id is not null) as host_ids
from (select b.*, row_number() over (order by b.sort_key, b.id) as n from ${rows} b) page`,
    params,
  };
}

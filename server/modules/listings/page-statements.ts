import type { InstanceKind } from '../../../shared/contracts/instance-kind';
import { LISTABLE_MODELS } from '../../../shared/gpu-models';
import { GPU_TYPE_FILTERS, type ListingSort } from '../../../shared/listing-options';
import { type PageShape, type PageStatement, type PageValues, pageStatement } from './page-query';

/**
 * Which statement a page of the marketplace takes (docs/architecture.md, "Marketplace
 * queries"): the shape of what was asked, its statement built once (page-query.ts writes the
 * SQL), named or not, and the values in order. A search text that is a value is two
 * statements: one planned for the text that chooses the page's ids, and one named that writes
 * the page by those ids. A text asked often (askedOften) is written into a named statement of
 * its own that does both: one round trip, planned once per connection.
 */

/** What a page of listings is asked for (server/modules/listings/repo.ts `page`). */
export interface ListingFilter {
  search?: string;
  gpuType?: string;
  providerId?: number;
  /** The viewer's own sandbox provider, whose listings only that viewer sees. */
  viewerSandboxId?: number;
  sort?: ListingSort;
  limit: number;
  after?: { value: string; id: number };
  /** market: the marketplace's listing view; public: the public API's. */
  view: PageShape['view'];
  /** Only listings whose host runs this kind of instance now. */
  kind?: InstanceKind;
  /** When reliability is measured. */
  now: Date;
  gpuCount?: number;
  /** GB on each GPU, at least. */
  minVramGb?: number;
  /** Micro-dollars per GPU-hour, at most. */
  maxGpuRateMicros?: bigint;
  /** Uptime percent, at least. */
  minReliability?: number;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The GPU names a search or a GPU type is most often: the marketplace's type filter (which the
 * page also sends as its search text) and the models a listing can be of, lower-cased.
 */
const CATALOGUE_TEXTS = new Set(
  [...GPU_TYPE_FILTERS.slice(1), ...LISTABLE_MODELS].map((text) => text.toLowerCase()),
);

/**
 * Whether a search text or GPU type is a catalogue GPU name, case aside (printable ASCII only, so
 * that lower-casing it here and in PostgreSQL agree).
 */
export function catalogueText(text: string): boolean {
  return /^[\x20-\x7e]+$/.test(text) && CATALOGUE_TEXTS.has(text.toLowerCase());
}

/**
 * Search texts asked often (issue 43): after HOT_AFTER asks a printable-ASCII text of at most
 * HOT_TEXT_CHARS is written into its page's statement like a catalogue name (one statement,
 * named, planned once per connection for that text) instead of being sent as a value (two
 * statements, the first planned for the text on every request). At most NAMED_HOT_SHAPES such
 * statements a process (each a few tens of KB in every backend that runs it); once they are
 * spent, a new text keeps the value path. The counts are forgotten when COUNTED_TEXTS texts
 * have been seen, so one-off searches cannot grow them.
 */
const HOT_AFTER = 3;
const HOT_TEXT_CHARS = 64;
const COUNTED_TEXTS = 1_000;
const NAMED_HOT_SHAPES = 32;
const askedTimes = new Map<string, number>();
let namedHotShapes = 0;

/** Counts an ask of `text` (case aside); true once it has been asked HOT_AFTER times. */
function askedOften(text: string): boolean {
  if (text.length > HOT_TEXT_CHARS || !/^[\x20-\x7e]+$/.test(text)) return false;
  const key = text.toLowerCase();
  const times = (askedTimes.get(key) ?? 0) + 1;
  if (times === 1 && askedTimes.size >= COUNTED_TEXTS) askedTimes.clear();
  askedTimes.set(key, times);
  return times >= HOT_AFTER;
}

/**
 * Statements by shape, built once. A statement whose text holds all its search text and GPU
 * type (none, or catalogue names written as literals) is named, so PostgreSQL plans it once
 * per connection: planning a text shape took longer than running it (0.19 ms against 0.04 ms
 * for a type nobody lists; `pgbench` of the GPU type statement, 8 clients: 4,800 statements a
 * second unnamed, 11,000 named with the text written in). Any other search text stays a value
 * of an unnamed statement, planned for its value every time (a common and a rare text want
 * different plans). At most NAMED_SHAPES shapes without text and NAMED_TEXT_SHAPES with
 * catalogue text are named, so odd limits and filters cannot fill every connection with
 * statements (a named statement holds about 50 KB in each backend).
 */
interface BuiltShape {
  statement: PageStatement;
  name: string | undefined;
  /** A shape whose text is a value: the statement (unnamed) that chooses its listings' ids. */
  choose?: PageStatement;
}
const pageStatements = new Map<string, BuiltShape>();
const NAMED_SHAPES = 64;
const NAMED_TEXT_SHAPES = 64;
const NAMED_ID_SHAPES = 64;
const CACHED_SHAPES = 500;
let namedShapes = 0;
let namedTextShapes = 0;
let namedIdShapes = 0;

/** The page of `shape`'s view, sort and limit by the ids chosen (an `ids` value, or `idsFrom`). */
function byIdsShape(shape: PageShape, idsFrom?: string): PageShape {
  return {
    sort: shape.sort,
    search: false,
    gpuType: false,
    after: false,
    provider: false,
    viewerSandbox: false,
    limit: shape.limit,
    view: shape.view,
    byIds: true,
    ...(idsFrom === undefined ? {} : { idsFrom }),
  };
}

/**
 * The second half of a page whose text is a value: its listings by id, in the sort's order,
 * as JSON with their reliability. Its text depends on the view, the sort and the limit only,
 * so it is named (planned once per connection), at most NAMED_ID_SHAPES of them.
 */
function byIdsStatementOf(shape: PageShape): {
  statement: PageStatement;
  name: string | undefined;
} {
  const key = `ids|${shape.view}|${shape.sort ?? ''}|${shape.limit}`;
  const known = pageStatements.get(key);
  if (known) return known;
  const byIds = byIdsShape(shape);
  const name = namedIdShapes < NAMED_ID_SHAPES ? `listings_page_ids_${namedIdShapes++}` : undefined;
  const built = { statement: pageStatement(byIds, name !== undefined), name };
  if (pageStatements.size < CACHED_SHAPES || name) pageStatements.set(key, built);
  return built;
}

const keyOf = (shape: PageShape) =>
  `${shape.view}|${shape.sort ?? ''}|${shape.search}|${shape.gpuType}|${shape.after}|${shape.provider}|${shape.viewerSandbox}|${shape.limit}|${shape.literals?.search ?? ''}|${shape.literals?.gpuType ?? ''}|${shape.kind ?? ''}|${Boolean(shape.gpuCount)}|${Boolean(shape.minVram)}|${Boolean(shape.maxGpuRate)}|${Boolean(shape.minReliability)}`;

/**
 * The named statement of a shape whose search text is an often-asked text written in, or null
 * when there is none and no more may be made (the caller sends the text as a value).
 */
function hotStatementOf(shape: PageShape): BuiltShape | null {
  const key = keyOf(shape);
  const known = pageStatements.get(key);
  if (known) return known;
  if (namedHotShapes >= NAMED_HOT_SHAPES) return null;
  const name = `listings_page_hot_${namedHotShapes++}`;
  // The ids chosen by a subquery of their own (the narrow statement the value path sends
  // first, an index-only walk or the trigram index as the text wants), the page by those ids:
  // written as one query, PostgreSQL planned a bitmap of the whole rows for `city 1` with H100
  // by price (3 ms) where the ids alone walk the price index (0.4 ms).
  const params: (keyof PageValues)[] = [];
  const choose = pageStatement(shape, false, 'ids', params);
  const byIds = byIdsShape(shape, choose.text);
  const built = { statement: pageStatement(byIds, true, 'page', params), name };
  pageStatements.set(key, built);
  return built;
}

function statementOf(shape: PageShape): BuiltShape {
  const { literals } = shape;
  const key = keyOf(shape);
  const known = pageStatements.get(key);
  if (known) return known;
  const withText = shape.search || shape.gpuType;
  const valuesFree =
    (!shape.search || literals?.search !== undefined) &&
    (!shape.gpuType || literals?.gpuType !== undefined);
  if (!valuesFree) {
    // Text sent as a value: PostgreSQL plans the statement for it on every request (a common
    // and a rare text want different plans), so that statement only chooses the page's ids
    // (one table, a few conditions: little to plan); the JSON, the hosts and reliability come
    // from a statement planned once per connection (issue 43).
    const built = { ...byIdsStatementOf(shape), choose: pageStatement(shape, false, 'ids') };
    if (pageStatements.size < CACHED_SHAPES) pageStatements.set(key, built);
    return built;
  }
  let name: string | undefined;
  if (!withText && namedShapes < NAMED_SHAPES) name = `listings_page_${namedShapes++}`;
  else if (withText && namedTextShapes < NAMED_TEXT_SHAPES)
    name = `listings_page_text_${namedTextShapes++}`;
  const built = { statement: pageStatement(shape, name !== undefined), name };
  if (pageStatements.size < CACHED_SHAPES || name) pageStatements.set(key, built);
  return built;
}

/**
 * The statement for a page of listings, its name (when it is planned once per connection) and
 * the values of its parameters in order.
 */
export function pageQueryOf(filter: ListingFilter): {
  statement: PageStatement;
  name: string | undefined;
  /** The statement's values (for a page chosen by `choose`, without its ids: `valuesWith`). */
  values: unknown[];
  /**
   * A shape whose text is a value: the statement that chooses the page's listing ids, in
   * order, one more than the page when another follows (none: an empty page). The page
   * statement then takes `valuesWith(ids)`.
   */
  choose?: { text: string; values: unknown[] };
  valuesWith: (ids: number[]) => unknown[];
} {
  const literals: NonNullable<PageShape['literals']> = {};
  const catalogueSearch = filter.search !== undefined && catalogueText(filter.search);
  if (filter.search && catalogueSearch) literals.search = likePattern(filter.search.toLowerCase());
  if (filter.gpuType && catalogueText(filter.gpuType))
    literals.gpuType = likePattern(filter.gpuType.toLowerCase());
  const shapeWith = (written: NonNullable<PageShape['literals']>): PageShape => ({
    sort: filter.sort,
    search: Boolean(filter.search),
    gpuType: Boolean(filter.gpuType),
    after: filter.after !== undefined,
    provider: filter.providerId !== undefined,
    viewerSandbox: filter.viewerSandboxId !== undefined,
    limit: filter.limit,
    view: filter.view,
    // Every key present, undefined where it does not apply: one object shape for every
    // request (conditional spreads made a shape per combination, and every read of them
    // missed V8's inline caches: issue 43's eleventh stop).
    kind: filter.kind || undefined,
    gpuCount: filter.gpuCount !== undefined || undefined,
    minVram: filter.minVramGb !== undefined || undefined,
    maxGpuRate: filter.maxGpuRateMicros !== undefined || undefined,
    minReliability: filter.minReliability !== undefined || undefined,
    literals: written.search !== undefined || written.gpuType !== undefined ? written : undefined,
  });
  // One shape too (a statement reads only the values of its own parameters).
  const values: PageValues = {
    search: filter.search ? likePattern(filter.search) : undefined,
    gpuType: filter.gpuType ? likePattern(filter.gpuType) : undefined,
    providerId: filter.providerId,
    viewerSandboxId: filter.viewerSandboxId,
    afterValue: filter.after ? filter.after.value : undefined,
    afterId: filter.after ? filter.after.id : undefined,
    now: filter.now.toISOString(),
    gpuCount: filter.gpuCount,
    minVram: filter.minVramGb,
    maxGpuRate: filter.maxGpuRateMicros !== undefined ? String(filter.maxGpuRateMicros) : undefined,
    minReliability: filter.minReliability,
  };
  // A search text asked often, with every other value of the shape written in as well (a GPU
  // type of the catalogue, or none), is a statement of its own: one round trip, planned once.
  const typeWritten = !filter.gpuType || literals.gpuType !== undefined;
  const hotShape =
    filter.search && !catalogueSearch && typeWritten
      ? shapeWith({ ...literals, search: likePattern(filter.search.toLowerCase()) })
      : null;
  // A statement already made for the text stays its own (the counts may have been forgotten).
  const hot =
    hotShape && filter.search
      ? (pageStatements.get(keyOf(hotShape)) ??
        (askedOften(filter.search) ? hotStatementOf(hotShape) : null))
      : null;
  const { statement, name, choose } = hot ?? statementOf(shapeWith(literals));
  const valuesWith = (ids?: number[]) =>
    statement.params.map((param) => (param === 'ids' ? ids : values[param]));
  return {
    statement,
    name,
    values: valuesWith(),
    ...(choose
      ? { choose: { text: choose.text, values: choose.params.map((p) => values[p]) } }
      : {}),
    valuesWith,
  };
}

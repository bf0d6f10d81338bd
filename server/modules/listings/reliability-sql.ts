/**
 * A listing's reliability (shared/contracts/listings.ts reliabilityView) in SQL, written into
 * the statement that reads the listing (issue 43): its host's uptime over the window, as
 * shared/rules/uptime.ts measures it, and how many days of it were observed.
 *
 * Migration 0040 had this as three SQL functions. A SQL function with a subquery is never
 * inlined, and one called from another is planned again on every call: the marketplace's
 * 50 rows spent 40 µs each there (two thirds of a page's database time at 10,000 listings,
 * 200 ms a page on a cold connection). Written into the statement it is planned with it (once
 * per connection for a named statement) and runs as one subplan per listing shown: only the
 * rows a page returns, after its sort and limit.
 *
 * - The window starts 30 days before `now`, or when the listing's host enrolled (a demo
 *   listing: when it was listed) if later; no start without an enrolled host (reliability
 *   null, 0 days observed), as uptimePercent gives null before enrolment.
 * - Under 3 days observed (RELIABILITY_MIN_OBSERVED_DAYS) the uptime is null.
 * - Down time is the sum of the outages' parts inside the window (a host's outages never
 *   overlap, at most one is open: hosts/outages.ts), for a demo listing its recorded ones
 *   (demo_host_outages); the percent is rounded down to one decimal.
 */

/** The window's start (null without one) and the uptime percent (null), as columns s, up. */
function measured(l: string, now: string): string {
  const anchor = `case when ${l}.host_id is not null then (select h.enrolled_at from hosts h where h.id = ${l}.host_id)
      when ${l}.is_demo_host then ${l}.created_at end`;
  const down = `(select sum(extract(epoch from least(coalesce(o.ended_at, ${now}), ${now}) - greatest(o.started_at, w.s)))
      from (select started_at, ended_at from host_outages where host_id = ${l}.host_id
        union all select started_at, ended_at from demo_host_outages
          where ${l}.host_id is null and ${l}.is_demo_host and listing_id = ${l}.id) o
      where coalesce(o.ended_at, ${now}) > w.s and o.started_at < ${now})`;
  // OFFSET 0 keeps each level a subquery of its own: the host's enrolment is read once, not
  // once for every place the start is used.
  return `select w.s, case when w.s is null or w.s > ${now} - interval '3 days' then null
      else greatest(0, least(100, floor((1 - coalesce(${down}, 0) / extract(epoch from ${now} - w.s)) * 1000 + 0.000001) / 10)) end as up
    from (select case when a.anchor is null then null else greatest(${now} - interval '30 days', a.anchor) end as s
      from (select ${anchor} as anchor offset 0) a offset 0) w`;
}

/**
 * The uptime percent (numeric, null under 3 days observed) of the listing aliased `l`, measured
 * at `now` (an SQL timestamptz expression).
 */
export function uptimePercentSql(l: string, now: string): string {
  return `(select m.up from (${measured(l, now)}) m)`;
}

/** reliabilityView as JSON text: {"uptimePercent":…,"windowDays":30,"observedDays":…}. */
export function reliabilityJsonSql(l: string, now: string): string {
  return `(select '{"uptimePercent":' || coalesce(m.up::float8::text, 'null')
    || ',"windowDays":30,"observedDays":'
    || coalesce(greatest(0, floor(extract(epoch from ${now} - m.s) / 8640))::float8 / 10, 0)::text || '}'
    from (${measured(l, now)} offset 0) m)`;
}

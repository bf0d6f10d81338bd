/**
 * Comparing marketplace offers (issue 42, part 1): the ids a compare view holds, and which
 * offer is best on each of its rows. Pure, so the marketplace's compare toggle, the compare
 * page and their tests share one rule.
 */

/** A compare view holds two to four listings. */
export const MIN_COMPARED = 2;
export const MAX_COMPARED = 4;

/**
 * The listing ids of a compare address (`?ids=3,7,12`): whole positive numbers, each once, in
 * the order given, at most MAX_COMPARED. Anything else in the list is dropped.
 */
export function parseCompareIds(text: string | null | undefined): number[] {
  const ids: number[] = [];
  for (const part of (text ?? '').split(',')) {
    const trimmed = part.trim();
    if (!/^\d{1,9}$/.test(trimmed)) continue;
    const id = Number(trimmed);
    if (id < 1 || ids.includes(id)) continue;
    ids.push(id);
    if (ids.length === MAX_COMPARED) break;
  }
  return ids;
}

/**
 * The picked ids after a compare toggle: an id already picked is dropped; a new one is added
 * unless MAX_COMPARED are picked already (then the list is returned as it was).
 */
export function toggleCompared(ids: readonly number[], id: number): number[] {
  if (ids.includes(id)) return ids.filter((picked) => picked !== id);
  if (ids.length >= MAX_COMPARED) return [...ids];
  return [...ids, id];
}

/** Whether a row's best value is its lowest (prices) or its highest (memory, reliability). */
export type Better = 'lower' | 'higher';

/**
 * The positions of the best values of one compare row: the lowest or highest of those known
 * (null: not known, never best), every position that ties with it. None when fewer than two
 * are known or all known values are equal: there is nothing to choose between on that row.
 */
export function bestPositions(values: readonly (number | null)[], better: Better): number[] {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (known.length < 2) return [];
  const best = better === 'lower' ? Math.min(...known) : Math.max(...known);
  if (known.every((v) => v === best)) return [];
  return values.flatMap((v, i) => (v === best ? [i] : []));
}

/**
 * What one GPU-hour of a listing costs: its hourly rate over the GPUs one rental of it gets,
 * rounded to the cent's tenth (three decimals), as dollars.
 */
export function pricePerGpuHour(hourlyRate: number, gpus: number): number {
  const count = Math.max(1, Math.floor(gpus));
  return Math.round((hourlyRate / count) * 1000) / 1000;
}

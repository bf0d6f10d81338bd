import { marketplaceModelOf, modelWithMemory } from '../gpu-names';

/**
 * A listing sells GPUs its host reported (docs/decisions/020): the rules that bind a listing's
 * units to the host's GPUs, find a free one for an instance, and say why a listing lost one.
 */

/** A GPU as the host's last heartbeat reported it (nvidia-smi `index` and `name`). */
export interface ReportedGpu {
  index: number;
  name: string;
}

/** Another listing on the same host and the GPU indexes it sells. */
export interface ListedGpus {
  model: string;
  hostGpuIndexes: readonly number[];
}

/** What a refusal says the host has, for the error's details. */
export interface HostGpus {
  model: string;
  count: number;
  listed: number;
}

export type Binding =
  | { ok: true; indexes: number[] }
  | { ok: false; field: 'hostId' | 'hostGpuIndexes'; message: string; hostGpus: HostGpus };

/**
 * The host's GPUs of a marketplace model, by index. A card the name table does not know is a
 * model of its own name: only a listing of exactly that name sells it, and the API accepts
 * only the marketplace's models (seeds and tests write such listings directly).
 */
export function gpusOfModel(gpus: readonly ReportedGpu[], model: string): number[] {
  return gpus
    .filter((g) => (marketplaceModelOf(g.name) ?? g.name.trim()) === model)
    .map((g) => g.index)
    .sort((a, b) => a - b);
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** "2 × H100 80GB", "2 × H100 80GB and 1 × RTX 4090 24GB", "no GPUs". */
export function describeHostGpus(gpus: readonly ReportedGpu[]): string {
  const counts = new Map<string, number>();
  for (const gpu of gpus) {
    const model = marketplaceModelOf(gpu.name);
    const label = model ? modelWithMemory(model) : gpu.name;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const parts = [...counts].map(([label, n]) => `${n} × ${label}`);
  if (parts.length === 0) return 'no GPUs';
  return parts.length === 1
    ? (parts[0] ?? '')
    : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The GPU indexes a listing of `units` × `model` sells on a host: `wanted` when given (one per
 * unit, each a GPU of the model that no other listing sells), else the free ones of the model,
 * those it already sells (`keep`) first. Refused with a message that names what the host has.
 */
export function bindListing(input: {
  model: string;
  units: number;
  wanted: readonly number[];
  keep?: readonly number[];
  gpus: readonly ReportedGpu[] | null;
  others: readonly ListedGpus[];
}): Binding {
  const { model, units, wanted } = input;
  const label = modelWithMemory(model);
  const ofModel = gpusOfModel(input.gpus ?? [], model);
  const listed = new Set(
    input.others.filter((o) => o.model === model).flatMap((o) => o.hostGpuIndexes),
  );
  const taken = new Set(input.others.flatMap((o) => o.hostGpuIndexes));
  const listedHere = ofModel.filter((i) => listed.has(i)).length;
  const hostGpus = { model, count: ofModel.length, listed: listedHere };
  const refuse = (field: 'hostId' | 'hostGpuIndexes', message: string): Binding => ({
    ok: false,
    field,
    message,
    hostGpus,
  });
  if (input.gpus === null || input.gpus.length === 0) {
    return refuse(
      'hostId',
      'This host has not reported any GPUs. Start its agent (and check that nvidia-smi works on it), then list its GPUs.',
    );
  }
  const has = `This host has ${describeHostGpus(input.gpus)}`;
  if (ofModel.length === 0) return refuse('hostId', `${has} and no ${label}.`);
  const free = ofModel.filter((i) => !taken.has(i));
  const already = `${listedHere} ${plural(listedHere, 'is', 'are')} already listed`;
  if (wanted.length > 0) {
    if (wanted.length !== units) {
      return refuse(
        'hostGpuIndexes',
        `Choose one GPU per unit: ${units} ${plural(units, 'unit needs', 'units need')} ${units} GPU ${plural(units, 'index', 'indexes')}.`,
      );
    }
    const notModel = wanted.filter((i) => !ofModel.includes(i));
    if (notModel.length > 0) {
      return refuse(
        'hostGpuIndexes',
        `${has}: GPU ${notModel.join(', ')} ${plural(notModel.length, 'is not one', 'are not')} of its ${label} (${ofModel.join(', ')}).`,
      );
    }
    const inUse = wanted.filter((i) => taken.has(i));
    if (inUse.length > 0) {
      return refuse(
        'hostGpuIndexes',
        `GPU ${inUse.join(', ')} ${plural(inUse.length, 'is', 'are')} already listed. ${has}; ${already}.`,
      );
    }
    return { ok: true, indexes: [...wanted] };
  }
  if (units > free.length) {
    return refuse(
      'hostId',
      `${has}; ${already}. This listing can offer at most ${free.length} ${label}.`,
    );
  }
  const keep = (input.keep ?? []).filter((i) => free.includes(i));
  const rest = free.filter((i) => !keep.includes(i));
  return { ok: true, indexes: [...keep, ...rest].slice(0, units).sort((a, b) => a - b) };
}

/**
 * Why a listing cannot be rented on its host any more: GPUs it sells that the host's last
 * heartbeat does not report as its model. Null when all are there.
 */
export function gpuProblem(
  listing: { model: string; hostGpuIndexes: readonly number[] },
  gpus: readonly ReportedGpu[],
): string | null {
  const label = modelWithMemory(listing.model);
  const ofModel = new Set(gpusOfModel(gpus, listing.model));
  if (listing.hostGpuIndexes.length === 0) return 'This listing sells none of its host’s GPUs.';
  const missing = listing.hostGpuIndexes.filter((i) => !ofModel.has(i));
  if (missing.length === 0) return null;
  const gone = missing.filter((i) => !gpus.some((g) => g.index === i));
  const changed = missing.filter((i) => !gone.includes(i));
  const parts: string[] = [];
  if (gone.length > 0) {
    parts.push(
      `GPU ${gone.join(', ')} (${label}) ${plural(gone.length, 'is', 'are')} no longer reported by this host`,
    );
  }
  if (changed.length > 0) {
    parts.push(
      `GPU ${changed.join(', ')} ${plural(changed.length, 'is', 'are')} no longer reported as ${label}`,
    );
  }
  return `${parts.join('; ')}, so this listing cannot be rented. Bring the GPU back or edit the listing.`;
}

/**
 * The lowest GPU an instance may have of those its listing can use now (`usable`: on a host,
 * the listing's GPUs the host still reports as its model, usableGpus) that no live instance
 * (`used`) holds. Null: none free.
 */
export function freeGpu(usable: readonly number[], used: ReadonlySet<number>): number | null {
  const free = usable.filter((i) => !used.has(i)).sort((a, b) => a - b);
  return free[0] ?? null;
}

/**
 * The GPUs a listing sells that its host still reports as the listing's model and, where the
 * host has given its readiness verdict (`readyGpus`, docs/decisions/021), that can serve a VM:
 * a GPU the host says cannot is never handed to a renter.
 */
export function usableGpus(
  listing: { model: string; hostGpuIndexes: readonly number[] },
  gpus: readonly ReportedGpu[],
  readyGpus: readonly number[] | null = null,
): number[] {
  const ofModel = new Set(gpusOfModel(gpus, listing.model));
  const ready = readyGpus === null ? null : new Set(readyGpus);
  return listing.hostGpuIndexes.filter((i) => ofModel.has(i) && (ready === null || ready.has(i)));
}

/**
 * How many of the GPUs a listing sells its host's readiness verdict (docs/decisions/021) says
 * cannot serve a VM: every one when the host itself is not ready, none before a verdict.
 */
export function unreadyGpuCount(
  hostGpuIndexes: readonly number[],
  verdict: { ready: boolean; readyGpus: readonly number[] } | null,
): number {
  if (verdict === null) return 0;
  if (!verdict.ready) return hostGpuIndexes.length;
  const ready = new Set(verdict.readyGpus);
  return hostGpuIndexes.filter((i) => !ready.has(i)).length;
}

/**
 * The units a renter can get now: the free ones less the GPUs its host cannot serve. A unit
 * rented out holds a GPU that was ready when it was given, so the free ready GPUs are the free
 * units less the unready ones (fewer, never more, if a held GPU has since turned unready).
 */
export function sellableUnits(availableCount: number, unreadyGpus: number): number {
  return Math.max(0, availableCount - unreadyGpus);
}

/**
 * A demo listing's GPUs are its units, at most 256. Each size's indexes are made once, frozen
 * (every launch on a demo listing asks for them; server/db/pg-array-values.ts writes a frozen
 * array's text once too).
 */
const DEMO_GPUS_MAX = 256;
const demoIndexesBySize: (readonly number[] | undefined)[] = [];

/**
 * The demo host's GPUs for one demo listing (docs/decisions/020): each demo listing is its
 * own machine whose GPUs are its units, indexes 0…count−1, whatever its model.
 */
export function demoGpuIndexes(count: number): readonly number[] {
  const size = Math.max(0, Math.min(Math.trunc(count) || 0, DEMO_GPUS_MAX));
  let indexes = demoIndexesBySize[size];
  if (!indexes) {
    const made: number[] = [];
    for (let i = 0; i < size; i++) made.push(i);
    indexes = Object.freeze(made);
    demoIndexesBySize[size] = indexes;
  }
  return indexes;
}

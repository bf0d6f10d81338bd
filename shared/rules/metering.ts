/**
 * The metered plan (VMs, instant deploys, API instances without a duration): charged per
 * minute, each minute at its start: storage from create, compute from the moment the
 * instance is ready (docs/decisions/026), each first minute at once. Compute while the
 * instance runs; storage for as long as the instance exists. Each minute's figure is the hourly
 * rate ÷ 60 rounded up to the micro-dollar.
 */
export const STORAGE_MICROS_PER_GB_HOUR = 1_000n; // $0.001 per GB per hour
export const MINUTE_MS = 60_000;
export const MINUTES_PER_HOUR = 60;

const perMinute = (hourly: bigint) =>
  (hourly + BigInt(MINUTES_PER_HOUR - 1)) / BigInt(MINUTES_PER_HOUR);

export function computeMinuteMicros(hourlyRateMicros: bigint): bigint {
  return perMinute(hourlyRateMicros);
}

export function storageMinuteMicros(storageGb: number): bigint {
  return perMinute(BigInt(storageGb) * STORAGE_MICROS_PER_GB_HOUR);
}

/** One minute's charge: storage always, compute only while the instance holds a GPU. */
export function minuteChargeMicros(
  hourlyRateMicros: bigint,
  storageGb: number,
  holdsGpu: boolean,
): { computeMicros: bigint; storageMicros: bigint } {
  return {
    computeMicros: holdsGpu ? computeMinuteMicros(hourlyRateMicros) : 0n,
    storageMicros: storageMinuteMicros(storageGb),
  };
}

/** What starting or creating needs in the wallet: one hour at the instance's running rate. */
export function oneHourMicros(hourlyRateMicros: bigint, storageGb: number): bigint {
  return 60n * (computeMinuteMicros(hourlyRateMicros) + storageMinuteMicros(storageGb));
}

/** The minute number a moment falls in (minutes since the epoch): part of each charge's key. */
export function minuteIndex(at: Date): number {
  return Math.floor(at.getTime() / MINUTE_MS);
}

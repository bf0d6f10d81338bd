/**
 * The metered plan (VMs, instant deploys, API instances without a duration): charged per
 * minute, in advance. Compute only while running; storage for as long as the instance
 * exists. Each minute's figure is the hourly rate ÷ 60 rounded up to the micro-dollar.
 */
export const STORAGE_MICROS_PER_GB_HOUR = 1_000n; // $0.001 per GB per hour (spec part 2 section 9)
export const MINUTE_MS = 60_000;

const perMinute = (hourly: bigint) => (hourly + 59n) / 60n;

export function computeMinuteMicros(hourlyRateMicros: bigint): bigint {
  return perMinute(hourlyRateMicros);
}

export function storageMinuteMicros(storageGb: number): bigint {
  return perMinute(BigInt(storageGb) * STORAGE_MICROS_PER_GB_HOUR);
}

/** One minute's charge: storage always, compute only when the instance runs. */
export function minuteChargeMicros(
  hourlyRateMicros: bigint,
  storageGb: number,
  running: boolean,
): { computeMicros: bigint; storageMicros: bigint } {
  return {
    computeMicros: running ? computeMinuteMicros(hourlyRateMicros) : 0n,
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

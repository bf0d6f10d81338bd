import {
  fitShape,
  type GpuShare,
  shapeBeyondShare,
  shownShare,
} from '../../../../shared/rules/gpu-share';
import { validationFailed } from '../../../lib/errors';

/** What a launch asks of the machine: its shape as asked, and the fields the renter named. */
export interface AskedShape {
  cpus?: number;
  memoryGb?: number;
  askedShape?: { cpus?: number; memoryGb?: number };
}

/**
 * The shape the guest will really have: what was asked (or the template's), fitted to one
 * GPU's share of the listing's host (shared/rules/gpu-share.ts). A field the renter named
 * (`askedShape`) beyond the share is refused, the maximum in the message, before anything is
 * taken or charged. No share known (no host has reported): as asked, capped when it boots.
 */
export function shapeWithinShare(
  input: AskedShape,
  share: GpuShare | null,
): { cpus?: number; memoryGb?: number; memoryMib?: number } {
  const asked = {
    ...(input.cpus !== undefined ? { cpus: input.cpus } : {}),
    ...(input.memoryGb !== undefined ? { memoryGb: input.memoryGb } : {}),
  };
  if (!share) return asked;
  const beyond = shapeBeyondShare(input.askedShape ?? {}, shownShare(share));
  if (Object.keys(beyond).length > 0) {
    throw validationFailed(
      Object.fromEntries(Object.entries(beyond).map(([field, message]) => [field, [message]])),
    );
  }
  const fitted = fitShape(
    { cpus: input.cpus ?? DEFAULT_CPUS, memoryMib: (input.memoryGb ?? DEFAULT_MEMORY_GB) * 1024 },
    share,
  );
  return { ...asked, cpus: fitted.cpus, memoryMib: fitted.memoryMib };
}

/** An instance's shape when nothing names one (the instances table's defaults). */
const DEFAULT_CPUS = 8;
const DEFAULT_MEMORY_GB = 32;

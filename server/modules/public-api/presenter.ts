import type { GpuListingView } from '../../../shared/contracts/listings';
import type { PublicGpuListing, PublicInstance } from '../../../shared/contracts/public-api';
import { computeChargeNote } from '../../../shared/rules/compute-billing';
import { allowedActions, type InstanceState } from '../../../shared/rules/instance-lifecycle';
import { microsToDollars } from '../../../shared/rules/money';
import { shownHostError } from '../../../shared/rules/system-error';
import { hostPresence } from '../instances/host-side/host-presence';
import { deadlinesIn } from '../instances/reads/deadlines-presenter';
import { idleIn } from '../instances/reads/idle-presenter';
import { provisioningStepOf } from '../instances/reads/progress';
import { type InstanceRow, planName, termsOf } from '../instances/service';

/** The documentation's provisioning time: "a rented GPU may take 2-5 minutes". */
export const PROVISIONING_ESTIMATE_MS = 5 * 60_000;

/** The public API's listing shape, from the marketplace's view of a listing. */
export function presentPublicListing(view: GpuListingView): PublicGpuListing {
  return {
    id: view.id,
    model: view.model,
    memory: view.memory,
    cudaCores: view.cudaCores,
    location: view.location,
    hourlyRate: view.hourlyRate,
    dailyRate: view.dailyRate,
    availableCount: view.availableCount,
    provider: { name: view.provider.companyName, reputation: view.provider.reputation },
    gpuShare: view.gpuShare,
    kinds: view.kinds,
    gpuCount: view.gpuCount,
    gpuMemoryGb: view.gpuMemoryGb,
    pricePerGpuHour: view.pricePerGpuHour,
    diskGb: view.diskGb,
    driverVersion: view.driverVersion,
    cudaVersion: view.cudaVersion,
    reliability: view.reliability,
  };
}

/** When the instance is (or was) ready: readyAt once it ran, else its state's start + estimate. */
function estimatedStart(row: InstanceRow['instance']): string | null {
  const state = row.status as InstanceState;
  if (state === 'provisioning' || state === 'starting') {
    return new Date(row.stateChangedAt.getTime() + PROVISIONING_ESTIMATE_MS).toISOString();
  }
  if (state === 'running') return (row.readyAt ?? row.stateChangedAt).toISOString();
  return null;
}

/** An instance of either plan in the public API's words (shared/contracts/public-api.ts). */
export function presentPublicInstance({ instance, listing }: InstanceRow): PublicInstance {
  const state = instance.status as InstanceState;
  const host = hostPresence(instance);
  return {
    id: instance.id,
    status: state,
    sshHost: instance.sshHost,
    sshPort: instance.sshPort,
    sshUsername: instance.sshUsername,
    estimatedStartTime: estimatedStart(instance),
    gpuListingId: instance.gpuListingId,
    gpuModel: listing.model,
    location: listing.location,
    kind: instance.kind,
    image: instance.containerImage,
    imageDigest: instance.imageDigest,
    billingPlan: planName(instance),
    hourlyRate: microsToDollars(instance.hourlyRateMicros),
    durationHours: instance.durationHours,
    createdAt: instance.startTime.toISOString(),
    endsAt: instance.endsAt?.toISOString() ?? null,
    endedAt: instance.endTime?.toISOString() ?? null,
    actions: [...allowedActions(state)],
    provisioningStep: provisioningStepOf(instance),
    failureReason: state === 'failed' ? shownHostError(instance.hostError) : null,
    sshHostKeyFingerprint: instance.sshHostKeyFingerprint,
    sshHostKey: instance.sshHostKey,
    ...deadlinesIn(instance, 'stopAt', 'terminateAt'),
    ...idleIn(instance, ['idleStopMinutes', 'idleThresholdPercent', 'idleStopAt', 'idleWarnedAt']),
    computeChargeNote: computeChargeNote(instance),
    hostStatus: host.status,
    hostOfflineSince: host.offlineSince?.toISOString() ?? null,
  };
}

/** What an instance has cost so far, in micro-dollars (a booked one: booking and storage less its refund). */
export function instanceCostMicros(instance: InstanceRow['instance']): bigint {
  return termsOf(instance).costSoFarMicros(instance);
}

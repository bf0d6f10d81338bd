import type { VmStatus } from '../../../../shared/contracts/kvm';
import type { RentalStatus, RentalView } from '../../../../shared/contracts/rentals';
import { computeChargeNote } from '../../../../shared/rules/compute-billing';
import {
  allowedActions,
  ENDED_STATES,
  type InstanceAction,
  type InstanceState,
} from '../../../../shared/rules/instance-lifecycle';
import { microsToDollars } from '../../../../shared/rules/money';
import type { Instance } from '../../../db/schema';
import { planName } from '../plans';
import type { InstanceRow } from '../repo-rows';
import { provisioningStepOf } from './progress';

const ended = (instance: Instance) => ENDED_STATES.includes(instance.status as InstanceState);

/**
 * A rental in the marketplace's words (shared/contracts/rentals.ts): active while it exists; at the end completed when
 * its instance was ready, cancelled (fully refunded) when it never was.
 */
export function rentalStatus(instance: Instance): RentalStatus {
  if (!ended(instance)) return 'active';
  return instance.readyAt ? 'completed' : 'cancelled';
}

/** The web console's page of an instance, of either plan (web/app/routes/vm-console.tsx). */
export const webConsolePath = (id: number) => `/vm-dashboard/console/${id}`;

/**
 * Whether the web console can be offered now: running, its SSH address reported and a
 * console key of the platform's on it (every instance opened since rentals had one).
 */
const hasWebConsole = (instance: Instance) =>
  instance.status === 'running' &&
  instance.sshHost !== null &&
  instance.sshPort !== null &&
  instance.platformSshPublicKey !== null;

export function presentRental({ instance, listing, provider }: InstanceRow): RentalView {
  const money = (v: bigint | null) => (v === null ? null : microsToDollars(v));
  const status = rentalStatus(instance);
  return {
    id: instance.id,
    gpuListingId: instance.gpuListingId,
    providerId: instance.providerId,
    durationHours: instance.durationHours ?? 0,
    hourlyRate: microsToDollars(instance.hourlyRateMicros),
    totalCost: microsToDollars(instance.bookedCostMicros),
    storageFee: microsToDollars(instance.storageFeeMicros),
    status,
    phase: status !== 'active' ? 'ended' : instance.readyAt ? 'ready' : 'provisioning',
    computeChargeNote: status === 'active' ? computeChargeNote(instance) : null,
    state: instance.status as InstanceState,
    provisioningStep: provisioningStepOf(instance),
    startTime: instance.startTime.toISOString(),
    endsAt: (instance.endsAt ?? instance.startTime).toISOString(),
    endTime: instance.endTime?.toISOString() ?? null,
    readyAt: instance.readyAt?.toISOString() ?? null,
    provisioningDeadline: instance.provisioningDeadline.toISOString(),
    sshHost: instance.sshHost,
    sshPort: instance.sshPort,
    sshUsername: instance.sshUsername,
    sshHostKeyFingerprint: instance.sshHostKeyFingerprint,
    webConsole: hasWebConsole(instance) ? webConsolePath(instance.id) : null,
    usedCost: money(instance.usedCostMicros),
    refund: money(instance.refundMicros),
    providerEarnings:
      instance.usedCostMicros === null
        ? null
        : microsToDollars(instance.usedCostMicros - (instance.platformFeeMicros ?? 0n)),
    billingPlan: planName(instance),
    earnings: null,
    settledBy: instance.endReason,
    isDemoHost: listing.isDemoHost,
    gpuListing: { model: listing.model, location: listing.location },
    provider: { companyName: provider.companyName },
  };
}

/**
 * A VM's status in the VM dashboard's words (shared/contracts/kvm.ts): provisioning is
 * the dashboard's creating; every other state is itself — a stopping VM is not yet stopped, nor a starting
 * one creating (docs/decisions/018).
 */
export function vmStatus(instance: Instance): VmStatus {
  const state = instance.status as InstanceState;
  return state === 'provisioning' ? 'creating' : state;
}

/** A metered instance as the service API shows it (the HTTP surfaces come later). */
export function presentMetered({ instance, listing }: InstanceRow) {
  return {
    id: instance.id,
    source: instance.source,
    template: instance.template,
    status: vmStatus(instance),
    state: instance.status as InstanceState,
    actions: [...allowedActions(instance.status as InstanceState)] as InstanceAction[],
    generation: instance.generation,
    gpuModel: listing.model,
    location: listing.location,
    hourlyRate: microsToDollars(instance.hourlyRateMicros),
    storageGb: instance.storageGb,
    charged: microsToDollars(instance.chargedMicros),
    sshHost: instance.sshHost,
    sshPort: instance.sshPort,
    sshUsername: instance.sshUsername,
    vncAddress: instance.vncAddress,
    createdAt: instance.startTime.toISOString(),
    endedAt: instance.endTime?.toISOString() ?? null,
    endReason: instance.endReason,
  };
}

/** What a provider's earnings account took for one instance, by the ledger (micro-dollars). */
export interface InstanceEarnings {
  computeMicros: bigint;
  outageCreditMicros: bigint;
}

/** One of a provider's instances, either plan, with its earnings from the ledger. */
export function presentProviderInstance(row: InstanceRow, earned: InstanceEarnings): RentalView {
  const total = earned.computeMicros + earned.outageCreditMicros;
  return {
    ...presentRental(row),
    // The console is its renter's alone (docs/rules.md, "Access"): no link on a provider's list.
    webConsole: null,
    providerEarnings: microsToDollars(total),
    earnings: {
      compute: microsToDollars(earned.computeMicros),
      outageCredits: microsToDollars(earned.outageCreditMicros),
      total: microsToDollars(total),
    },
  };
}

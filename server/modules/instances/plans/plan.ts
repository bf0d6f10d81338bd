import type { InstanceInvoice } from '../../../../shared/contracts/public-api-account';
import type { CreateRentalInput } from '../../../../shared/contracts/rentals';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import type { Tx } from '../../../db/client';
import type { Instance, InstanceRow } from '../repo-rows';
import type { CreateMeteredInput, EndReason, RentOptions } from '../types';

/** The billing plans (docs/decisions/007, 016); `instances.billing_plan` holds one of these. */
export const PLAN_NAMES = ['booked', 'metered'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** How an instance ends: when, why (stored as its end reason) and in which state. */
export interface Ending {
  at: Date;
  by: EndReason;
  to: InstanceState;
}

/** What a launch asks a plan to open: the plan's own terms, named by `plan`. */
export type Terms =
  | ({ plan: 'booked' } & CreateRentalInput)
  | ({ plan: 'metered' } & CreateMeteredInput);

/**
 * One way of paying for an instance. The instance commands (commands/) lock the row, ask
 * the lifecycle rule and the policy, and then act through the instance's plan, found as
 * `plans[instance.billingPlan]`; nothing outside plans/ asks which plan it is.
 */
export interface BillingPlan {
  readonly name: PlanName;
  /**
   * Opens an instance: a unit taken, the instance inserted and the first money moved, in one
   * transaction (`options.record` runs last in it). Throws the reason when it cannot.
   */
  open(userId: string, terms: Terms, now: Date, options?: RentOptions): Promise<InstanceRow>;
  /** Starts a stopped instance again (its row locked by the caller). */
  start(tx: Tx, instance: Instance, now: Date): Promise<Instance>;
  /**
   * It has just become ready (moved to running by its host's report, row locked): booked, its
   * hours begin now; metered, its first compute minute is charged now (issue 39: compute is
   * billed from ready). Returns the instance afterwards (a metered one its wallet or caps
   * cannot pay is stopped at once).
   */
  ready(tx: Tx, instance: Instance, now: Date): Promise<Instance>;
  /**
   * A renter's stop (row locked): booked, the rental ends with its settlement and a second
   * stop changes nothing; metered, compute stops being charged and the disk stays.
   */
  stop(tx: Tx, instance: Instance, now: Date, by: EndReason): Promise<Instance>;
  /** Ends the instance for good (row locked), with what its plan gives back. */
  end(tx: Tx, instance: Instance, how: Ending): Promise<Instance>;
  /** Worker: charges what has come due (booked: hours that ran out; metered: the next minute). */
  chargeDue(now: Date, batch: number): Promise<number>;
}

/** An invoice line before its amount is rounded to the cent (public-api/billing.ts). */
export type DraftLine = Omit<InstanceInvoice['lines'][number], 'amount'> & {
  amountMicros: bigint;
};

/** One stretch of an instance's host being unreachable (instance_outages). */
export interface OutageSpan {
  startedAt: Date;
  endedAt: Date | null;
  minutesNotCharged: number;
}

/** What an instance's owner has paid, split as the public API's usage shows it. */
export interface Charges {
  computeMicros: bigint;
  storageMicros: bigint;
}

/** A plan's money in words: pure, for presenters (the public API's usage and invoices). */
export interface PlanTerms {
  readonly name: PlanName;
  /** What the instance has cost so far (a booked one: booking and storage less its refund). */
  costSoFarMicros(instance: Instance): bigint;
  /** Seconds of compute billed. */
  billedSeconds(instance: Instance): number;
  /** Its charges split into compute and storage, from its ledger sums by posting kind. */
  charges(instance: Instance, sumOf: (kind: string) => bigint): Charges;
  /**
   * Minutes not charged because its host was unreachable (docs/decisions/022), from its
   * outages: metered, the minutes the minute job let pass; booked, the unreachable time up to
   * its end (refunded at settlement), in whole minutes.
   */
  minutesNotCharged(instance: Instance, outages: readonly OutageSpan[], now: Date): number;
  /**
   * The invoice lines of its own money (refunds included; outage credits are added after),
   * each with its exact amount: the invoice rounds them to cents that add up to its total.
   */
  invoiceLines(row: InstanceRow, money: Charges & { unusedRefundMicros: bigint }): DraftLine[];
}

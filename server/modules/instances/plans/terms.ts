import type { InstanceInvoice } from '../../../../shared/contracts/public-api-account';
import type { Instance, InstanceRow } from '../repo-rows';

/**
 * The pure half of a billing plan: its name, what it does and its money in words. Presenters,
 * SQL filters and the ledger's invariants read these (plans/registry.ts) without the plan's
 * commands.
 */

/**
 * A billing plan's name, as `instances.billing_plan` holds it (docs/decisions/007, 016). The
 * plans this server ships are in plans/registry.ts; nothing outside plans/ compares a name:
 * it asks the plan what it does (`PlanCapabilities`).
 */
export type PlanName = string;

/**
 * What a plan does, declared by the plan and asked by the core (docs/decisions/016, "As
 * rebuilt"): the commands, jobs, presenters and SQL outside plans/ branch on these, never on
 * a plan's name. A new plan declares its own and passes the plan contract
 * (plans/contract.test.ts).
 */
export interface PlanCapabilities {
  /** Its hours are paid for up front and held in escrow; its end settles them (booked). */
  readonly escrowsUpFront: boolean;
  /**
   * Charged a minute at a time by the minute job (plans/metered-minute.ts): storage from
   * create, compute while it runs, from ready; its outage minutes are let pass unbilled.
   */
  readonly chargesPerMinute: boolean;
  /**
   * A stop keeps its disk and a start runs it again, so "stop at", "terminate at" and idle
   * stop apply to it; without this, a stop ends it (a rental).
   */
  readonly stopKeepsDisk: boolean;
  /** Its GPU may be taken back before its renter ends it: it then ends as `preempted`. */
  readonly preemptible: boolean;
  /** Its readiness moves no money, so the one-statement ready path may take it (repo.markReady). */
  readonly readyMovesNoMoney: boolean;
  /** Where its renter finds it: the marketplace's rentals, or the machines of the VM dashboard. */
  readonly listedAs: 'rental' | 'machine';
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
  /** What it does: the core asks these, never the name. */
  readonly capabilities: PlanCapabilities;
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

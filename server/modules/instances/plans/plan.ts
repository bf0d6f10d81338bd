import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import type { Conn, Tx } from '../../../db/client';
import type { instances } from '../../../db/schema';
import type { listingsService } from '../../listings/service';
import type { Instance } from '../repo-rows';
import type { Deadlines, EndReason, IdleStop } from '../types';
import type { PlanName, PlanTerms } from './terms';

export type {
  Charges,
  DraftLine,
  OutageSpan,
  PlanCapabilities,
  PlanName,
  PlanTerms,
} from './terms';

/** The columns of a new instance row. */
export type NewInstance = typeof instances.$inferInsert;

/** How an instance ends: when, why (stored as its end reason) and in which state. */
export interface Ending {
  at: Date;
  by: EndReason;
  to: InstanceState;
}

/** What a booked launch asks: its hours, at the figures the client showed (else the server's quote). */
export interface HoursAsk {
  hours: number;
  providerId?: number;
  quote?: { hourlyRate: string; totalCost: string };
}

/** What a per-minute launch asks: its disk, deadlines and idle stop (checked by the caller). */
export interface DiskAsk {
  storageGb: number;
  deadlines?: Deadlines;
  idleStop?: IdleStop;
}

/** What a launch asks of a plan: its own terms (the plan reads the ones it knows). */
export type PlanAsk = Partial<HoursAsk> & Partial<DiskAsk>;

/** The listing a launch opens on, as read in its transaction (listingsService.findForLaunch). */
export type OpeningListing = NonNullable<Awaited<ReturnType<typeof listingsService.findForLaunch>>>;

/** What a plan is told of an opening: who, on which listing, at which rate, asking what. */
export interface Opening {
  userId: string;
  found: OpeningListing;
  /** The hourly rate it opens at (`rateOf` the listing's). */
  rateMicros: bigint;
  ask: PlanAsk;
  now: Date;
}

/**
 * One way of paying for an instance. The launch (commands/launch.ts) does the steps every
 * plan shares — the listing read, its host's readiness, a unit taken, the row inserted, its
 * GPU bound — and asks the plan only for its own: its rate, its checks, its columns and its
 * first money. The other commands lock the row, ask the lifecycle rule and the policy, and
 * then act through the instance's plan (`planOf`); what a plan does is asked through its
 * capabilities (`terms.capabilities`), never through its name.
 */
export interface BillingPlan {
  readonly name: PlanName;
  /** Its money in words and what it does (pure). */
  readonly terms: PlanTerms;
  /** The hourly rate an instance opens at, from its listing's (a plan may price it its own way). */
  rateOf(listingRateMicros: bigint): bigint;
  /**
   * Its own checks before anything is taken (booked: the quote the client was shown; per
   * minute: an hour of balance). Throws the reason.
   */
  admit(tx: Tx, opening: Opening): Promise<void>;
  /** Its own columns of the new row (its hours, or its disk, deadlines and paid time). */
  columns(opening: Opening): Partial<NewInstance>;
  /**
   * Its first money, in the launch's transaction, the row inserted and its GPU bound: booked,
   * the hours into escrow and the storage add-on; per minute, the first storage minute. Each
   * counted toward the spend caps (402 rolls the launch back).
   */
  opened(tx: Tx, instance: Instance, opening: Opening): Promise<Instance>;
  /** What a launch answers when the unit it read was taken before it could take it. */
  unitTaken(): Error;
  /** Starts a stopped instance again (its row locked by the caller). */
  start(tx: Tx, instance: Instance, now: Date): Promise<Instance>;
  /**
   * It has just become ready (moved to running by its host's report, row locked): booked, its
   * hours begin now; per minute, its first compute minute is charged now (compute is billed
   * from ready, docs/decisions/026). Returns the instance afterwards (one its wallet or caps
   * cannot pay is stopped at once).
   */
  ready(tx: Tx, instance: Instance, now: Date): Promise<Instance>;
  /**
   * A stop (row locked), by its renter or the system (`by`: a deadline, idle, credits, a cap):
   * booked, the rental ends with its settlement and a second stop changes nothing; per
   * minute, compute stops being charged and the disk stays.
   */
  stop(tx: Tx, instance: Instance, now: Date, by: EndReason): Promise<Instance>;
  /**
   * Optional: the same stop as one statement without a transaction, of an instance read but
   * not locked (a renter's stop: commands/stop.ts), made only while it is still at the
   * generation read. Null, having written nothing, when it cannot be (changed meanwhile, or
   * more than one statement's work): the caller then takes the locked path (`stop`).
   */
  stopAtOnce?(conn: Conn, instance: Instance, now: Date, by: EndReason): Promise<Instance | null>;
  /** Ends the instance for good (row locked), with what its plan gives back. */
  end(tx: Tx, instance: Instance, how: Ending): Promise<Instance>;
  /** Worker: charges what has come due (booked: hours that ran out; per minute: the next minute). */
  chargeDue(now: Date, batch: number): Promise<number>;
}

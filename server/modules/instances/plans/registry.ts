import { bookedTerms } from './booked-terms';
import { meteredTerms } from './metered-terms';
import type { PlanCapabilities, PlanName, PlanTerms } from './terms';

export type { PlanCapabilities } from './terms';

/**
 * The plans' words and capabilities by name (pure: presenters, the ledger's invariants and SQL
 * filters read it). The plans this server ships are here; `defineTerms` adds one more (the
 * plan contract's test-only plan: plans/contract.test.ts), so that a new plan needs no change
 * outside plans/.
 */
const TERMS = new Map<PlanName, PlanTerms>([
  [bookedTerms.name, bookedTerms],
  [meteredTerms.name, meteredTerms],
]);

/** Registers one more plan's terms (a plan beyond the shipped ones). */
export function defineTerms(terms: PlanTerms): void {
  TERMS.set(terms.name, terms);
}

/** Forgets a plan defined beyond the shipped ones (a test's, once it is done). */
export function forgetTerms(name: PlanName): void {
  if (name === bookedTerms.name || name === meteredTerms.name) return;
  TERMS.delete(name);
}

/** Every plan's name known to this process. */
export const planNames = (): PlanName[] => [...TERMS.keys()];

/** A plan's terms by the name a row holds; an unknown name is a bug (a CHECK allows only names). */
export function termsNamed(name: string): PlanTerms {
  const terms = TERMS.get(name);
  if (!terms) throw new Error(`unknown billing plan ${name}`);
  return terms;
}

/**
 * The names of the plans that do something, for a filter in SQL (`billing_plan = any(…)`):
 * the core asks what a plan does, never which plan it is.
 */
export function plansThat(does: (capabilities: PlanCapabilities) => boolean): PlanName[] {
  return [...TERMS.values()].filter((t) => does(t.capabilities)).map((t) => t.name);
}

/**
 * The same names as one PostgreSQL array literal, for a parameter of `= any($n::text[])`
 * (a plan's name is lower-case letters and underscores: the column's CHECK).
 */
export const planArray = (does: (capabilities: PlanCapabilities) => boolean): string =>
  `{${plansThat(does).join(',')}}`;

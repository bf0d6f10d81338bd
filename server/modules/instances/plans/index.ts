import type { InstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import { createBookedPlan } from './booked';
import { bookedTerms } from './booked-terms';
import { createMeteredPlan } from './metered';
import { meteredTerms } from './metered-terms';
import { type BillingPlan, PLAN_NAMES, type PlanName, type PlanTerms } from './plan';

export type { BillingPlan, Ending, PlanName, PlanTerms, Terms } from './plan';
export { PLAN_NAMES } from './plan';

export type Plans = Record<PlanName, BillingPlan>;

/** Every billing plan by its name: a new plan is one more file here (docs/decisions/016). */
export function createPlans(ctx: InstancesContext): Plans {
  return { booked: createBookedPlan(ctx), metered: createMeteredPlan(ctx) };
}

/** The plans' money in words, by name (pure: presenters use it). */
export const PLAN_TERMS: Record<PlanName, PlanTerms> = {
  booked: bookedTerms,
  metered: meteredTerms,
};

/** An instance's plan name, as its column holds it (a CHECK allows only these). */
export function planName(instance: Pick<Instance, 'billingPlan'>): PlanName {
  const name = instance.billingPlan as PlanName;
  if (!PLAN_NAMES.includes(name)) throw new Error(`unknown billing plan ${instance.billingPlan}`);
  return name;
}

/** The plan an instance is billed on: `plans[instance.billingPlan]`. */
export const planOf = (plans: Plans, instance: Pick<Instance, 'billingPlan'>): BillingPlan =>
  plans[planName(instance)];

/** The money in words of an instance's plan. */
export const termsOf = (instance: Pick<Instance, 'billingPlan'>): PlanTerms =>
  PLAN_TERMS[planName(instance)];

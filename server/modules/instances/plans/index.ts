import { type BillingPlanName, billingPlan } from '../../../../shared/contracts/billing-plans';
import type { InstancesContext } from '../context';
import type { Instance } from '../repo-rows';
import { createBookedPlan } from './booked';
import { createMeteredPlan } from './metered';
import type { BillingPlan, PlanName, PlanTerms } from './plan';
import { defineTerms, forgetTerms, termsNamed } from './registry';

export type {
  BillingPlan,
  Ending,
  Opening,
  PlanAsk,
  PlanCapabilities,
  PlanName,
  PlanTerms,
} from './plan';
export { planArray, planNames, plansThat, termsNamed } from './registry';

export type Plans = ReadonlyMap<PlanName, BillingPlan>;

type PlanFactory = (ctx: InstancesContext) => BillingPlan;

/** How each plan is made for a process's instance core: the shipped ones, and any defined. */
const FACTORIES = new Map<PlanName, PlanFactory>([
  ['booked', createBookedPlan],
  ['metered', createMeteredPlan],
]);

/**
 * One more plan, beyond the shipped ones: its terms and how it is made. Used by the plan
 * contract's test-only plan (plans/contract.test.ts) to prove that a plan is added in plans/
 * alone (docs/decisions/016).
 */
export function definePlan(terms: PlanTerms, create: PlanFactory): void {
  defineTerms(terms);
  FACTORIES.set(terms.name, create);
}

/** Forgets a plan `definePlan` added (a test's plan, after its file: the api tests share a process). */
export function forgetPlan(name: PlanName): void {
  if (!FACTORIES.has(name) || name === 'booked' || name === 'metered') return;
  forgetTerms(name);
  FACTORIES.delete(name);
}

/** Every billing plan by its name (docs/decisions/016). */
export function createPlans(ctx: InstancesContext): Plans {
  return new Map([...FACTORIES].map(([name, create]) => [name, create(ctx)]));
}

/** An instance's plan name as the API shows it (shared/contracts/billing-plans.ts). */
export function planName(instance: Pick<Instance, 'billingPlan'>): BillingPlanName {
  const shown = billingPlan.safeParse(termsNamed(instance.billingPlan).name);
  if (!shown.success)
    throw new Error(`billing plan ${instance.billingPlan} is not one the API shows`);
  return shown.data;
}

/** A plan by the name a launch asks for (400-worthy names are refused by the contracts first). */
export function planNamed(plans: Plans, name: PlanName): BillingPlan {
  const plan = plans.get(name);
  if (!plan) throw new Error(`unknown billing plan ${name}`);
  return plan;
}

/** The plan an instance is billed on. */
export const planOf = (plans: Plans, instance: Pick<Instance, 'billingPlan'>): BillingPlan =>
  planNamed(plans, instance.billingPlan);

/** The money in words, and the capabilities, of an instance's plan. */
export const termsOf = (instance: Pick<Instance, 'billingPlan'>): PlanTerms =>
  termsNamed(instance.billingPlan);

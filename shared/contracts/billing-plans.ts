import { z } from 'zod';

/**
 * The billing plans the API shows (docs/decisions/007, 016): one list for every contract. A
 * plan the server adds is one more name here; what each plan does is the server's
 * (server/modules/instances/plans/), never decided from its name by a client.
 */
export const BILLING_PLANS = ['booked', 'metered'] as const;
export type BillingPlanName = (typeof BILLING_PLANS)[number];
export const billingPlan = z.enum(BILLING_PLANS);

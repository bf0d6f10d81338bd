import { z } from 'zod';
import { INSTANCE_STATES } from '../rules/instance-lifecycle';
import { API_KEY_PERMISSIONS, RATE_TIERS, type RateTier } from './api-keys';
import { billingPlan } from './billing-plans';
import { createPaypalOrderBody, paypalOrderResponse } from './payments';

/**
 * The public API's account and billing shapes (/api/v1/account, usage, invoices, credits);
 * the rest of the API's contract is ./public-api.ts.
 */

export const publicAccount = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    balance: z.string().describe('Credit balance in dollars'),
    currency: z.literal('USD'),
    apiKey: z.object({
      id: z.string(),
      permissions: z.array(z.enum(API_KEY_PERMISSIONS)),
      rateTier: z.enum(Object.keys(RATE_TIERS) as [RateTier, ...RateTier[]]),
      requestsPerHour: z.number().int(),
    }),
    paymentsSandbox: z
      .boolean()
      .describe(
        "True when this server's payments run on its built-in PayPal sandbox (no PayPal credentials, not production): POST /account/credits then has no PayPal page to approve (`approvalUrl` null); add credits on the web app's Credits page instead.",
      ),
  })
  .meta({ id: 'Account' });
export type PublicAccount = z.infer<typeof publicAccount>;

const usageLine = z.object({
  instanceId: z.number().int(),
  gpuModel: z.string(),
  billingPlan: billingPlan,
  status: z.enum(INSTANCE_STATES),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Dollars charged for it so far (a booked rental: its booking and storage, less any refund). */
  cost: z.string(),
});
export const accountUsage = z
  .object({
    currency: z.literal('USD'),
    totalCost: z.string(),
    instances: z.array(usageLine),
  })
  .meta({ id: 'Usage' });
export type AccountUsage = z.infer<typeof accountUsage>;

const moneyText = z.string().describe('US dollars, e.g. "1.45"');

/** What one instance has been billed, from its ledger entries. */
const instanceUsage = z
  .object({
    instanceId: z.number().int(),
    gpuModel: z.string(),
    billingPlan: billingPlan,
    status: z.enum(INSTANCE_STATES),
    hourlyRate: moneyText,
    storageGb: z.number().int(),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    /** Metered: minutes billed with the GPU running, and minutes of storage billed. */
    computeMinutes: z.number().int(),
    storageMinutes: z.number().int(),
    billedSeconds: z
      .number()
      .int()
      .describe(
        'Seconds of compute billed: metered, compute minutes × 60; booked, the hours paid up front until it is settled, then the seconds used',
      ),
    computeCharges: moneyText,
    storageCharges: moneyText,
    /** Money back: a rental's unused time, outage credits (a positive amount). */
    refunds: moneyText,
    hostUnreachableMinutes: z
      .number()
      .int()
      .describe(
        'Minutes not charged because its host was unreachable (the invoice\'s "host unreachable — not charged" line): metered, the minutes let pass unbilled; booked, the unreachable time refunded at settlement',
      ),
    /** Charges less refunds: what the instance has cost the wallet. */
    totalCost: moneyText,
    currency: z.literal('USD'),
  })
  .meta({ id: 'InstanceUsage' });
export type InstanceUsage = z.infer<typeof instanceUsage>;
export const instanceUsageAnswer = z.object({ usage: instanceUsage });

const invoiceLine = z.object({
  description: z.string(),
  quantity: z.number(),
  unit: z.enum(['minute', 'hour', 'item']),
  /** Dollars per unit (more decimals than cents for a minute's price). */
  unitPrice: z.string(),
  /** Dollars; negative for refunds and credits. */
  amount: z.string(),
});
const instanceInvoice = z
  .object({
    /** INV-<instance id>: one invoice per instance, updated while it runs. */
    number: z.string(),
    instanceId: z.number().int(),
    issuedAt: z.string(),
    /** final once the instance has ended; draft while it can still be charged. */
    status: z.enum(['draft', 'final']),
    customer: z.object({ email: z.string(), name: z.string().nullable() }),
    periodStart: z.string(),
    periodEnd: z.string().nullable(),
    lines: z.array(invoiceLine),
    total: moneyText,
    currency: z.literal('USD'),
  })
  .meta({ id: 'Invoice' });
export type InstanceInvoice = z.infer<typeof instanceInvoice>;
export const instanceInvoiceAnswer = z.object({ invoice: instanceInvoice });
export const invoiceQuery = z.object({
  format: z
    .enum(['json', 'csv'])
    .optional()
    .describe('csv: the invoice as CSV (also with `Accept: text/csv`)'),
});
/** The CSV form's media type, as declared in the document. */
export const CSV_MEDIA_TYPE = 'text/csv';

/** POST /account/credits: the web app's credit purchase body (a package or a custom amount). */
export const buyCreditsBody = createPaypalOrderBody.meta({ id: 'BuyCredits' });
export const buyCreditsAnswer = z
  .object({
    order: paypalOrderResponse,
    /** Open it in a browser to pay with PayPal; null when the server has no PayPal page. */
    approvalUrl: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: 'CreditsOrder' });
export type BuyCreditsAnswer = z.infer<typeof buyCreditsAnswer>;

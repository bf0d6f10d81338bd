import { z } from 'zod';
import { dollars } from './money';

/** Credit packages: what you pay, and the bonus credits on top. */
export const CREDIT_PACKAGES = [
  { id: 'starter', label: 'Starter', amount: '10.00', bonus: '0.00', popular: false },
  { id: 'basic', label: 'Basic', amount: '25.00', bonus: '2.00', popular: false },
  { id: 'standard', label: 'Standard', amount: '50.00', bonus: '7.00', popular: true },
  { id: 'pro', label: 'Pro', amount: '100.00', bonus: '20.00', popular: false },
  { id: 'enterprise', label: 'Enterprise', amount: '250.00', bonus: '75.00', popular: false },
] as const;

export type CreditPackage = (typeof CREDIT_PACKAGES)[number];
export type CreditPackageId = CreditPackage['id'];
export const PACKAGE_IDS = CREDIT_PACKAGES.map((p) => p.id) as [
  CreditPackageId,
  ...CreditPackageId[],
];
export const DEFAULT_PACKAGE_ID: CreditPackageId = 'standard';

export const CUSTOM_AMOUNT_MIN = 1;
export const CUSTOM_AMOUNT_MAX = 1000;
export const PAYMENT_CURRENCY = 'USD';
export const CUSTOM_AMOUNT_MESSAGE = 'Enter an amount from $1 to $1,000 (whole cents).';

export function findPackage(id: string): CreditPackage | null {
  return CREDIT_PACKAGES.find((p) => p.id === id) ?? null;
}

/** A custom amount as typed: 1 to 1000 dollars, at most two decimals; null when not valid. */
export function parseCustomAmount(input: string | number): string | null {
  const text = String(input).trim();
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(text)) return null;
  const value = Number(text);
  if (value < CUSTOM_AMOUNT_MIN || value > CUSTOM_AMOUNT_MAX) return null;
  return value.toFixed(2);
}

/**
 * POST /api/payments/paypal/order. The page's body is {amount, currency, payment_type};
 * a package is named by packageId, and the server decides the price either way: a package's
 * amount must match the package, a custom amount gets no bonus.
 */
export const createPaypalOrderBody = z
  .object({
    packageId: z.enum(PACKAGE_IDS).optional(),
    amount: dollars({ max: CUSTOM_AMOUNT_MAX, message: CUSTOM_AMOUNT_MESSAGE }).optional(),
    currency: z.literal(PAYMENT_CURRENCY, { message: 'Payments are in USD' }).default('USD'),
    payment_type: z
      .literal('credits', { message: 'Only credit purchases are supported' })
      .default('credits'),
  })
  .superRefine((body, ctx) => {
    if (body.packageId) {
      const pkg = findPackage(body.packageId);
      if (pkg && body.amount !== undefined && parseCustomAmount(body.amount) !== pkg.amount) {
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: `The ${pkg.label} package costs $${pkg.amount}`,
        });
      }
      return;
    }
    if (body.amount === undefined || parseCustomAmount(body.amount) === null) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: CUSTOM_AMOUNT_MESSAGE });
    }
  });
export type CreatePaypalOrderBody = z.input<typeof createPaypalOrderBody>;

export const paypalOrderIdParam = z.object({
  orderID: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/, { message: 'Not a PayPal order id' }),
});

export const paypalSetupResponse = z.object({
  success: z.boolean(),
  clientId: z.string().nullable(),
  /** Where the browser loads PayPal's JavaScript SDK from (configurable for tests). */
  sdkUrl: z.string().nullable(),
  currency: z.literal(PAYMENT_CURRENCY),
  intent: z.literal('capture'),
  message: z.string().optional(),
  /**
   * True when payments run against the built-in local sandbox (no PayPal credentials, not
   * production): no SDK is loaded, the buyer approves in the app and no real money moves.
   */
  sandbox: z.literal(true).optional(),
});
export type PaypalSetupResponse = z.infer<typeof paypalSetupResponse>;

/** POST /api/payments/sandbox/order/{orderID}/approve: the buyer's approval in the sandbox. */
export const sandboxApprovalResponse = z.object({
  id: z.string(),
  status: z.literal('approved'),
});
export type SandboxApprovalResponse = z.infer<typeof sandboxApprovalResponse>;

export const paypalOrderResponse = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.string(),
  bonus: z.string(),
  credits: z.string(),
  currency: z.literal(PAYMENT_CURRENCY),
});
export type PaypalOrderResponse = z.infer<typeof paypalOrderResponse>;

export const paypalCaptureResponse = z.object({
  success: z.boolean(),
  status: z.enum(['completed', 'pending']),
  orderId: z.string(),
  amount: z.string(),
  bonus: z.string(),
  /** Amount plus bonus: what the wallet received. */
  credits: z.string(),
  balance: z.string(),
  message: z.string(),
});
export type PaypalCaptureResponse = z.infer<typeof paypalCaptureResponse>;

/** POST /api/payments/paypal/webhook, once PayPal's signature is confirmed. */
export const paypalWebhookResponse = z.object({
  received: z.literal(true),
  outcome: z.string(),
});
export type PaypalWebhookResponse = z.infer<typeof paypalWebhookResponse>;

export const WALLET_ENTRY_TYPES = ['purchase', 'bonus', 'charge', 'refund', 'credit'] as const;
export type WalletEntryType = (typeof WALLET_ENTRY_TYPES)[number];

/** The history's filters: money in (purchases, bonuses, credits), usage (charges), refunds. */
export const HISTORY_FILTERS = ['all', 'purchases', 'usage', 'refunds'] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** One metered instance's minutes on one day (the user's time zone), summed. */
export const usageSummary = z.object({
  instanceId: z.number().int(),
  /** The GPU model it ran on. */
  gpu: z.string(),
  /** The day (YYYY-MM-DD, the user's time zone) the minutes were charged. */
  day: z.string(),
  computeMinutes: z.number().int(),
  storageMinutes: z.number().int(),
  /** Dollars for compute and for storage (positive). */
  computeAmount: z.string(),
  storageAmount: z.string(),
  /** How many ledger postings (minutes charged) the line sums. */
  postings: z.number().int(),
});
export type UsageSummary = z.infer<typeof usageSummary>;

export const walletEntry = z.object({
  id: z.string(),
  type: z.enum(WALLET_ENTRY_TYPES),
  description: z.string(),
  /**
   * Signed dollars: positive adds to the balance. Rounded to the cent, with as many decimals
   * as needed below a cent (never "0.00" for money that moved).
   */
  amount: z.string(),
  /** The exact amount in micro-dollars (signed, as a decimal string). */
  amountMicros: z.string(),
  /** The last movement the line holds (the first, for a usage line, is `startedAt`). */
  createdAt: z.string(),
  startedAt: z.string(),
  /** A usage line: one instance's minutes on one day; null for every other line. */
  usage: usageSummary.nullable(),
});
export type WalletEntry = z.infer<typeof walletEntry>;

/** GET /api/payments/history: one page, newest first. */
export const historyQuery = z.object({
  type: z.enum(HISTORY_FILTERS).default('all'),
  /** The `nextCursor` of the page before. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'The cursor is not one this history gave')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const historyPage = z.object({
  entries: z.array(walletEntry),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof historyPage>;

/** GET /api/payments/history/minutes: the ledger postings one usage line sums. */
export const historyMinutesQuery = z.object({
  instanceId: z.coerce.number().int().positive(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'The day must be written YYYY-MM-DD'),
});
export const historyMinute = z.object({
  id: z.string(),
  description: z.string(),
  amount: z.string(),
  amountMicros: z.string(),
  createdAt: z.string(),
});
export const historyMinutes = z.object({ minutes: z.array(historyMinute) });
export type HistoryMinute = z.infer<typeof historyMinute>;

/** GET /api/payments/history/export: the whole history (one filter) as CSV. */
export const historyExportQuery = z.object({ type: z.enum(HISTORY_FILTERS).default('all') });

export const spendingSummaryView = z.object({
  balance: z.string(),
  /** Net spending since the first of this month in the user's time zone. */
  thisMonth: z.string(),
  totalSpent: z.string(),
  totalPurchased: z.string(),
  monthStart: z.string(),
  timezone: z.string(),
});
export type SpendingSummary = z.infer<typeof spendingSummaryView>;

/**
 * GET /api/payments/limits: what a launch is set against before it is sent (issue 42): the
 * balance, and each spend cap of the account with what was spent in its period now (UTC day,
 * calendar month). Dollars; the balance exact to the micro-dollar ("0.003334"). The launch screens' guard (shared/rules/balance-guard.ts) reads it.
 */
export const chargeLimitsView = z.object({
  balance: z.string(),
  caps: z.array(z.object({ period: z.enum(['day', 'month']), cap: z.string(), spent: z.string() })),
});
export type ChargeLimitsView = z.infer<typeof chargeLimitsView>;

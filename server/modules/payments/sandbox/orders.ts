import { randomBytes } from 'node:crypto';
import { isRecord } from '../../../lib/paypal';

/**
 * PayPal's Orders v2 as a small in-memory state machine: create (idempotent by
 * PayPal-Request-Id), read, approve (the buyer's step), capture (once; replayed by
 * PayPal-Request-Id). Answers are the JSON PayPal sends, so the real Orders v2 client
 * (server/lib/paypal.ts) reads them unchanged. Used by the local sandbox (./paypal-api.ts)
 * and by the tests' fake PayPal (server/test/fake-paypal.ts), which adds failure steering.
 */
export interface SandboxCapture {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
}

export interface SandboxOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  customId: string;
  amount: { currency_code: string; value: string };
  captures: SandboxCapture[];
}

/** An HTTP answer: status and JSON body. */
export interface PaypalAnswer {
  status: number;
  body: unknown;
}

/** What a capture records instead of a plain COMPLETED capture of the order's amount. */
export interface CaptureShape {
  amount?: { currency_code: string; value: string };
  status?: 'COMPLETED' | 'PENDING' | 'DECLINED';
}

export const id = (length: number) =>
  randomBytes(length).toString('hex').toUpperCase().slice(0, length);

/**
 * An order as PayPal answers it (Prefer: return=representation); with `approvalPage`, the
 * buyer's `approve` link as PayPal gives it (`<page>?token=<order id>`).
 */
export const representation = (order: SandboxOrder, approvalPage?: string) => ({
  id: order.id,
  status: order.status,
  intent: 'CAPTURE',
  purchase_units: [
    {
      reference_id: order.customId,
      custom_id: order.customId,
      amount: order.amount,
      ...(order.captures.length > 0
        ? {
            payments: {
              captures: order.captures.map((c) => ({
                ...c,
                custom_id: order.customId,
                final_capture: true,
                supplementary_data: { related_ids: { order_id: order.id } },
              })),
            },
          }
        : {}),
    },
  ],
  ...(approvalPage
    ? {
        links: [
          {
            href: `${approvalPage}?token=${encodeURIComponent(order.id)}`,
            rel: 'approve',
            method: 'GET',
          },
        ],
      }
    : {}),
});

export const unprocessable = (issue: string, description: string) => ({
  name: 'UNPROCESSABLE_ENTITY',
  message:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  debug_id: id(12).toLowerCase(),
  details: [{ issue, description }],
});

export const NOT_FOUND_ANSWER: PaypalAnswer = {
  status: 404,
  body: {
    name: 'RESOURCE_NOT_FOUND',
    message: 'The specified resource does not exist.',
    details: [{ issue: 'INVALID_RESOURCE_ID' }],
  },
};

export const ORDER_NOT_APPROVED = unprocessable(
  'ORDER_NOT_APPROVED',
  'Payer has not yet approved the Order for payment.',
);

export class SandboxOrders {
  readonly orders = new Map<string, SandboxOrder>();
  private readonly createdByRequestId = new Map<string, string>();
  private readonly captureAnswers = new Map<string, PaypalAnswer>();

  /**
   * requireApproval: a capture before approve() is refused with ORDER_NOT_APPROVED.
   * approvalPage: orders carry PayPal's `approve` link to this page (the tests' fake PayPal
   * stands in for PayPal's sandbox; the local sandbox has no such page).
   */
  constructor(private readonly options: { requireApproval: boolean; approvalPage?: string }) {}

  create(body: Record<string, unknown>, requestId: string | undefined): PaypalAnswer {
    const existing = requestId ? this.createdByRequestId.get(requestId) : undefined;
    const known = existing ? this.orders.get(existing) : undefined;
    if (known) return { status: 200, body: representation(known, this.options.approvalPage) };
    const units = Array.isArray(body.purchase_units) ? body.purchase_units : [];
    const unit: Record<string, unknown> = isRecord(units[0]) ? units[0] : {};
    const amount: Record<string, unknown> = isRecord(unit.amount) ? unit.amount : {};
    if (
      body.intent !== 'CAPTURE' ||
      typeof amount.currency_code !== 'string' ||
      typeof amount.value !== 'string' ||
      !/^\d{1,7}(\.\d{1,2})?$/.test(amount.value)
    ) {
      return {
        status: 400,
        body: {
          name: 'INVALID_REQUEST',
          message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
          debug_id: id(12).toLowerCase(),
          details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }],
        },
      };
    }
    const order: SandboxOrder = {
      id: id(17),
      status: 'CREATED',
      customId: String(unit.custom_id ?? ''),
      amount: { currency_code: amount.currency_code, value: amount.value },
      captures: [],
    };
    this.orders.set(order.id, order);
    if (requestId) this.createdByRequestId.set(requestId, order.id);
    return { status: 201, body: representation(order, this.options.approvalPage) };
  }

  get(orderId: string): PaypalAnswer {
    const order = this.orders.get(orderId);
    return order
      ? { status: 200, body: representation(order, this.options.approvalPage) }
      : NOT_FOUND_ANSWER;
  }

  /** The buyer approves in PayPal's window; false when there is no such order to approve. */
  approve(orderId: string): boolean {
    const order = this.orders.get(orderId);
    if (!order) return false;
    if (order.status === 'CREATED') order.status = 'APPROVED';
    return order.status === 'APPROVED';
  }

  /** The answer an earlier capture with this PayPal-Request-Id gave, if any. */
  replay(requestId: string | undefined): PaypalAnswer | undefined {
    return requestId ? this.captureAnswers.get(requestId) : undefined;
  }

  /** Why this order cannot be captured now (unknown, already captured, not approved), or null. */
  refusal(orderId: string): PaypalAnswer | null {
    const order = this.orders.get(orderId);
    if (!order) return NOT_FOUND_ANSWER;
    if (order.status === 'COMPLETED') {
      return {
        status: 422,
        body: unprocessable(
          'ORDER_ALREADY_CAPTURED',
          "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
        ),
      };
    }
    if (order.status !== 'APPROVED' && this.options.requireApproval) {
      return { status: 422, body: ORDER_NOT_APPROVED };
    }
    return null;
  }

  /** Captures an approved order once; refusals are the 404/422 answers PayPal gives. */
  capture(
    orderId: string,
    requestId: string | undefined,
    shape: CaptureShape | 'instrument-declined' = {},
  ): PaypalAnswer {
    const replayed = this.replay(requestId);
    if (replayed) return replayed;
    const refused = this.refusal(orderId);
    if (refused) return refused;
    const order = this.orders.get(orderId);
    if (!order) return NOT_FOUND_ANSWER;
    if (shape === 'instrument-declined') {
      return {
        status: 422,
        body: unprocessable(
          'INSTRUMENT_DECLINED',
          "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
        ),
      };
    }
    order.captures.push({
      id: id(17),
      status: shape.status ?? 'COMPLETED',
      amount: shape.amount ?? { ...order.amount },
    });
    order.status = 'COMPLETED';
    const answer = { status: 201, body: representation(order) };
    if (requestId) this.captureAnswers.set(requestId, answer);
    return answer;
  }
}

/** OAuth2 client credentials: a token for the right Basic credentials, then Bearer checks. */
export class SandboxAuth {
  private readonly tokens = new Set<string>();
  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  token(authorization: string | undefined): PaypalAnswer {
    const basic = Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64');
    if (authorization !== `Basic ${basic}`) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
      };
    }
    const token = `A21AA${id(40)}`;
    this.tokens.add(token);
    return {
      status: 200,
      body: {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        expires_in: 32400,
      },
    };
  }

  /** null when the Bearer token is one this stand-in issued; else the 401 answer. */
  check(authorization: string | undefined): PaypalAnswer | null {
    const bearer = (authorization ?? '').replace(/^Bearer /, '');
    if (this.tokens.has(bearer)) return null;
    return {
      status: 401,
      body: { error: 'invalid_token', error_description: 'Token signature verification failed' },
    };
  }
}

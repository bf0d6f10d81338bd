/**
 * PayPal's REST API (OAuth2 client credentials, Orders v2, webhook signature check) over
 * fetch, behind an interface so the payments service never sees HTTP. Base address from
 * PAYPAL_API_BASE: sandbox by default, live in production, a local fake in tests; or the
 * in-process local sandbox (server/modules/payments/sandbox) through the `fetch` option.
 */

export interface PaypalMoney {
  currency_code: string;
  value: string;
}

export interface PaypalCapture {
  id: string;
  /** COMPLETED, PENDING, DECLINED, FAILED, REFUNDED, PARTIALLY_REFUNDED. */
  status: string;
  amount: PaypalMoney | null;
  /** The order it belongs to, when PayPal says so (webhook resources). */
  orderId: string | null;
}

export interface PaypalOrder {
  id: string;
  /** CREATED, APPROVED, COMPLETED, VOIDED, PAYER_ACTION_REQUIRED. */
  status: string;
  captures: PaypalCapture[];
  /** Where the buyer approves it (PayPal's `approve` or `payer-action` link), when PayPal gives one. */
  approveUrl?: string | null;
}

export interface CreateOrderInput {
  /** PayPal-Request-Id: a retried create with the same id returns the same order. */
  requestId: string;
  amount: string;
  currency: string;
  customId: string;
  description: string;
}

export interface WebhookCheck {
  webhookId: string;
  headers: Record<string, string | string[] | undefined>;
  event: unknown;
}

export interface PaypalClient {
  createOrder(input: CreateOrderInput): Promise<PaypalOrder>;
  captureOrder(orderId: string, requestId: string): Promise<PaypalOrder>;
  getOrder(orderId: string): Promise<PaypalOrder>;
  verifyWebhookSignature(check: WebhookCheck): Promise<boolean>;
}

/** A failed call: status null means no answer at all (network error, dropped, timed out). */
export class PaypalError extends Error {
  override name = 'PaypalError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly issue: string | null = null,
    readonly debugId: string | null = null,
  ) {
    super(message);
  }
}

export interface PaypalClientOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  timeoutMs?: number;
  /** Sends the requests; the global fetch unless an in-process stand-in answers them. */
  fetch?: typeof fetch;
}

export function createPaypalClient(options: PaypalClientOptions): PaypalClient {
  const base = options.apiBase.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 20_000;
  const request = options.fetch ?? fetch;
  let token: { value: string; expiresAt: number } | null = null;

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await request(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PaypalError(`PayPal did not answer: ${describe(error)}`, null);
    }
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const res = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const body = await readJson(res);
    if (!res.ok || typeof body.access_token !== 'string') throw errorFrom(res, body);
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 300;
    token = { value: body.access_token, expiresAt: Date.now() + expiresIn * 1000 };
    return token.value;
  }

  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt += 1) {
      const res = await send(path, {
        method,
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          'content-type': 'application/json',
          prefer: 'return=representation',
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = await readJson(res);
      // An expired or revoked token: fetch a new one once.
      if (res.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      if (!res.ok) throw errorFrom(res, json);
      return json;
    }
  }

  return {
    async createOrder(input) {
      const json = await call(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: input.customId,
              custom_id: input.customId,
              description: input.description,
              amount: { currency_code: input.currency, value: input.amount },
            },
          ],
        },
        { 'paypal-request-id': input.requestId },
      );
      return toOrder(json);
    },

    async captureOrder(orderId, requestId) {
      const json = await call(
        'POST',
        `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
        {},
        { 'paypal-request-id': requestId },
      );
      return toOrder(json);
    },

    async getOrder(orderId) {
      return toOrder(await call('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`));
    },

    async verifyWebhookSignature({ webhookId, headers, event }) {
      const header = (name: string) => {
        const value = headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const fields = {
        auth_algo: header('paypal-auth-algo'),
        cert_url: header('paypal-cert-url'),
        transmission_id: header('paypal-transmission-id'),
        transmission_sig: header('paypal-transmission-sig'),
        transmission_time: header('paypal-transmission-time'),
      };
      if (Object.values(fields).some((v) => !v)) return false;
      const json = await call('POST', '/v1/notifications/verify-webhook-signature', {
        ...fields,
        webhook_id: webhookId,
        webhook_event: event,
      });
      return json.verification_status === 'SUCCESS';
    },
  };
}

async function readJson(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => '');
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function errorFrom(res: Response, body: Record<string, unknown>): PaypalError {
  const details = Array.isArray(body.details) ? body.details : [];
  const first: unknown = details[0];
  const issue = isRecord(first) && typeof first.issue === 'string' ? first.issue : null;
  const message = typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
  const debugId = typeof body.debug_id === 'string' ? body.debug_id : null;
  return new PaypalError(message, res.status, issue, debugId);
}

/** Reads an order (or a capture answer) into the few fields we act on. */
export function toOrder(json: Record<string, unknown>): PaypalOrder {
  const units = Array.isArray(json.purchase_units) ? json.purchase_units : [];
  const captures: PaypalCapture[] = [];
  for (const unit of units) {
    const payments = isRecord(unit) && isRecord(unit.payments) ? unit.payments : {};
    const list = Array.isArray(payments.captures) ? payments.captures : [];
    for (const capture of list) {
      const parsed = isRecord(capture) ? toCapture(capture) : null;
      if (parsed) captures.push({ ...parsed, orderId: parsed.orderId ?? String(json.id ?? '') });
    }
  }
  const links = Array.isArray(json.links) ? json.links : [];
  const approve = links.find(
    (link) =>
      isRecord(link) &&
      (link.rel === 'approve' || link.rel === 'payer-action') &&
      typeof link.href === 'string' &&
      /^https?:\/\//.test(link.href),
  );
  return {
    id: typeof json.id === 'string' ? json.id : '',
    status: typeof json.status === 'string' ? json.status : 'UNKNOWN',
    captures,
    approveUrl: isRecord(approve) && typeof approve.href === 'string' ? approve.href : null,
  };
}

/** Reads a capture object (a capture answer's entry, or a PAYMENT.CAPTURE.* webhook resource). */
export function toCapture(json: Record<string, unknown>): PaypalCapture | null {
  if (typeof json.id !== 'string' || typeof json.status !== 'string') return null;
  const amount =
    isRecord(json.amount) &&
    typeof json.amount.currency_code === 'string' &&
    typeof json.amount.value === 'string'
      ? { currency_code: json.amount.currency_code, value: json.amount.value }
      : null;
  const related =
    isRecord(json.supplementary_data) && isRecord(json.supplementary_data.related_ids)
      ? json.supplementary_data.related_ids
      : {};
  return {
    id: json.id,
    status: json.status,
    amount,
    orderId: typeof related.order_id === 'string' ? related.order_id : null,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

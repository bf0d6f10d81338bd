import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord } from '../lib/paypal';
import {
  type FakeOrder,
  header,
  id,
  readBody,
  representation,
  send,
  unprocessable,
} from './fake-paypal-http';

/**
 * A local stand-in for PayPal's REST API (OAuth token, Orders v2, webhook signature check),
 * in memory, on 127.0.0.1 and an ephemeral port. Tests steer what the next capture does:
 * a dropped answer, an error after capturing, another amount or currency, pending, declined.
 */
export type CaptureBehaviour =
  | { kind: 'normal' }
  | { kind: 'drop' }
  | { kind: 'error-after-capture' }
  | { kind: 'amount'; value: string }
  | { kind: 'currency'; code: string }
  | { kind: 'pending' }
  | { kind: 'declined' }
  | { kind: 'instrument-declined' };

export interface FakePaypalOptions {
  clientId?: string;
  clientSecret?: string;
  webhookId?: string;
  /** Orders must be approved (by approve() or POST /test/orders/:id/approve) before capture. */
  requireApproval?: boolean;
  /** Serves this file at GET /sdk/js: a stand-in for PayPal's browser SDK. */
  sdkFile?: string;
}

export const VALID_WEBHOOK_SIGNATURE = 'fake-valid-signature';

export interface FakePaypal {
  url: string;
  orders: Map<string, FakeOrder>;
  /** Every request seen, as "METHOD /path". */
  calls: string[];
  /** Applied to the next capture calls, in order; then captures behave normally. */
  nextCaptures: CaptureBehaviour[];
  /** Delay before a capture answers, to widen race windows. */
  captureDelayMs: number;
  /** When set, order creation answers this HTTP status with an error. */
  failCreateWith: number | null;
  /** The next this-many reads of an order (GET) answer 503. */
  failReads: number;
  approve(orderId: string): void;
  /** A webhook delivery: the event body and headers PayPal would sign it with. */
  webhook(
    eventType: string,
    resource: Record<string, unknown>,
    options?: { signature?: string; id?: string },
  ): { body: Record<string, unknown>; headers: Record<string, string> };
  close(): Promise<void>;
}

export async function startFakePaypal(options: FakePaypalOptions = {}): Promise<FakePaypal> {
  const clientId = options.clientId ?? 'x';
  const clientSecret = options.clientSecret ?? 'y';
  const webhookId = options.webhookId ?? 'WH-TEST';
  const tokens = new Set<string>();
  const orders = new Map<string, FakeOrder>();
  const createdByRequestId = new Map<string, string>();
  const captureAnswers = new Map<string, { status: number; body: unknown }>();

  const fake: FakePaypal = {
    url: '',
    orders,
    calls: [],
    nextCaptures: [],
    captureDelayMs: 0,
    failCreateWith: null,
    failReads: 0,
    approve(orderId) {
      const order = orders.get(orderId);
      if (order && order.status === 'CREATED') order.status = 'APPROVED';
    },
    webhook(eventType, resource, extra = {}) {
      const body = {
        id: extra.id ?? `WH-${id(16)}`,
        event_type: eventType,
        resource_type: eventType.startsWith('CHECKOUT') ? 'checkout-order' : 'capture',
        resource,
        create_time: new Date().toISOString(),
      };
      const headers = {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${fake.url}/certs/test`,
        'paypal-transmission-id': id(20),
        'paypal-transmission-sig': extra.signature ?? VALID_WEBHOOK_SIGNATURE,
        'paypal-transmission-time': new Date().toISOString(),
      };
      return { body, headers };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  async function capture(req: IncomingMessage, res: ServerResponse, orderId: string) {
    const requestId = header(req, 'paypal-request-id');
    const replay = requestId ? captureAnswers.get(requestId) : undefined;
    if (replay) return send(res, replay.status, replay.body);
    if (fake.captureDelayMs > 0) await new Promise((r) => setTimeout(r, fake.captureDelayMs));
    const order = orders.get(orderId);
    if (!order)
      return send(res, 404, {
        name: 'RESOURCE_NOT_FOUND',
        details: [{ issue: 'INVALID_RESOURCE_ID' }],
      });
    if (order.status === 'COMPLETED') {
      return send(
        res,
        422,
        unprocessable(
          'ORDER_ALREADY_CAPTURED',
          "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
        ),
      );
    }
    if (order.status !== 'APPROVED' && options.requireApproval) {
      return send(
        res,
        422,
        unprocessable('ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.'),
      );
    }
    const behaviour = fake.nextCaptures.shift() ?? { kind: 'normal' };
    if (behaviour.kind === 'instrument-declined') {
      return send(
        res,
        422,
        unprocessable(
          'INSTRUMENT_DECLINED',
          "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
        ),
      );
    }
    const amount = { ...order.amount };
    if (behaviour.kind === 'amount') amount.value = behaviour.value;
    if (behaviour.kind === 'currency') amount.currency_code = behaviour.code;
    const status =
      behaviour.kind === 'pending'
        ? 'PENDING'
        : behaviour.kind === 'declined'
          ? 'DECLINED'
          : 'COMPLETED';
    order.captures.push({ id: id(17), status, amount });
    order.status = 'COMPLETED';
    const answer = { status: 201, body: representation(order) };
    if (requestId) captureAnswers.set(requestId, answer);
    if (behaviour.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (behaviour.kind === 'error-after-capture') {
      return send(res, 500, {
        name: 'INTERNAL_SERVER_ERROR',
        message: 'An internal server error has occurred.',
        debug_id: id(12),
      });
    }
    return send(res, answer.status, answer.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    fake.calls.push(`${req.method} ${path}`);
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('access-control-allow-methods', 'GET, POST');
      res.setHeader('access-control-allow-headers', 'content-type');
      return send(res, 204, null);
    }
    if (req.method === 'GET' && path === '/sdk/js' && options.sdkFile) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(readFileSync(options.sdkFile, 'utf8').replaceAll('__FAKE_PAYPAL_ORIGIN__', fake.url));
      return;
    }
    const approveMatch = /^\/test\/orders\/([^/]+)\/approve$/.exec(path);
    if (req.method === 'POST' && approveMatch?.[1]) {
      fake.approve(approveMatch[1]);
      return send(res, 200, { status: orders.get(approveMatch[1])?.status ?? 'UNKNOWN' });
    }
    const body = await readBody(req);
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected)
        return send(res, 401, {
          error: 'invalid_client',
          error_description: 'Client Authentication failed',
        });
      const token = `A21AA${id(40)}`;
      tokens.add(token);
      return send(res, 200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        expires_in: 32400,
      });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(bearer))
      return send(res, 401, {
        error: 'invalid_token',
        error_description: 'Token signature verification failed',
      });

    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      if (fake.failCreateWith)
        return send(res, fake.failCreateWith, {
          name: 'INTERNAL_SERVER_ERROR',
          message: 'An internal server error has occurred.',
        });
      const requestId = header(req, 'paypal-request-id');
      const existing = requestId ? createdByRequestId.get(requestId) : undefined;
      const known = existing ? orders.get(existing) : undefined;
      if (known) return send(res, 200, representation(known));
      const units = Array.isArray(body.purchase_units) ? body.purchase_units : [];
      const unit: Record<string, unknown> = isRecord(units[0]) ? units[0] : {};
      const amount: Record<string, unknown> = isRecord(unit.amount) ? unit.amount : {};
      const order: FakeOrder = {
        id: id(17),
        status: 'CREATED',
        customId: String(unit.custom_id ?? ''),
        amount: { currency_code: String(amount.currency_code), value: String(amount.value) },
        captures: [],
      };
      orders.set(order.id, order);
      if (requestId) createdByRequestId.set(requestId, order.id);
      return send(res, 201, representation(order));
    }
    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (orderMatch?.[1]) {
      if (req.method === 'POST' && orderMatch[2]) return capture(req, res, orderMatch[1]);
      const order = orders.get(orderMatch[1]);
      if (req.method === 'GET' && fake.failReads > 0) {
        fake.failReads -= 1;
        return send(res, 503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' });
      }
      if (req.method === 'GET' && order) return send(res, 200, representation(order));
      return send(res, 404, { name: 'RESOURCE_NOT_FOUND' });
    }
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const ok =
        body.transmission_sig === VALID_WEBHOOK_SIGNATURE &&
        body.webhook_id === webhookId &&
        typeof body.webhook_event === 'object';
      return send(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    return send(res, 404, { name: 'NOT_FOUND' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

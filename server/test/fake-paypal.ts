import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type CaptureShape,
  id,
  type PaypalAnswer,
  SandboxAuth,
  type SandboxOrder,
  SandboxOrders,
} from '../modules/payments/sandbox/orders';
import { header, readBody, send } from './fake-paypal-http';

/**
 * A local stand-in for PayPal's REST API (OAuth token, Orders v2, webhook signature check),
 * in memory, on 127.0.0.1 and an ephemeral port. The orders themselves are the product's
 * Orders v2 state machine (server/modules/payments/sandbox/orders.ts, also behind the local
 * sandbox); this adds HTTP and failure steering: tests steer what the next capture does:
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
/** Where PayPal's sandbox sends a buyer to approve an order (the orders' `approve` link). */
export const PAYPAL_SANDBOX_APPROVAL_PAGE = 'https://www.sandbox.paypal.com/checkoutnow';

export interface FakePaypal {
  url: string;
  orders: Map<string, SandboxOrder>;
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
  const auth = new SandboxAuth(clientId, clientSecret);
  const store = new SandboxOrders({
    requireApproval: options.requireApproval ?? false,
    approvalPage: PAYPAL_SANDBOX_APPROVAL_PAGE,
  });
  const orders = store.orders;
  const reply = (res: ServerResponse, answer: PaypalAnswer) =>
    send(res, answer.status, answer.body);

  const fake: FakePaypal = {
    url: '',
    orders,
    calls: [],
    nextCaptures: [],
    captureDelayMs: 0,
    failCreateWith: null,
    failReads: 0,
    approve(orderId) {
      store.approve(orderId);
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
    const replay = store.replay(requestId);
    if (replay) return reply(res, replay);
    if (fake.captureDelayMs > 0) await new Promise((r) => setTimeout(r, fake.captureDelayMs));
    const refused = store.refusal(orderId);
    if (refused) return reply(res, refused);
    const behaviour = fake.nextCaptures.shift() ?? { kind: 'normal' };
    const amount = { ...(orders.get(orderId)?.amount ?? { currency_code: 'USD', value: '0' }) };
    if (behaviour.kind === 'amount') amount.value = behaviour.value;
    if (behaviour.kind === 'currency') amount.currency_code = behaviour.code;
    const shape: CaptureShape | 'instrument-declined' =
      behaviour.kind === 'instrument-declined'
        ? 'instrument-declined'
        : {
            amount,
            status:
              behaviour.kind === 'pending'
                ? 'PENDING'
                : behaviour.kind === 'declined'
                  ? 'DECLINED'
                  : 'COMPLETED',
          };
    const answer = store.capture(orderId, requestId, shape);
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
    return reply(res, answer);
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
      return reply(res, auth.token(req.headers.authorization));
    }
    const unauthorized = auth.check(req.headers.authorization);
    if (unauthorized) return reply(res, unauthorized);

    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      if (fake.failCreateWith)
        return send(res, fake.failCreateWith, {
          name: 'INTERNAL_SERVER_ERROR',
          message: 'An internal server error has occurred.',
        });
      return reply(res, store.create(body, header(req, 'paypal-request-id')));
    }
    const orderMatch = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (orderMatch?.[1]) {
      if (req.method === 'POST' && orderMatch[2]) return capture(req, res, orderMatch[1]);
      const order = orders.get(orderMatch[1]);
      if (req.method === 'GET' && fake.failReads > 0) {
        fake.failReads -= 1;
        return send(res, 503, { name: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable.' });
      }
      if (req.method === 'GET' && order) return reply(res, store.get(order.id));
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

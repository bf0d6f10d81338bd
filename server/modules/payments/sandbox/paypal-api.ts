import { randomToken } from '../../../lib/crypto';
import { isRecord } from '../../../lib/paypal';
import { type PaypalAnswer, SandboxAuth, SandboxOrders } from './orders';

/**
 * The local PayPal sandbox: PayPal's REST API (OAuth token, Orders v2 create, read, capture)
 * answered in-process, for a newcomer's machine without PayPal credentials (never in
 * production; PAYPAL_MODE local-sandbox in server/env.ts). The ordinary Orders v2 client
 * (server/lib/paypal.ts) talks to it through `fetch`, so orders go through exactly the path
 * real PayPal takes: order → buyer approval → capture → ledger. The buyer's approval is the
 * app's own "Sandbox checkout" step (./routes.ts) instead of PayPal's window. No money moves;
 * orders live in memory and are forgotten on restart.
 */
export const SANDBOX_API_BASE = 'http://paypal-sandbox.local';
export const SANDBOX_CLIENT_ID = 'local-sandbox';

export interface LocalPaypalSandbox {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  /** A fetch that answers PayPal's API paths; handed to createPaypalClient. */
  fetch: typeof fetch;
  /** The buyer's approval; false when the order is unknown or no longer approvable. */
  approve(orderId: string): boolean;
  orders: SandboxOrders;
}

export function createLocalPaypalSandbox(): LocalPaypalSandbox {
  const clientSecret = randomToken();
  const auth = new SandboxAuth(SANDBOX_CLIENT_ID, clientSecret);
  const orders = new SandboxOrders({ requireApproval: true });

  function answer(input: string, init: RequestInit): PaypalAnswer {
    const url = new URL(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    const authorization = headers.get('authorization') ?? undefined;
    const requestId = headers.get('paypal-request-id') ?? undefined;
    const path = url.pathname;
    if (url.origin !== SANDBOX_API_BASE) return { status: 404, body: { name: 'NOT_FOUND' } };
    if (method === 'POST' && path === '/v1/oauth2/token') return auth.token(authorization);
    const unauthorized = auth.check(authorization);
    if (unauthorized) return unauthorized;
    if (method === 'POST' && path === '/v2/checkout/orders') {
      return orders.create(jsonBody(init.body), requestId);
    }
    const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    const orderId = match?.[1] ? decodeURIComponent(match[1]) : null;
    if (orderId && method === 'POST' && match?.[2]) return orders.capture(orderId, requestId);
    if (orderId && method === 'GET' && !match?.[2]) return orders.get(orderId);
    // No webhooks come from the sandbox, so no signature is ever valid.
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      return { status: 200, body: { verification_status: 'FAILURE' } };
    }
    return { status: 404, body: { name: 'NOT_FOUND' } };
  }

  const sandboxFetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const target =
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { status, body } = answer(target, init);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;

  return {
    clientId: SANDBOX_CLIENT_ID,
    clientSecret,
    apiBase: SANDBOX_API_BASE,
    fetch: sandboxFetch,
    approve: (orderId) => orders.approve(orderId),
    orders,
  };
}

function jsonBody(body: RequestInit['body']): Record<string, unknown> {
  if (typeof body !== 'string' || !body) return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../lib/paypal';

/** Shapes and HTTP helpers of the fake PayPal (server/test/fake-paypal.ts). */
export interface FakeCapture {
  id: string;
  status: string;
  amount: { currency_code: string; value: string };
}

export interface FakeOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  customId: string;
  amount: { currency_code: string; value: string };
  captures: FakeCapture[];
}

export const id = (length: number) =>
  randomBytes(length).toString('hex').toUpperCase().slice(0, length);

/** An order as PayPal answers it (Prefer: return=representation). */
export const representation = (order: FakeOrder) => ({
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
});

export const unprocessable = (issue: string, description: string) => ({
  name: 'UNPROCESSABLE_ENTITY',
  message:
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  debug_id: id(12).toLowerCase(),
  details: [{ issue, description }],
});

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text || !(req.headers['content-type'] ?? '').includes('json')) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function send(res: ServerResponse, status: number, body: unknown) {
  if (res.headersSent || res.destroyed) return;
  if (body === null) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

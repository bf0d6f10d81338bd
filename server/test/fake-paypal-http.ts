import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../lib/paypal';

/** HTTP helpers of the fake PayPal (server/test/fake-paypal.ts). */
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

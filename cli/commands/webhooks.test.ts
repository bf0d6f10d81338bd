import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '../../shared/contracts/webhooks';
import { run } from '../main';
import { captureIo, type StubApi, startStubApi } from '../test/harness';

/**
 * `webhooks …` through `run`, against a stub of the public API (as cli/cli.test.ts does): what
 * the CLI asks and prints. The real app: server/modules/public-api/cli-events.test.ts.
 */
type Handler = (req: IncomingMessage, body: string) => { status?: number; json?: unknown };
let handler: Handler = () => ({ status: 404, json: {} });
const seen: StubApi['seen'] = [];
let api: StubApi;

beforeAll(async () => {
  api = await startStubApi((req, body) => handler(req, body), seen);
});
afterAll(() => api.close());
afterEach(() => {
  seen.length = 0;
});

async function rentgpu(args: string[], options: { tty?: boolean } = {}) {
  const { io, stdout, stderr } = captureIo({ apiUrl: api.url }, { isTTY: options.tty ?? false });
  const code = await run(args, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

const ID = '0b9c3f3e-7c1a-4d0e-9a55-2f7d5d1f0a11';
function endpoint(changes: Partial<WebhookEndpointView> = {}): WebhookEndpointView {
  return {
    id: ID,
    url: 'https://example.com/hook',
    description: 'ops',
    types: ['instance.ready'],
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    previousSecretUntil: null,
    createdAt: '2026-11-26T17:05:09.000Z',
    pending: 0,
    ...changes,
  };
}
const withSecret = (): WebhookEndpointWithSecret => ({
  ...endpoint(),
  secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
});
const requests = () => seen.map((r) => `${r.method} ${r.url}`);

describe('webhooks', () => {
  it('create sends the URL, types and description; prints the secret once with the note', async () => {
    handler = () => ({ status: 201, json: withSecret() });
    const res = await rentgpu(
      [
        'webhooks',
        'create',
        'https://example.com/hook',
        '--type',
        'instance.ready,instance.stopped',
        '--type',
        'wallet.low_balance',
        '--description',
        'ops',
      ],
      { tty: true },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(requests()).toEqual(['POST /api/v1/webhook-endpoints']);
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
      url: 'https://example.com/hook',
      types: ['instance.ready', 'instance.stopped', 'wallet.low_balance'],
      description: 'ops',
    });
    expect(res.stdout).toContain('Webhook endpoint created.');
    expect(res.stdout).toMatch(/Secret +whsec_c2VjcmV0/);
    expect(res.stdout).toContain(
      `The secret is shown only this once: store it now (rentgpu webhooks rotate ${ID} makes a new one).`,
    );

    // JSON: the answer unchanged (secret included) on stdout, the note on stderr.
    const json = await rentgpu(['webhooks', 'create', 'https://example.com/hook']);
    expect(JSON.parse(json.stdout)).toEqual(withSecret());
    expect(json.stderr).toContain('shown only this once');
    // No --type: the server's default (every type).
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ url: 'https://example.com/hook' });
  });

  it('refuses an unknown type before calling (exit 2)', async () => {
    const res = await rentgpu(['webhooks', 'create', 'https://e.com', '--type', 'instance.boom']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('instance.boom is not an event type.');
    expect(seen).toEqual([]);
  });

  it('list, show, update, enable, disable, delete, rotate, test', async () => {
    handler = (req) => {
      if (req.method === 'GET' && req.url === '/api/v1/webhook-endpoints') {
        return {
          json: [
            endpoint(),
            endpoint({ id: 'x', enabled: false, disabledReason: 'failing', types: ['*'] }),
          ],
        };
      }
      if (req.method === 'DELETE') return { status: 204 };
      if (req.url?.endsWith('/rotate-secret')) return { json: withSecret() };
      if (req.url?.endsWith('/test')) return { status: 202, json: { eventId: 'evt_9' } };
      return { json: endpoint() };
    };
    const list = await rentgpu(['webhooks', 'list'], { tty: true });
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +URL +TYPES +STATE +PENDING +DESCRIPTION$/);
    expect(lines[1]).toMatch(
      new RegExp(`^${ID} +https://example.com/hook +instance.ready +enabled +0 +ops$`),
    );
    expect(lines[2]).toContain('disabled (failing)');

    expect((await rentgpu(['webhooks', 'show', ID], { tty: true })).stdout).toMatch(/^ID +0b9c/);
    expect((await rentgpu(['webhooks', 'enable', ID], { tty: true })).stdout).toMatch(
      /^Enabled\.\n/,
    );
    expect((await rentgpu(['webhooks', 'disable', ID])).code).toBe(0);
    expect(
      (await rentgpu(['webhooks', 'update', ID, '--type', '*', '--description', ''])).code,
    ).toBe(0);
    const deleted = await rentgpu(['webhooks', 'delete', ID]);
    expect(JSON.parse(deleted.stdout)).toEqual({ deleted: ID });
    const rotated = await rentgpu(['webhooks', 'rotate', ID], { tty: true });
    expect(rotated.stdout).toContain('the previous one also signs for 24 h');
    expect(rotated.stdout).toMatch(/Secret +whsec_/);
    const test = await rentgpu(['webhooks', 'test', ID], { tty: true });
    expect(test.stdout).toBe(
      `Test event evt_9 written; its delivery: rentgpu webhooks deliveries ${ID}\n`,
    );

    expect(requests()).toEqual([
      'GET /api/v1/webhook-endpoints',
      `GET /api/v1/webhook-endpoints/${ID}`,
      `PATCH /api/v1/webhook-endpoints/${ID}`,
      `PATCH /api/v1/webhook-endpoints/${ID}`,
      `PATCH /api/v1/webhook-endpoints/${ID}`,
      `DELETE /api/v1/webhook-endpoints/${ID}`,
      `POST /api/v1/webhook-endpoints/${ID}/rotate-secret`,
      `POST /api/v1/webhook-endpoints/${ID}/test`,
    ]);
    expect(seen.slice(2, 5).map((r) => JSON.parse(r.body))).toEqual([
      { enabled: true },
      { enabled: false },
      { types: ['*'], description: '' },
    ]);
  });

  it('update with nothing to change is a usage error', async () => {
    const res = await rentgpu(['webhooks', 'update', ID]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Nothing to change: give --url, --type or --description.');
    expect(seen).toEqual([]);
  });

  it('deliveries with --status and --limit; resend', async () => {
    const delivery: WebhookDeliveryView = {
      id: 'd1',
      eventId: 'evt_4',
      eventType: 'instance.ready',
      status: 'failed',
      attempts: 12,
      nextAttemptAt: null,
      lastAttemptAt: new Date().toISOString(),
      lastStatus: 500,
      lastLatencyMs: 31,
      lastError: null,
      responseExcerpt: 'oops',
      createdAt: new Date().toISOString(),
    };
    handler = (req) =>
      req.method === 'GET'
        ? { json: [delivery, { ...delivery, id: 'd2', lastStatus: null, lastError: 'timed out' }] }
        : { json: { ...delivery, status: 'pending' } };
    const res = await rentgpu(
      ['webhooks', 'deliveries', ID, '--status', 'failed', '--limit', '5'],
      {
        tty: true,
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(seen[0]?.url).toBe(`/api/v1/webhook-endpoints/${ID}/deliveries?status=failed&limit=5`);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +EVENT +TYPE +STATUS +ATTEMPTS +LAST +NEXT +CREATED$/);
    expect(lines[1]).toMatch(/^d1 +evt_4 +instance.ready +failed +12 +HTTP 500 in 31 ms +- +/);
    expect(lines[2]).toContain('timed out');
    expect((await rentgpu(['webhooks', 'deliveries', ID, '--status', 'lost'])).code).toBe(2);

    const resend = await rentgpu(['webhooks', 'resend', ID, 'd1'], { tty: true });
    expect(resend.stdout).toBe(
      'Delivery d1 (evt_4, instance.ready) is pending: sending it again now.\n',
    );
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${ID}/deliveries/d1/resend`,
    });
  });
});

import { type Command, InvalidArgumentError, Option } from 'commander';
import { EVENT_TYPES } from '../../shared/contracts/events';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ROTATION_HOURS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
  type WebhookTestAnswer,
} from '../../shared/contracts/webhooks';
import { fields, table } from '../output';
import { localTime } from '../time';
import { type Ctx, positiveInt, UsageError } from './context';

/** `--type` of an endpoint: repeatable, comma-separated event types, or `*` for every type. */
function collectEndpointTypes(value: string, previous: string[] | undefined): string[] {
  const types = value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const type of types) {
    if (type !== '*' && !(EVENT_TYPES as readonly string[]).includes(type)) {
      throw new InvalidArgumentError(
        `${type} is not an event type. Types: ${EVENT_TYPES.join(', ')}; or * for every type.`,
      );
    }
  }
  return [...(previous ?? []), ...types];
}

function stateOf(e: WebhookEndpointView): string {
  if (e.enabled) return e.failingSince ? 'failing' : 'enabled';
  return e.disabledReason === 'failing' ? 'disabled (failing)' : 'disabled';
}

function endpointFields(e: WebhookEndpointView, more: [string, unknown][] = []): string {
  return fields([
    ['ID', e.id],
    ['URL', e.url],
    ['Description', e.description || null],
    ['Types', e.types.length === 0 ? '*' : e.types.join(', ')],
    ['State', stateOf(e)],
    ...(e.disabledAt ? [['Disabled', localTime(e.disabledAt)] as [string, unknown]] : []),
    ...(e.failingSince ? [['Failing since', localTime(e.failingSince)] as [string, unknown]] : []),
    ...(e.previousSecretUntil
      ? [['Old secret until', localTime(e.previousSecretUntil)] as [string, unknown]]
      : []),
    ['Pending', e.pending],
    ['Created', localTime(e.createdAt)],
    ...more,
  ]);
}

/** `webhooks …`: the account's endpoints, their secrets and deliveries (docs/decisions/027). */
export function registerWebhooks(root: Command, ctx: Ctx): void {
  const { api, show } = ctx;
  const path = (id: string, rest = '') => `/webhook-endpoints/${encodeURIComponent(id)}${rest}`;

  /** The secret, once: on a terminal below the endpoint; with JSON, in it (the note on stderr). */
  const showSecret = (e: WebhookEndpointWithSecret | undefined, intro: string) => {
    if (e === undefined) return;
    const note = `The secret is shown only this once: store it now (rentgpu webhooks rotate ${e.id} makes a new one).`;
    if (ctx.json()) ctx.io.err(`${note}\n`);
    show(e, () => `${intro}\n${endpointFields(e, [['Secret', e.secret]])}\n\n${note}`);
  };

  const webhooks = root
    .command('webhooks')
    .description('webhook endpoints: events sent to your URL, signed (Standard Webhooks)')
    .addHelpText(
      'after',
      `
Each delivery is a POST with the headers webhook-id (the event id), webhook-timestamp and
webhook-signature (HMAC-SHA256 under the endpoint's secret), body {"type","timestamp","data"}.
Failed deliveries are retried for three days; an endpoint failing that long is disabled.

Examples:
  rentgpu webhooks create https://example.com/rentgpu --type instance.ready --type instance.stopped
  rentgpu webhooks deliveries <id> --status failed
  rentgpu events list --type 'instance.*'  # the same events, read by cursor`,
    );

  webhooks
    .command('list')
    .description('your webhook endpoints')
    .action(async () =>
      show(
        await api<WebhookEndpointView[]>({ method: 'GET', path: '/webhook-endpoints' }),
        (rows) =>
          rows.length === 0
            ? 'No webhook endpoints. Add one: rentgpu webhooks create <url> --type <event-type>'
            : table(rows, [
                ['id', (e) => e.id],
                ['url', (e) => e.url],
                ['types', (e) => (e.types.length === 0 ? '*' : e.types)],
                ['state', stateOf],
                ['pending', (e) => e.pending],
                ['description', (e) => e.description || null],
              ]),
      ),
    );

  webhooks
    .command('create')
    .description('add an endpoint; prints its signing secret, the only time it is shown')
    .argument('<url>', 'where events are POSTed (https://…)')
    .option(
      '--type <type>',
      'an event type it receives (e.g. instance.ready); repeat it or separate with commas; default: every type',
      collectEndpointTypes,
    )
    .option('--description <text>', 'a note for yourself (at most 200 characters)')
    .action(async (url: string, options: { type?: string[]; description?: string }) =>
      showSecret(
        await api<WebhookEndpointWithSecret>({
          method: 'POST',
          path: '/webhook-endpoints',
          body: {
            url,
            ...(options.type ? { types: options.type } : {}),
            ...(options.description !== undefined ? { description: options.description } : {}),
          },
        }),
        'Webhook endpoint created.',
      ),
    );

  webhooks
    .command('show')
    .description('one endpoint')
    .argument('<id>', 'the endpoint id (from webhooks list)')
    .action(async (id: string) =>
      show(await api<WebhookEndpointView>({ method: 'GET', path: path(id) }), endpointFields),
    );

  const update = async (id: string, body: Record<string, unknown>, said: string) =>
    show(await api<WebhookEndpointView>({ method: 'PATCH', path: path(id), body }), (e) =>
      [said, endpointFields(e)].filter(Boolean).join('\n'),
    );

  webhooks
    .command('update')
    .description('change an endpoint: its URL, types or description')
    .argument('<id>', 'the endpoint id')
    .option('--url <url>', 'a new URL')
    .option(
      '--type <type>',
      'the event types it receives from now on (replaces the list; * for every type)',
      collectEndpointTypes,
    )
    .option('--description <text>', 'a new description ("" clears it)')
    .action(
      async (id: string, options: { url?: string; type?: string[]; description?: string }) => {
        const body = {
          ...(options.url !== undefined ? { url: options.url } : {}),
          ...(options.type ? { types: options.type } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
        };
        if (Object.keys(body).length === 0) {
          throw new UsageError('Nothing to change: give --url, --type or --description.');
        }
        await update(id, body, '');
      },
    );
  webhooks
    .command('enable')
    .description('send to it again, from its oldest pending delivery')
    .argument('<id>', 'the endpoint id')
    .action((id: string) => update(id, { enabled: true }, 'Enabled.'));
  webhooks
    .command('disable')
    .description('stop sending to it (deliveries wait until it is enabled)')
    .argument('<id>', 'the endpoint id')
    .action((id: string) => update(id, { enabled: false }, 'Disabled.'));

  webhooks
    .command('delete')
    .description('remove an endpoint and what was waiting to be sent to it')
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) => {
      await api({ method: 'DELETE', path: path(id) });
      if (!ctx.globals().explain) show({ deleted: id }, () => `Deleted webhook endpoint ${id}.`);
    });

  webhooks
    .command('rotate')
    .description(
      `a new signing secret, shown once; the old one keeps signing too for ${WEBHOOK_ROTATION_HOURS} h`,
    )
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) =>
      showSecret(
        await api<WebhookEndpointWithSecret>({ method: 'POST', path: path(id, '/rotate-secret') }),
        `New secret made; the previous one also signs for ${WEBHOOK_ROTATION_HOURS} h.`,
      ),
    );

  webhooks
    .command('test')
    .description('send it a test.ping event now (see it with webhooks deliveries)')
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) =>
      show(
        await api<WebhookTestAnswer>({ method: 'POST', path: path(id, '/test') }),
        (a) => `Test event ${a.eventId} written; its delivery: rentgpu webhooks deliveries ${id}`,
      ),
    );

  webhooks
    .command('deliveries')
    .description("an endpoint's deliveries, newest first")
    .argument('<id>', 'the endpoint id')
    .addOption(
      new Option('--status <status>', 'only these').choices([...WEBHOOK_DELIVERY_STATUSES]),
    )
    .option('--limit <n>', 'at most this many (1-100, default 50)', (value: string) => {
      const n = positiveInt('--limit')(value);
      if (n > 100) throw new InvalidArgumentError('--limit must be at most 100.');
      return n;
    })
    .action(async (id: string, options: { status?: string; limit?: number }) =>
      show(
        await api<WebhookDeliveryView[]>({
          method: 'GET',
          path: path(id, '/deliveries'),
          query: { status: options.status, limit: options.limit },
        }),
        (rows) =>
          rows.length === 0
            ? 'No deliveries.'
            : table(rows, [
                ['id', (d) => d.id],
                ['event', (d) => d.eventId],
                ['type', (d) => d.eventType],
                ['status', (d) => d.status],
                ['attempts', (d) => d.attempts],
                [
                  'last',
                  (d) =>
                    d.lastStatus !== null
                      ? `HTTP ${d.lastStatus}${d.lastLatencyMs !== null ? ` in ${d.lastLatencyMs} ms` : ''}`
                      : d.lastError,
                ],
                ['next', (d) => (d.status === 'pending' ? localTime(d.nextAttemptAt) : null)],
                ['created', (d) => localTime(d.createdAt)],
              ]),
      ),
    );

  webhooks
    .command('resend')
    .description('send one delivery again now (the same webhook-id: receivers deduplicate)')
    .argument('<id>', 'the endpoint id')
    .argument('<delivery-id>', 'the delivery (from webhooks deliveries)')
    .action(async (id: string, deliveryId: string) =>
      show(
        await api<WebhookDeliveryView>({
          method: 'POST',
          path: path(id, `/deliveries/${encodeURIComponent(deliveryId)}/resend`),
        }),
        (d) =>
          `Delivery ${d.id} (${d.eventId}, ${d.eventType}) is ${d.status}: sending it again now.`,
      ),
    );
}

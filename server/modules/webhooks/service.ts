import type { z } from 'zod';
import { eventIdOf } from '../../../shared/contracts/events';
import {
  type createWebhookEndpointBody,
  type listWebhookDeliveriesQuery,
  MAX_WEBHOOK_ENDPOINTS,
  type updateWebhookEndpointBody,
  WEBHOOK_ROTATION_HOURS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
} from '../../../shared/contracts/webhooks';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { conflict, limitReached, notFound, validationFailed } from '../../lib/errors';
import { hostTargetRefusal, type TargetCheck } from '../../lib/outbound-address';
import type { AppendEvent } from './delivery';
import { presentWebhookDelivery, presentWebhookEndpoint } from './presenter';
import { type WebhookEndpointRow, webhooksRepo } from './repo';
import { newWebhookSecret } from './signing';

type CreateBody = z.output<typeof createWebhookEndpointBody>;
type UpdateBody = z.output<typeof updateWebhookEndpointBody>;
type DeliveriesQuery = z.output<typeof listWebhookDeliveriesQuery>;

export interface WebhooksServiceDeps {
  db: Db;
  clock: Clock;
  /** The address rule's setting (ALLOW_PRIVATE_HOST_ADDRESSES) and how names are looked up. */
  targets: TargetCheck;
  /** NODE_ENV=production: only https URLs. */
  httpsOnly: boolean;
  appendEvent: AppendEvent;
}

const endpointNotFound = () => notFound('Webhook endpoint');

/**
 * An account's webhook endpoints and their delivery logs (docs/decisions/027): the same
 * operations for the public API and the web's Settings → Webhooks.
 */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db, clock } = deps;

  /**
   * The URL must be one the server may send to: https in production, and a host whose text
   * and every address it resolves to now pass the address rule (shared/rules/target-address.ts;
   * each attempt checks again). Otherwise 400 VALIDATION_FAILED naming `url`.
   */
  async function checkUrl(url: string): Promise<void> {
    const parsed = new URL(url);
    if (deps.httpsOnly && parsed.protocol !== 'https:') {
      throw validationFailed({ url: ['The URL must start with https://'] });
    }
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    const refusal = await hostTargetRefusal(host, deps.targets);
    if (refusal) {
      throw validationFailed({
        url: [`The URL must reach a public address on the internet: ${refusal}.`],
      });
    }
  }

  async function present(rows: WebhookEndpointRow[]): Promise<WebhookEndpointView[]> {
    const pending = await webhooksRepo.pendingCounts(
      db,
      rows.map((r) => r.id),
    );
    const now = clock.now();
    return rows.map((r) => presentWebhookEndpoint(r, pending.get(r.id) ?? 0, now));
  }

  async function presentOne(row: WebhookEndpointRow): Promise<WebhookEndpointView> {
    const [view] = await present([row]);
    if (!view) throw endpointNotFound();
    return view;
  }

  async function owned(userId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await webhooksRepo.find(db, userId, id);
    if (!row) throw endpointNotFound();
    return row;
  }

  return {
    async list(userId: string): Promise<WebhookEndpointView[]> {
      return present(await webhooksRepo.listByUser(db, userId));
    },

    async get(userId: string, id: string): Promise<WebhookEndpointView> {
      return presentOne(await owned(userId, id));
    },

    /** A new endpoint, with its secret: the only time it is shown. */
    async create(userId: string, body: CreateBody): Promise<WebhookEndpointWithSecret> {
      await checkUrl(body.url);
      const row = await db.transaction(async (tx) => {
        await webhooksRepo.lockAccount(tx, userId);
        if ((await webhooksRepo.countByUser(tx, userId)) >= MAX_WEBHOOK_ENDPOINTS) {
          throw limitReached('webhook endpoints', MAX_WEBHOOK_ENDPOINTS);
        }
        return webhooksRepo.insert(tx, {
          userId,
          url: body.url,
          description: body.description,
          types: body.types.length === 0 ? ['*'] : [...new Set(body.types)],
          secret: newWebhookSecret(),
          fromEventId: await webhooksRepo.logEnd(tx),
          createdAt: clock.now(),
        });
      });
      return { ...(await presentOne(row)), secret: row.secret };
    },

    /**
     * Changes what was sent. `enabled: false` disables it (its waiting deliveries wait,
     * unscheduled); `enabled: true` enables it again: its run of failures is forgotten and its
     * waiting deliveries are due now, oldest first in each subject.
     */
    async update(userId: string, id: string, body: UpdateBody): Promise<WebhookEndpointView> {
      const current = await owned(userId, id);
      if (body.url !== undefined && body.url !== current.url) await checkUrl(body.url);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const set: Parameters<typeof webhooksRepo.update>[3] = {};
        if (body.url !== undefined) set.url = body.url;
        if (body.description !== undefined) set.description = body.description;
        if (body.types !== undefined) {
          set.types = body.types.length === 0 ? ['*'] : [...new Set(body.types)];
        }
        const wasEnabled = current.disabledAt === null;
        if (body.enabled === false && wasEnabled) {
          Object.assign(set, { disabledAt: now, disabledReason: 'owner' });
          await webhooksRepo.holdPending(tx, id);
        } else if (body.enabled === true && !wasEnabled) {
          Object.assign(set, { disabledAt: null, disabledReason: null, failingSince: null });
          await webhooksRepo.resumePending(tx, id, now);
        }
        if (Object.keys(set).length === 0) return current;
        const updated = await webhooksRepo.update(tx, userId, id, set);
        if (!updated) throw endpointNotFound();
        return updated;
      });
      return presentOne(row);
    },

    /** Deletes it and its delivery log: nothing more is sent to it. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await webhooksRepo.remove(db, userId, id))) throw endpointNotFound();
    },

    /**
     * A new secret, shown once; for WEBHOOK_ROTATION_HOURS the previous one signs too (each
     * attempt carries both signatures), so receivers can switch without losing a delivery.
     */
    async rotateSecret(userId: string, id: string): Promise<WebhookEndpointWithSecret> {
      const current = await owned(userId, id);
      const now = clock.now();
      const secret = newWebhookSecret();
      const row = await webhooksRepo.update(db, userId, id, {
        secret,
        previousSecret: current.secret,
        previousUntil: new Date(now.getTime() + WEBHOOK_ROTATION_HOURS * 3_600_000),
      });
      if (!row) throw endpointNotFound();
      return { ...(await presentOne(row)), secret };
    },

    /**
     * "Send a test event": a `test.ping` event in the log, which the webhooks reader sends to
     * this endpoint only (whatever its types). Answers the event's id.
     */
    async sendTest(userId: string, id: string): Promise<{ eventId: string }> {
      const endpoint = await owned(userId, id);
      if (endpoint.disabledAt)
        throw conflict('Enable the endpoint before sending it a test event.');
      const eventId = await db.transaction((tx) =>
        deps.appendEvent(tx, {
          type: 'test.ping',
          at: clock.now(),
          accountUserId: userId,
          subjectKind: 'webhook_endpoint',
          subjectId: id,
          data: { endpointId: id, url: endpoint.url, message: 'A test event from RentGPU' },
        }),
      );
      return { eventId: eventIdOf(eventId) };
    },

    /** The endpoint's deliveries, newest event first. */
    async deliveries(
      userId: string,
      id: string,
      query: DeliveriesQuery,
    ): Promise<WebhookDeliveryView[]> {
      await owned(userId, id);
      return (await webhooksRepo.listDeliveries(db, id, query)).map(presentWebhookDelivery);
    },

    /**
     * "Send again": the same delivery row made pending and due now (same event, webhook-id and
     * body; a new run of retries). 409 while an attempt of it runs or the endpoint is disabled.
     */
    async resend(userId: string, id: string, deliveryId: string): Promise<WebhookDeliveryView> {
      const endpoint = await owned(userId, id);
      if (!(await webhooksRepo.findDelivery(db, id, deliveryId))) throw notFound('Delivery');
      if (endpoint.disabledAt) throw conflict('Enable the endpoint before sending again.');
      const row = await webhooksRepo.resend(db, id, deliveryId, clock.now());
      if (!row) throw conflict('This delivery is being sent right now; try again in a moment.');
      return presentWebhookDelivery(row);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

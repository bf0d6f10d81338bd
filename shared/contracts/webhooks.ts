import { z } from 'zod';
import { EVENT_TYPES } from './events';
import { uuidIdParam } from './params';

/**
 * Webhook endpoints and their deliveries (docs/decisions/027): the same shapes on the public
 * API (`/api/v1/webhook-endpoints`, API key) and the web's Settings → Webhooks
 * (`/api/webhook-endpoints`, session).
 */

export const MAX_WEBHOOK_ENDPOINTS = 10;
/** `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How long the previous secret keeps signing after a rotation. */
export const WEBHOOK_ROTATION_HOURS = 24;

const webhookUrl = z
  .string()
  .trim()
  .min(1, { message: 'Enter the URL of your endpoint' })
  .max(2000, { message: 'The URL must be at most 2000 characters' })
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'Enter a full http(s) URL, such as https://example.com/rentgpu' },
  );

/** Event types an endpoint receives; `*` (or an empty list) is every type. */
const webhookTypes = z
  .array(z.union([z.enum(EVENT_TYPES), z.literal('*')]), {
    message: 'types must be a list of event types',
  })
  .max(EVENT_TYPES.length + 1)
  .default(['*']);

export const createWebhookEndpointBody = z.object({
  url: webhookUrl,
  types: webhookTypes,
  description: z.string().trim().max(200, { message: 'At most 200 characters' }).default(''),
});
export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointBody>;

export const updateWebhookEndpointBody = z.object({
  url: webhookUrl.optional(),
  types: z.array(z.union([z.enum(EVENT_TYPES), z.literal('*')])).optional(),
  description: z.string().trim().max(200, { message: 'At most 200 characters' }).optional(),
  /** false disables it; true enables it again and resumes from its oldest pending delivery. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointBody = z.input<typeof updateWebhookEndpointBody>;

export const webhookEndpointIdParam = uuidIdParam('Not a webhook endpoint id');
export const webhookDeliveryParams = z.object({
  id: z.string().uuid({ message: 'Not a webhook endpoint id' }),
  deliveryId: z.string().uuid({ message: 'Not a delivery id' }),
});

export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  types: z.array(z.string()),
  enabled: z.boolean(),
  /** Set when it was disabled: by its owner, or after failing for three days. */
  disabledAt: z.string().nullable(),
  disabledReason: z.enum(['owner', 'failing']).nullable(),
  /** The first failed attempt of the current run of failures; null when the last one succeeded. */
  failingSince: z.string().nullable(),
  /** Until when the previous secret still signs (after a rotation); null otherwise. */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
  /** Deliveries waiting (to be sent or retried). */
  pending: z.number().int(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

/** The answer to a create or a rotation: the only time the secret is shown. */
export const webhookEndpointWithSecret = webhookEndpointView.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecret>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  /** pending (waiting or retrying), delivered (a 2xx), failed (gave up after three days). */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** The last attempt's HTTP status; null when no answer came (refused, timed out…). */
  lastStatus: z.number().int().nullable(),
  lastLatencyMs: z.number().int().nullable(),
  /** Why the last attempt failed without a status (timeout, refused address…). */
  lastError: z.string().nullable(),
  /** The first 1 KiB of the last answer's body. */
  responseExcerpt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const listWebhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number from 1 to 100' })
    .int({ message: 'limit must be a number from 1 to 100' })
    .min(1, { message: 'limit must be a number from 1 to 100' })
    .max(100, { message: 'limit must be a number from 1 to 100' })
    .default(50),
});

/** GET …/webhook-endpoints: the account's endpoints, oldest first. */
export const webhookEndpointList = z.array(webhookEndpointView);
/** GET …/webhook-endpoints/:id/deliveries: newest event first. */
export const webhookDeliveryList = z.array(webhookDeliveryView);
/** POST …/webhook-endpoints/:id/test (202): the `test.ping` event written; its delivery follows. */
export const webhookTestAnswer = z.object({ eventId: z.string() });
export type WebhookTestAnswer = z.infer<typeof webhookTestAnswer>;

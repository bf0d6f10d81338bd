import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  createWebhookEndpointBody,
  listWebhookDeliveriesQuery,
  updateWebhookEndpointBody,
  webhookDeliveryList,
  webhookDeliveryParams,
  webhookDeliveryView,
  webhookEndpointIdParam,
  webhookEndpointList,
  webhookEndpointView,
  webhookEndpointWithSecret,
  webhookTestAnswer,
} from '../../../shared/contracts/webhooks';

/**
 * How one set of routes reaches the webhook operations: the web's session routes
 * (`/api/webhook-endpoints`, routes.ts) and the public API's (`/webhook-endpoints` under
 * /api/v1, API key, modules/public-api/webhook-routes.ts) — the same shapes on both.
 */
export interface WebhookRouteStyle {
  /** The collection's path. */
  base: string;
  /** Whose endpoints: the session's user or the API key's. */
  userOf(request: FastifyRequest): string;
  preValidation?: preValidationAsyncHookHandler;
  /** The route's config: the key permission (read for reads, write for changes), idempotency. */
  config(change: boolean): Record<string, unknown>;
  /** The OpenAPI words (public API only). */
  documented: boolean;
}

export function registerWebhookOperations(
  fastify: FastifyInstance,
  style: WebhookRouteStyle,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { webhooks } = app.deps;
  const { base, userOf } = style;
  const pre = style.preValidation ? { preValidation: style.preValidation } : {};
  const doc = (operationId: string, summary: string, description?: string) =>
    style.documented
      ? { tags: ['Webhooks'], operationId, summary, ...(description ? { description } : {}) }
      : {};

  app.get(
    base,
    {
      ...pre,
      config: style.config(false),
      schema: {
        ...doc('listWebhookEndpoints', 'Your webhook endpoints'),
        response: { 200: webhookEndpointList, ...errorResponses },
      },
    },
    async (request) => webhooks.service.list(userOf(request)),
  );

  app.post(
    base,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc(
          'createWebhookEndpoint',
          'Add a webhook endpoint',
          'Events of the listed types (`*`: all) are POSTed to the URL, signed by the Standard Webhooks specification with the `secret` in the answer: the only time it is shown. The URL must reach a public address (https in production).',
        ),
        body: createWebhookEndpointBody,
        response: { 201: webhookEndpointWithSecret, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await webhooks.service.create(userOf(request), request.body);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    },
  );

  app.get(
    `${base}/:id`,
    {
      ...pre,
      config: style.config(false),
      schema: {
        ...doc('getWebhookEndpoint', 'One webhook endpoint'),
        params: webhookEndpointIdParam,
        response: { 200: webhookEndpointView, ...errorResponses },
      },
    },
    async (request) => webhooks.service.get(userOf(request), request.params.id),
  );

  app.patch(
    `${base}/:id`,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc(
          'updateWebhookEndpoint',
          'Change a webhook endpoint',
          '`enabled: false` disables it; `enabled: true` enables it again and sends its waiting deliveries, oldest first.',
        ),
        params: webhookEndpointIdParam,
        body: updateWebhookEndpointBody,
        response: { 200: webhookEndpointView, ...errorResponses },
      },
    },
    async (request) => webhooks.service.update(userOf(request), request.params.id, request.body),
  );

  app.delete(
    `${base}/:id`,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc('deleteWebhookEndpoint', 'Delete a webhook endpoint'),
        params: webhookEndpointIdParam,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      await webhooks.service.remove(userOf(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:id/rotate-secret`,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc(
          'rotateWebhookSecret',
          'Rotate the signing secret',
          'Answers the new secret (shown once). For 24 hours the previous secret signs too: each delivery carries both signatures.',
        ),
        params: webhookEndpointIdParam,
        response: { 200: webhookEndpointWithSecret, ...errorResponses },
      },
    },
    async (request, reply) => {
      const rotated = await webhooks.service.rotateSecret(userOf(request), request.params.id);
      reply.header('cache-control', 'no-store');
      return rotated;
    },
  );

  app.post(
    `${base}/:id/test`,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc(
          'sendWebhookTestEvent',
          'Send a test event',
          'Writes a `test.ping` event that is delivered to this endpoint only; its delivery appears in the log.',
        ),
        params: webhookEndpointIdParam,
        response: { 202: webhookTestAnswer, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await webhooks.service.sendTest(userOf(request), request.params.id)),
  );

  app.get(
    `${base}/:id/deliveries`,
    {
      ...pre,
      config: style.config(false),
      schema: {
        ...doc('listWebhookDeliveries', "A webhook endpoint's delivery log"),
        params: webhookEndpointIdParam,
        querystring: listWebhookDeliveriesQuery,
        response: { 200: webhookDeliveryList, ...errorResponses },
      },
    },
    async (request) =>
      webhooks.service.deliveries(userOf(request), request.params.id, request.query),
  );

  app.post(
    `${base}/:id/deliveries/:deliveryId/resend`,
    {
      ...pre,
      config: style.config(true),
      schema: {
        ...doc(
          'resendWebhookDelivery',
          'Send a delivery again',
          'The same delivery (same event, `webhook-id` and body) is made pending and sent now, with a new run of retries.',
        ),
        params: webhookDeliveryParams,
        response: { 200: webhookDeliveryView, ...errorResponses },
      },
    },
    async (request) =>
      webhooks.service.resend(userOf(request), request.params.id, request.params.deliveryId),
  );
}

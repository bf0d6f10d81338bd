import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { registerApiKeyAccess } from './access';
import { registerAccountRoutes } from './account-routes';
import { registerBillingRoutes } from './billing-routes';
import { registerEventRoutes } from './event-routes';
import { registerInstanceRoutes } from './instance-routes';
import { registerListingRoutes } from './listing-routes';
import { registerProviderRoutes } from './provider-routes';
import { registerTemplateRoutes } from './template-routes';
import { registerWebhookRoutes } from './webhook-routes';

/**
 * The public API, registered under /api/v1: every route takes an API key
 * (modules/public-api/access.ts), counts against the key's hourly tier and declares the
 * permission it needs; every POST, PATCH, PUT and DELETE honours Idempotency-Key. The OpenAPI
 * document is generated from these declarations (openapi.ts). See docs/architecture.md,
 * Public API.
 */
export async function publicApiRoutes(fastify: FastifyInstance): Promise<void> {
  registerApiKeyAccess(fastify);
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Registered in this order, which is the OpenAPI document's order of paths.
  registerListingRoutes(app);
  registerInstanceRoutes(app);
  registerAccountRoutes(app);
  registerTemplateRoutes(app);
  registerBillingRoutes(app);
  registerProviderRoutes(app);
  registerEventRoutes(app);
  registerWebhookRoutes(app);

  // ---- The document itself ----------------------------------------------------------------

  app.get(
    '/openapi.json',
    {
      config: { permission: 'none', publicRead: true },
      schema: {
        hide: true,
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses },
      },
    },
    async () => fastify.swagger() as unknown as Record<string, unknown>,
  );
}

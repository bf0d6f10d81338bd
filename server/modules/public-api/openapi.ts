import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
} from 'fastify-type-provider-zod';
import {
  PUBLIC_API_BASE,
  RATE_WINDOW_SECONDS,
  TIER_LIMITS,
} from '../../../shared/contracts/public-api';
import { GUESS_LIMITS } from '../../lib/guess-limits';

/** The document's version: v1 of the API; raised when a change is visible to clients. */
export const OPENAPI_VERSION = '1.0.0';

const zodToJsonConfig = { target: 'draft-2020-12' } as const;
const toJsonSchema = createJsonSchemaTransform({ zodToJsonConfig });
const baseTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });

const tierName = (tier: string) => `${tier[0]?.toUpperCase()}${tier.slice(1)}`;

/**
 * The rate tiers as data, the document's `x-rate-limit-tiers` extension: the API Reference
 * page and the documentation's API tab render them from here.
 */
export const RATE_LIMIT_TIERS_EXTENSION = {
  windowSeconds: RATE_WINDOW_SECONDS,
  tiers: Object.entries(TIER_LIMITS).map(([tier, limit]) => ({
    tier,
    name: tierName(tier),
    requestsPerHour: limit,
  })),
};

/** Top-level `x-` keys of the document (@fastify/swagger copies them as they are). */
const documentExtensions: Record<`x-${string}`, unknown> = {
  'x-rate-limit-tiers': RATE_LIMIT_TIERS_EXTENSION,
};

const tiers = Object.entries(TIER_LIMITS)
  .map(([tier, limit]) => `| ${tierName(tier)} | ${limit.toLocaleString('en-US')} |`)
  .join('\n');

export const OPENAPI_DESCRIPTION = `Everything the RentGPU web app does with GPUs, as a documented API.

**Authentication.** Every call takes an API key as \`Authorization: Bearer <key>\`. Create keys in Settings → API Keys. A key carries permissions: \`read\` for reads, \`write\` for changes, \`admin\` for API keys (an admin key may do everything). A missing, unknown, revoked or expired key is 401; a missing permission is 403. Wrong keys are limited: after ${GUESS_LIMITS.apiKey.perAddress.limit} in ${GUESS_LIMITS.apiKey.perAddress.windowMs / 60_000} minutes from one address, or against one key prefix, a wrong key is 429 \`RATE_LIMITED\` with \`Retry-After\` (a right key is never refused by that limit).

**Rate limits.** Each key may make a number of requests per hour, by its tier:

| Tier | Requests per hour |
| --- | --- |
${tiers}

Every answer carries \`RateLimit-Policy\` and \`RateLimit\` (IETF draft-ietf-httpapi-ratelimit-headers: quota \`q\`, window \`w\` in seconds, remaining \`r\`, seconds to reset \`t\`); a 429 also carries \`Retry-After\`.

**Billing from ready.** Compute is charged from the moment an instance is ready — its host has verified a login with your key — never for the image download, the boot, the setup or a start; storage from create. A booked instance's hours run from ready; a metered instance pays its first compute minute when it becomes ready, then each minute at its start. An instance that is never ready costs nothing: everything it paid comes back. Until it is ready, \`computeChargeNote\` says "provisioning — not charged" (or "starting — not charged"), and its invoice has a line for those minutes.

**Spend caps.** An account (Settings → Billing) and each API key (PUT /api-keys/{id}/caps) may have a daily (UTC day) and a monthly (calendar month) cap. A cap counts everything taken from the wallet for the instances in its scope: a booked rental's hours and its $2.50 storage add-on, a metered instance's storage minute at create, its compute minute at ready and every compute and storage minute after. Refunds do not lower what was spent. A launch that would cross a cap (leaving no room for the first compute minute of a metered instance) is 402 \`SPEND_CAP_REACHED\`; a minute that would cross one is not charged, and the scope's running metered instances are stopped (never deleted). Nothing else is counted: buying credits, refunds, outage credits, and a demo account's unspent credits expiring are not spend.

**Idempotency.** Every POST, PUT, PATCH and DELETE accepts an \`Idempotency-Key\` header (1–255 printable ASCII). A retry with the same key within 24 hours returns the stored answer with \`Idempotent-Replayed: true\`; the same key with another request is 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first is still running, 409 \`IDEMPOTENCY_KEY_IN_USE\`.

**Errors.** Every error answer is \`{"error": {"code", "message", "details"}}\` with a stable code: 400 \`VALIDATION_FAILED\` (\`details.fields\`), 401 \`UNAUTHENTICATED\`, 402 \`INSUFFICIENT_CREDITS\` (\`details.required\`, \`details.available\`, \`details.currency\`), 403 \`FORBIDDEN\`, 404 \`NOT_FOUND\`, 409 (\`INVALID_STATE_TRANSITION\`, \`CAPACITY_UNAVAILABLE\`, \`HOST_OFFLINE\`, \`LISTING_UNAVAILABLE\`), 429 \`RATE_LIMITED\`, 500 \`INTERNAL\`.

**Pagination.** Lists answer a page and \`nextCursor\`; pass it as \`cursor\` for the next page (null on the last).`;

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const rateLimitHeaders = {
  'RateLimit-Policy': {
    description: 'The key\'s tier: `"<tier>";q=<requests per window>;w=<window seconds>`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'This window: `"<tier>";r=<requests remaining>;t=<seconds to reset>`.',
    schema: { type: 'string' },
  },
};
const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '4XX': 'The request was refused: the error body says why (a stable `code`, a `message`).',
  '5XX': 'The server failed: the error body, with the request id in `X-Request-Id`.',
};

type Operation = {
  parameters?: { name: string; in: string }[];
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>;
  security?: unknown[];
};

/**
 * What every operation of the public API shares but no route schema says: the
 * `Idempotency-Key` header of the changing calls, the RateLimit headers of every answer, and
 * the 401 and 429 answers every keyed call can give (429 with `Retry-After`).
 */
export function describeCommonBehaviour<D>(document: D): D {
  const doc = document as {
    paths?: Record<string, Record<string, Operation>>;
    components?: { headers?: Record<string, unknown> };
  };
  const paths = doc.paths ?? {};
  doc.components ??= {};
  doc.components.headers = { ...doc.components.headers, ...rateLimitHeaders };
  const errorRef = { $ref: '#/components/schemas/Error' };
  const errorContent = { 'application/json': { schema: errorRef } };
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (
        WRITE_METHODS.has(method) &&
        !operation.parameters?.some(
          (p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
        )
      ) {
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Makes a retry safe: within 24 hours the same key returns the stored answer (`Idempotent-Replayed: true`); with another request, 422; while the first runs, 409.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
          } as { name: string; in: string },
        ];
      }
      operation.responses ??= {};
      const responses = operation.responses;
      if (operation.security === undefined || operation.security.length > 0) {
        responses['401'] ??= {
          description: 'No API key, or one that is unknown, revoked or expired.',
          content: errorContent,
        } as never;
      }
      responses['429'] ??= {
        description: "Over the key's hourly quota: wait `Retry-After` seconds.",
        headers: {
          'Retry-After': {
            description: 'Seconds until the window resets.',
            schema: { type: 'integer' },
          },
        },
        content: errorContent,
      } as never;
      for (const [status, response] of Object.entries(responses)) {
        if (!response.description || response.description === 'Default Response') {
          response.description = STATUS_TEXT[status] ?? 'See the error body.';
        }
        response.headers = {
          'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
          RateLimit: { $ref: '#/components/headers/RateLimit' },
          ...response.headers,
        };
      }
    }
  }
  return document;
}

/** Routes in the document: the public API's, not the host agents' protocol (ADR 008, ADR 012). */
export function isPublicApiRoute(url: string): boolean {
  return url.startsWith(`${PUBLIC_API_BASE}/`) && !url.startsWith(`${PUBLIC_API_BASE}/agents`);
}

/**
 * The document's component schemas in order of name: as generated they come in the order the
 * modules defining them are loaded, so moving a schema from one file to another would reorder
 * the committed document without changing it.
 */
function schemasByName<D>(document: D): D {
  const doc = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (doc.components && schemas) {
    doc.components.schemas = Object.fromEntries(
      Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  }
  return document;
}

/**
 * The OpenAPI 3.1 document of /api/v1, generated by @fastify/swagger from the routes' zod
 * schemas (fastify-type-provider-zod, JSON Schema 2020-12). Registered before the routes,
 * so it sees each one; only public API routes are kept. Served at GET /api/v1/openapi.json
 * and written to docs/openapi.json by `npm run openapi`.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'RentGPU public API',
        version: OPENAPI_VERSION,
        description: OPENAPI_DESCRIPTION,
      },
      servers: [{ url: PUBLIC_API_BASE, description: 'This server' }],
      tags: [
        { name: 'GPUs', description: 'The marketplace' },
        { name: 'Instances', description: 'GPU machines of both billing plans' },
        {
          name: 'Rentals',
          description: "The documentation page's older reading: booked instances as rentals",
        },
        { name: 'Account', description: 'Balance and usage' },
        { name: 'SSH keys', description: 'Public keys installed on new instances' },
        { name: 'API keys', description: 'Needs the admin permission' },
        {
          name: 'Provider',
          description: 'Your listings and hosts, with an approved provider profile',
        },
        {
          name: 'Events',
          description:
            'Every state and money change of your account, in order, read by cursor (kept 30 days)',
        },
        {
          name: 'Webhooks',
          description:
            'Endpoints that receive your events, signed by the Standard Webhooks specification',
        },
      ],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key from Settings → API Keys, such as rgpu_…',
          },
        },
      },
      security: [{ apiKey: [] }],
      ...documentExtensions,
    },
    transform(input) {
      if (!isPublicApiRoute(input.url)) return { schema: { hide: true }, url: input.url };
      // The permission the route declares, as the operation's security requirement: OpenAPI 3.1
      // lets a non-OAuth scheme list the roles an operation needs.
      const permission = input.route.config?.permission ?? 'read';
      const schema =
        permission === 'none'
          ? input.schema
          : { ...input.schema, security: [{ apiKey: [permission] }] };
      return toJsonSchema({ ...input, schema });
    },
    transformObject: (input) => describeCommonBehaviour(schemasByName(baseTransformObject(input))),
  });
}

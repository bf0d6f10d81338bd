import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, noContent } from '../../../shared/contracts/errors';
import {
  apiKeyCapsBody,
  apiKeyIdParam,
  apiKeyView,
  TIER_LIMITS,
} from '../../../shared/contracts/public-api';
import { accountUsage, publicAccount } from '../../../shared/contracts/public-api-account';
import { addSshKeyBody, sshKeyIdParam, sshKeyView } from '../../../shared/contracts/ssh-keys';
import { microsToDollars } from '../../../shared/rules/money';
import { presentApiKey } from '../api-keys/presenter';
import { type InstanceRow, planName } from '../instances/service';
import { presentSshKey } from '../ssh-keys/presenter';
import { keyIdempotency, requireKey } from './access';
import { instanceCostMicros, presentPublicInstance } from './presenter';

const USAGE_INSTANCES = 500;

/**
 * The caller's account (registered inside publicApiRoutes): balance and this key, what the
 * instances have cost, SSH keys, and API keys (admin).
 */
export function registerAccountRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users, sshKeys, apiKeys, clock, instances, payments } = app.deps;

  // ---- Account ----------------------------------------------------------------------------

  app.get(
    '/account',
    {
      schema: {
        tags: ['Account'],
        operationId: 'getAccount',
        summary: 'Your account, balance and this key',
        response: { 200: publicAccount, ...errorResponses },
      },
    },
    async (request) => {
      const key = requireKey(request);
      const profile = await users.getProfile(key.userId);
      return {
        id: profile.id,
        email: profile.email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        balance: microsToDollars(profile.balanceMicros),
        currency: 'USD' as const,
        apiKey: {
          id: key.keyId,
          permissions: key.permissions,
          rateTier: key.rateTier,
          requestsPerHour: TIER_LIMITS[key.rateTier],
        },
        paymentsSandbox: payments.setup().sandbox === true,
      };
    },
  );

  app.get(
    '/account/usage',
    {
      schema: {
        tags: ['Account'],
        operationId: 'getUsage',
        summary: 'What your instances have cost',
        description: `Your newest ${USAGE_INSTANCES} instances with what each has cost so far, and their total.`,
        response: { 200: accountUsage, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const rows = await instances.listPageByUser(userId, { limit: USAGE_INSTANCES });
      let total = 0n;
      const lines = rows.map(({ instance, listing }) => {
        const cost = instanceCostMicros(instance);
        total += cost;
        return {
          instanceId: instance.id,
          gpuModel: listing.model,
          billingPlan: planName(instance),
          status: presentPublicInstance({ instance, listing } as InstanceRow).status,
          startedAt: instance.startTime.toISOString(),
          endedAt: instance.endTime?.toISOString() ?? null,
          cost: microsToDollars(cost),
        };
      });
      return { currency: 'USD' as const, totalCost: microsToDollars(total), instances: lines };
    },
  );

  // ---- SSH keys ---------------------------------------------------------------------------

  app.get(
    '/ssh-keys',
    {
      schema: {
        tags: ['SSH keys'],
        operationId: 'listSshKeys',
        summary: 'Your SSH public keys',
        response: { 200: z.object({ sshKeys: z.array(sshKeyView) }), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { sshKeys: (await sshKeys.list(userId)).map(presentSshKey) };
    },
  );

  app.post(
    '/ssh-keys',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['SSH keys'],
        operationId: 'addSshKey',
        summary: 'Add an SSH public key',
        description: 'Installed on every instance created afterwards.',
        body: addSshKeyBody,
        response: { 201: z.object({ sshKey: sshKeyView }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      const row = await sshKeys.add(userId, request.body);
      return reply.status(201).send({ sshKey: presentSshKey(row) });
    },
  );

  app.delete(
    '/ssh-keys/:id',
    {
      config: { permission: 'write', ...keyIdempotency },
      schema: {
        tags: ['SSH keys'],
        operationId: 'removeSshKey',
        summary: 'Remove an SSH public key',
        params: sshKeyIdParam,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      await sshKeys.remove(userId, request.params.id);
      return reply.status(204).send();
    },
  );

  // ---- API keys (admin) -------------------------------------------------------------------

  app.get(
    '/api-keys',
    {
      config: { permission: 'admin' },
      schema: {
        tags: ['API keys'],
        operationId: 'listApiKeys',
        summary: 'Your API keys (admin permission)',
        response: { 200: z.object({ apiKeys: z.array(apiKeyView) }), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { apiKeys: (await apiKeys.list(userId)).map(presentApiKey) };
    },
  );

  app.put(
    '/api-keys/:id/caps',
    {
      config: { permission: 'admin', ...keyIdempotency },
      schema: {
        tags: ['API keys'],
        operationId: 'setApiKeyCaps',
        summary: "Set an API key's spend caps (admin permission)",
        description:
          'Daily (UTC day) and monthly (calendar month) caps in dollars on what the instances this key launches take from the wallet (booked hours and the $2.50 storage add-on, every compute and storage minute: see Spend caps above); null removes one. When a charge would cross a cap, the running metered instances the key launched are stopped (never deleted) and its launches answer 402 `SPEND_CAP_REACHED` with `cap`, `spent` and `period`. The account has caps of its own (Settings → Billing).',
        params: apiKeyIdParam,
        body: apiKeyCapsBody,
        response: { 200: z.object({ apiKey: apiKeyView }), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      const row = await apiKeys.setCaps(userId, request.params.id, request.body);
      return { apiKey: presentApiKey(row) };
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      config: { permission: 'admin', ...keyIdempotency },
      schema: {
        tags: ['API keys'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key (admin permission)',
        params: apiKeyIdParam,
        response: { 204: noContent, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      await apiKeys.revoke(userId, request.params.id, clock.now());
      return reply.status(204).send();
    },
  );
}

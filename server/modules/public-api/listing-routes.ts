import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { gpuListingsPage, publicListingsQuery } from '../../../shared/contracts/public-api';
import { sendJsonText } from '../../lib/json-text';
import { requireKey } from './access';

/** The marketplace through the public API (registered inside publicApiRoutes). */
export function registerListingRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { listings, clock, readCache } = app.deps;

  /**
   * A demo visitor's sandbox provider, remembered a while: it is made with the account, before
   * any key exists, and never changes (ADR 010).
   */
  const sandboxes = new Map<string, { id: number | undefined; until: number }>();
  async function sandboxOf(userId: string): Promise<number | undefined> {
    const at = Date.now();
    const hit = sandboxes.get(userId);
    if (hit && hit.until > at) return hit.id;
    const id = await listings.sandboxProviderOf(userId);
    if (sandboxes.size >= 10_000) sandboxes.clear();
    sandboxes.set(userId, { id, until: at + 60_000 });
    return id;
  }

  app.get(
    '/gpu-listings',
    {
      schema: {
        tags: ['GPUs'],
        operationId: 'listGpus',
        summary: 'Available GPUs',
        description:
          'The marketplace, a page at a time (`limit` up to 100, `cursor` from the last page): only listings whose host can run them now. Filter by `model` (search), `gpuType`, `kind`, `gpuCount` (GPUs per instance), `minVramGb` (per GPU), `minReliability` (uptime percent over 30 days) and `maxGpuHourPrice`; sort by `price-asc`, `price-desc`, `memory`, `performance` or `gpu-price-asc` (price per GPU-hour).',
        querystring: publicListingsQuery,
        response: { 200: gpuListingsPage, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = requireKey(request);
      // A demo visitor's own sandbox listings join their view only (ADR 010).
      const sandbox = await sandboxOf(userId);
      // Pages are cached as bytes like the marketplace's (lib/read-cache.ts): every write that
      // changes listings clears them.
      const key = `v1:listings:${sandbox ?? ''}:${JSON.stringify(request.query)}`;
      const page = await readCache.getOrLoad(key, async () => {
        // The listings come as JSON text in the public shape (listings/page-query.ts).
        const { json, nextCursor } = await listings.page(request.query, {
          view: 'public',
          viewerSandboxId: sandbox,
          now: clock.now(),
        });
        const answer = `{"gpus":${json},"nextCursor":${JSON.stringify(nextCursor)}}`;
        return { body: answer, nextCursor };
      });
      return sendJsonText(reply, page.body);
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../shared/contracts/errors';
import { templatesList } from '../../../shared/contracts/public-api';
import { requireKey } from './access';
import { listTemplates } from './templates';

/** GET /templates: what POST /instances takes as `template` (registered inside publicApiRoutes). */
export function registerTemplateRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { vms } = app.deps;

  app.get(
    '/templates',
    {
      schema: {
        tags: ['Instances'],
        operationId: 'listTemplates',
        summary: 'Templates for a new instance',
        description:
          'The Instant Deploy templates (`kind` software: Ubuntu 22.04 with the software installed on first boot, the cores and RAM it gets, the GPU it suits) and the VM images (`kind` image). `available` is false, with a `reason`, where no host can run it now (windows11 needs a host that offers the image).',
        response: { 200: templatesList, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = requireKey(request);
      return { templates: await listTemplates(vms, userId) };
    },
  );
}

import type { Command } from 'commander';
import type { TemplatesList } from '../../shared/contracts/public-api';
import { table } from '../output';
import type { Ctx } from './context';

/** `rentgpu templates list`: what `instances create --template` takes. */
export function registerTemplates(root: Command, ctx: Ctx): void {
  const templates = root.command('templates').description('templates for new instances');
  templates
    .command('list')
    .description('the deploy templates and VM images, and whether each can be used now')
    .action(async () =>
      ctx.show(await ctx.api<TemplatesList>({ method: 'GET', path: '/templates' }), (a) =>
        table(a.templates, [
          ['id', (x) => x.id],
          ['kind', (x) => x.kind],
          ['name', (x) => x.name],
          ['cores', (x) => x.cpuCores],
          ['ram GB', (x) => x.ramGb],
          ['recommended gpu', (x) => x.recommendedGpu],
          ['available', (x) => (x.available ? 'yes' : `no: ${x.reason}`)],
        ]),
      ),
    );
}

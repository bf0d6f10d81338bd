import { type Command, Option } from 'commander';
import type { GpuListingsPage } from '../../shared/contracts/public-api';
import { table } from '../output';
import { type Ctx, positiveInt } from './context';
import { type GpuRow, gpuColumns } from './views';

interface GpuListOptions {
  model?: string;
  gpuType?: string;
  kind?: string;
  sort?: string;
  gpus?: number;
  minVram?: string;
  minReliability?: string;
  maxGpuPrice?: string;
  limit?: number;
  cursor?: string;
}

/** `list` and `gpus list`: the marketplace, the same filters under both names. */
export function registerGpus(root: Command, ctx: Ctx): void {
  const listGpus = async (options: GpuListOptions) => {
    const page = await ctx.api<GpuListingsPage>({
      method: 'GET',
      path: '/gpu-listings',
      query: {
        model: options.model,
        gpuType: options.gpuType,
        kind: options.kind,
        // Cheapest first unless another order is asked for (with --model too).
        sort: options.sort ?? 'price-asc',
        gpuCount: options.gpus,
        minVramGb: options.minVram,
        minReliability: options.minReliability,
        maxGpuHourPrice: options.maxGpuPrice,
        limit: options.limit,
        cursor: options.cursor,
      },
    });
    ctx.show(page, (p) =>
      p.gpus.length === 0
        ? 'No GPUs match.'
        : `${table<GpuRow>(p.gpus, gpuColumns(p.gpus))}${p.nextCursor ? `\nMore: --cursor ${p.nextCursor}` : ''}`,
    );
  };
  const gpuListOptions = (command: Command) =>
    command
      .option('--model <text>', 'search by model')
      .option('--gpu-type <type>', 'only this GPU type')
      .addOption(
        new Option('--kind <kind>', 'only GPUs whose host runs this kind now').choices([
          'vm',
          'container',
        ]),
      )
      .option(
        '--sort <order>',
        'price-asc (the default), price-desc, memory, performance or gpu-price-asc (per GPU-hour)',
      )
      .option('--gpus <n>', 'only instances of this many GPUs', positiveInt('--gpus'))
      .option('--min-vram <gb>', 'at least this many GB on each GPU')
      .option('--min-reliability <percent>', 'host up at least this percent of the last 30 days')
      .option('--max-gpu-price <dollars>', 'at most this price per GPU-hour')
      .option('--limit <n>', 'at most this many (1-100)', positiveInt('--limit'))
      .option('--cursor <cursor>', 'the next page, from a previous list')
      .action(listGpus);

  gpuListOptions(root.command('list').description('available GPUs'));
  const gpus = root.command('gpus').description('the marketplace');
  gpuListOptions(gpus.command('list').description('available GPUs, with filters and sort'));
}

import { type Command, Option } from 'commander';
import type {
  CreatedInstanceAnswer,
  InstanceActionAnswer,
  InstanceAnswer,
  InstancesPage,
} from '../../shared/contracts/public-api';
import { table } from '../output';
import { type Ctx, positiveInt, UsageError } from './context';
import {
  type DeadlineOptions,
  deadlineBody,
  registerDeadlines,
  withDeadlineFlags,
} from './deadlines';
import { registerInstanceExtras } from './instance-extras';
import { instanceColumns, instanceFields } from './views';
import { type WaitOptions, waitForState, waitOptions } from './wait';

/** `rent`, `status` and `instances …`: renting, looking at and driving instances. */
export function registerInstances(root: Command, ctx: Ctx): void {
  const { api, show } = ctx;
  const create = async (
    gpuId: number,
    options: {
      duration?: number;
      sshKey?: string;
      template?: string;
      kind?: 'vm' | 'container';
      image?: string;
    } & DeadlineOptions &
      WaitOptions,
  ): Promise<void> => {
    if (options.image !== undefined && options.kind === undefined) {
      throw new UsageError('--image is for containers: add --kind container');
    }
    const answer = await api<CreatedInstanceAnswer>({
      method: 'POST',
      path: '/instances',
      body: {
        gpuListingId: gpuId,
        ...(options.duration !== undefined ? { durationHours: options.duration } : {}),
        ...(options.sshKey ? { sshKeyId: options.sshKey } : {}),
        ...(options.template ? { template: options.template } : {}),
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.image !== undefined ? { image: options.image } : {}),
        ...deadlineBody(options, new Date()),
      },
    });
    // Warnings go to stderr, before any wait, so they are seen whatever the output form.
    for (const warning of answer?.warnings ?? []) {
      ctx.io.err(`Warning (${warning.code}): ${warning.message}\n`);
    }
    const shown =
      answer && options.wait
        ? {
            ...answer,
            instance: await waitForState(ctx, answer.instance, 'running', options.waitTimeout),
          }
        : answer;
    show(
      shown,
      (a) => `Instance ${a.instance.id} is ${a.instance.status}.\n${instanceFields(a.instance)}`,
    );
  };

  waitOptions(
    root
      .command('rent')
      .description('rent a GPU for a number of hours (paid up front)')
      .argument('<gpu-id>', 'the GPU listing id (from rentgpu list)', positiveInt('gpu-id'))
      .option('--duration <hours>', 'hours to book (1-720; required)', positiveInt('--duration'))
      .addOption(new Option('--hours <hours>').argParser(positiveInt('--hours')).hideHelp())
      .option('--ssh-key <id>', 'one of your SSH keys'),
  ).action(
    (
      gpuId: number,
      options: { duration?: number; hours?: number; sshKey?: string } & WaitOptions,
    ) => {
      // --hours: an alias of --duration (earlier documentation spelled it so).
      const duration = options.duration ?? options.hours;
      if (duration === undefined) {
        throw new UsageError("required option '--duration <hours>' not specified");
      }
      return create(gpuId, { ...options, duration });
    },
  );

  const instanceGet = async (id: number) =>
    show(await api<InstanceAnswer>({ method: 'GET', path: `/instances/${id}` }), (a) =>
      instanceFields(a.instance),
    );
  const instanceList = async (options: { status?: string; limit?: number; cursor?: string }) =>
    show(
      await api<InstancesPage>({
        method: 'GET',
        path: '/instances',
        query: { status: options.status, limit: options.limit, cursor: options.cursor },
      }),
      (p) =>
        p.instances.length === 0
          ? 'No instances.'
          : `${table(p.instances, instanceColumns)}${p.nextCursor ? `\nMore: --cursor ${p.nextCursor}` : ''}`,
    );

  root
    .command('status')
    .description('your instances, or one instance with its SSH details')
    .argument('[instance-id]', 'one instance', positiveInt('instance-id'))
    .action(async (id?: number) => (id ? instanceGet(id) : instanceList({})));

  const instances = root.command('instances').description('your GPU instances');
  withDeadlineFlags(
    instances
      .command('create')
      .description('create an instance: booked with --duration, metered (per minute) without')
      .argument('<gpu-id>', 'the GPU listing id', positiveInt('gpu-id'))
      .option('--duration <hours>', 'hours to book (1-720)', positiveInt('--duration'))
      .option('--ssh-key <id>', 'one of your SSH keys')
      .option('--template <id>', 'a template from `rentgpu templates list` (metered only)')
      .addOption(
        new Option(
          '--kind <kind>',
          "what runs it: a virtual machine (the default) or a container (metered only; the listing's kinds say which its host runs)",
        ).choices(['vm', 'container']),
      )
      .option(
        '--image <ref>',
        "with --kind container: the OCI image to run (e.g. pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime; default: the template's image)",
      )
      .option('--wait', 'return once it is running (non-zero if it fails)')
      .option(
        '--wait-timeout <seconds>',
        'how long --wait waits (default 600)',
        positiveInt('--wait-timeout'),
      ),
  ).action(create);
  instances
    .command('list')
    .description('your instances, newest first')
    .option('--status <state>', 'only instances in this state (e.g. running)')
    .option('--limit <n>', 'at most this many (1-100)', positiveInt('--limit'))
    .option('--cursor <cursor>', 'the next page')
    .action(instanceList);
  instances
    .command('get')
    .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
    .description('one instance with its SSH details')
    .action(instanceGet);
  const act = (
    name: string,
    description: string,
    method: 'PATCH' | 'POST' | 'DELETE',
    path: (id: number) => string,
    target?: 'running' | 'stopped' | 'terminated',
  ) => {
    const command = instances
      .command(name)
      .description(description)
      .argument('<instance-id>', 'the instance', positiveInt('instance-id'));
    (target ? waitOptions(command) : command).action(async (id: number, options: WaitOptions) => {
      const answer = await api<InstanceActionAnswer>({ method, path: path(id) });
      const shown =
        answer && target && options.wait
          ? {
              instance: await waitForState(ctx, answer.instance, target, options.waitTimeout),
              message: answer.message,
            }
          : answer;
      show(
        shown,
        (a) =>
          `Instance ${a.instance.id} is ${a.instance.status}.${a.message ? `\n${a.message}` : ''}`,
      );
    });
  };
  act(
    'stop',
    'stop it (a booked rental ends and is settled)',
    'PATCH',
    (id) => `/instances/${id}/stop`,
    'stopped',
  );
  act('start', 'start a stopped instance', 'POST', (id) => `/instances/${id}/start`, 'running');
  act('terminate', 'end it for good', 'DELETE', (id) => `/instances/${id}`, 'terminated');
  registerDeadlines(instances, ctx);
  registerInstanceExtras(instances, ctx);
}

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { InstanceAnswer, PublicInstance } from '../../shared/contracts/public-api';
import type { InstanceInvoice, InstanceUsage } from '../../shared/contracts/public-api-account';
import {
  hostKeyAlias,
  hostKeyOptions,
  shellLine,
  sshArgv,
  unsafeEndpointReason,
} from '../../shared/rules/shell-command';
import { parseSshPublicKey } from '../../shared/rules/ssh-key';
import { fields, table } from '../output';
import { refuseUnsafeTarget } from '../target-address';
import { localTime } from '../time';
import { CommandError, type Ctx, positiveInt, UsageError } from './context';

/** ssh's options that take a value, as its getopt reads them (OpenSSH's ssh.c); the rest are flags. */
const SSH_OPTIONS_WITH_VALUE = new Set('BbcDEeFIiJLlmOoPpQRSWw');

/**
 * What the renter typed after the instance id (after `--`), read as ssh reads what follows its
 * own name: leading ssh options (`-i KEY`, `-L 8888:localhost:8888`, `-vt`, `-oUser=x`) are
 * options; the first word that is not one, or a second `--`, starts the remote command.
 */
export function splitSshArgs(words: readonly string[]): { options: string[]; remote: string[] } {
  const options: string[] = [];
  let next = 0;
  while (next < words.length) {
    const word = words[next] ?? '';
    if (word === '--') return { options, remote: words.slice(next + 1) };
    if (!word.startsWith('-') || word === '-') break;
    options.push(word);
    next += 1;
    // In a cluster (`-vvi KEY`), the first letter that takes a value takes the rest of the word,
    // or the next word when it ends there.
    const at = [...word.slice(1)].findIndex((letter) => SSH_OPTIONS_WITH_VALUE.has(letter));
    if (at === word.length - 2) {
      const value = words[next];
      if (value === undefined) throw new UsageError(`ssh's option ${word} needs a value.`);
      options.push(value);
      next += 1;
    }
  }
  return { options, remote: words.slice(next) };
}

/**
 * The system ssh's arguments for an instance, or why there are none yet: `-l USER -p PORT
 * [options…] -- HOST [remote…]`. The user and host come from the provider's host (untrusted):
 * after `-l` and `--` neither can be an ssh option, and a value no real name has (a leading
 * `-`, whitespace, control characters) is refused before anything runs. The renter's own ssh
 * options (splitSshArgs) come after the instance's, whose values ssh then keeps.
 */
function sshArgs(instance: PublicInstance, extra: string[] = [], options: string[] = []): string[] {
  if (instance.status !== 'running' || !instance.sshHost || !instance.sshPort) {
    const when = instance.actions.includes('start')
      ? ` Start it first: rentgpu instances start ${instance.id}.`
      : instance.status === 'provisioning' || instance.status === 'starting'
        ? ' Try again once it is running (rentgpu instances get shows its state).'
        : '';
    throw new CommandError(
      `Instance ${instance.id} is ${instance.status}: SSH works only while it is running.${when}`,
    );
  }
  const endpoint = { user: instance.sshUsername, host: instance.sshHost, port: instance.sshPort };
  const unsafe = unsafeEndpointReason(endpoint);
  if (unsafe) {
    throw new CommandError(
      `Instance ${instance.id} has an SSH address that is not safe to use, so ssh was not run. ${unsafe} Contact support.`,
    );
  }
  const typed = splitSshArgs(extra);
  return sshArgv(endpoint, { options: [...options, ...typed.options], remote: typed.remote });
}

/**
 * The instance's host key options: filed under the instance (`HostKeyAlias=rentgpu-ID`, so a
 * port its host gave another instance before never reads as a changed key), and the guest's
 * key, as the agent's probe saw it and the server stored it, pinned under that name in the
 * CLI's own known_hosts (beside its config): ssh then checks it (StrictHostKeyChecking=yes)
 * instead of asking the renter to trust a key on first use. No stored key (an instance from
 * before, the demo host): ssh asks as usual, under the same name.
 */
async function pinnedHostKey(instance: PublicInstance, configFile: string): Promise<string[]> {
  const alias = hostKeyOptions(instance.id);
  const parsed = instance.sshHostKey ? parseSshPublicKey(instance.sshHostKey) : null;
  if (!parsed?.ok || !instance.sshHost || !instance.sshPort) return alias;
  const key = `${parsed.type} ${parsed.base64}`;
  const file = path.join(path.dirname(configFile), 'known_hosts');
  const name = hostKeyAlias(instance.id);
  const kept = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith(`${name} `));
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${[...kept, `${name} ${key}`].join('\n')}\n`, { mode: 0o600 });
  return [...alias, '-o', `UserKnownHostsFile=${file}`, '-o', 'StrictHostKeyChecking=yes'];
}

/** `instances ssh`, `instances usage` and `instances invoice`. */
export function registerInstanceExtras(instances: Command, ctx: Ctx): void {
  instances
    .command('ssh')
    .description('open an SSH session to a running instance (the system ssh)')
    .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
    .argument(
      '[ssh-args...]',
      "after --: options for ssh (e.g. -i KEY, -L 8888:localhost:8888), then the command to run there; a second -- ends ssh's options",
    )
    .option('--print', 'print the ssh command instead of running it')
    .addHelpText(
      'after',
      `
What follows -- is read as ssh reads what follows its own name: words that are ssh options
(with their values: -i KEY, -L SPEC, -o NAME=VALUE) go to ssh, and the first other word, or a
second --, starts the remote command. The instance's user, port and host key options come first
and ssh keeps them. The host key is filed under rentgpu-<instance-id> (HostKeyAlias), so a port
its host gave another instance before never reads as a changed key.

  rentgpu instances ssh 42 -- -i ~/.ssh/gpu_key
  rentgpu instances ssh 42 -- -i ~/.ssh/gpu_key nvidia-smi -L
  rentgpu instances ssh 42 -- -L 8888:localhost:8888 -N
  rentgpu instances ssh 42 -- -- -a-command-starting-with-a-dash`,
    )
    .action(async (id: number, extra: string[], options: { print?: boolean }) => {
      const answer = await ctx.api<InstanceAnswer>({ method: 'GET', path: `/instances/${id}` });
      if (!answer) return;
      sshArgs(answer.instance, extra); // refuses before anything is written
      await refuseUnsafeTarget(answer.instance, ctx.io.env);
      const pinned = await pinnedHostKey(answer.instance, ctx.io.env.configFile);
      const args = sshArgs(answer.instance, extra, pinned);
      if (options.print) {
        ctx.show({ command: ['ssh', ...args] }, () => shellLine(['ssh', ...args]));
        return;
      }
      ctx.exitWith(await ctx.io.exec('ssh', args));
    });

  instances
    .command('usage')
    .description('what one instance has been billed (compute, storage, refunds)')
    .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
    .action(async (id: number) =>
      ctx.show(
        await ctx.api<{ usage: InstanceUsage }>({ method: 'GET', path: `/instances/${id}/usage` }),
        ({ usage: u }) =>
          fields([
            ['Instance', `${u.instanceId} (${u.gpuModel}, ${u.billingPlan}, ${u.status})`],
            ['Rate', `$${u.hourlyRate}/hour`],
            [
              'Billed',
              // Both figures the server sends: minutes a per-minute plan billed, and the
              // seconds of compute (a rental's hours) — the CLI does not decide by plan.
              `${u.computeMinutes} min compute, ${u.storageMinutes} min storage (${u.storageGb} GB); ${u.billedSeconds} s of compute billed`,
            ],
            ['Compute', `$${u.computeCharges}`],
            ['Storage', `$${u.storageCharges}`],
            ['Refunds', `$${u.refunds}`],
            ['Total', `$${u.totalCost} ${u.currency}`],
          ]),
      ),
    );

  instances
    .command('invoice')
    .description("one instance's invoice (JSON, a table, or CSV with --csv)")
    .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
    .option('--csv', 'print it as CSV')
    .action(async (id: number, options: { csv?: boolean }) => {
      if (options.csv) {
        const csv = await ctx.api<string>({
          method: 'GET',
          path: `/instances/${id}/invoice`,
          query: { format: 'csv' },
          accept: 'text/csv',
        });
        if (csv !== undefined) ctx.io.out(csv);
        return;
      }
      ctx.show(
        await ctx.api<{ invoice: InstanceInvoice }>({
          method: 'GET',
          path: `/instances/${id}/invoice`,
        }),
        ({ invoice: i }) =>
          `Invoice ${i.number} (${i.status}) for instance ${i.instanceId}, ${localTime(i.periodStart)} – ${localTime(i.periodEnd) ?? 'now'}\n${table(
            i.lines,
            [
              ['description', (l) => l.description],
              ['quantity', (l) => `${l.quantity} ${l.unit}`],
              ['unit $', (l) => l.unitPrice],
              ['amount $', (l) => l.amount],
            ],
          )}\nTotal: $${i.total} ${i.currency}`,
      );
    });
}

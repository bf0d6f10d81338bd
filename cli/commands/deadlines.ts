import { type Command, InvalidArgumentError } from 'commander';
import type { InstanceAnswer, UpdateInstanceBody } from '../../shared/contracts/public-api';
import { parseDuration } from '../../shared/rules/deadlines';
import { idleStopLabel } from '../../shared/rules/idle-stop';
import { type Ctx, positiveInt, UsageError } from './context';

/** A duration flag's value (`90m`, `2h`, `1d`, `1h30m`) in milliseconds. */
export function durationArg(what: string) {
  return (value: string): number => {
    const ms = parseDuration(value);
    if (ms === null) {
      throw new InvalidArgumentError(
        `${what} must be a duration such as 90m, 2h or 1d (s, m, h, d).`,
      );
    }
    return ms;
  };
}

/** `--idle-stop`'s value in whole minutes: `off` or `0` is 0, else a duration (`90m`, `2h`). */
export function idleStopArg(value: string): number {
  if (value === 'off' || value === '0') return 0;
  const ms = parseDuration(value);
  if (ms === null || ms % 60_000 !== 0) {
    throw new InvalidArgumentError(
      '--idle-stop must be off, or whole minutes such as 30m, 1h or 4h (15m to 7d).',
    );
  }
  return ms / 60_000;
}

/** The deadline and idle-stop flags of `instances create` and `instances deadline`. */
export interface DeadlineOptions {
  stopAfter?: number;
  terminateAfter?: number;
  clearStop?: boolean;
  clearTerminate?: boolean;
  /** Idle stop's minutes (0: off) and threshold (docs/decisions/019). */
  idleStop?: number;
  idleThreshold?: number;
}

/**
 * The body's deadlines from the flags, as times from `now` (the server checks each lies in
 * the future and within a year, and "terminate at" not before "stop at", also against one
 * already set): `--stop-after 2h` → stopAt two hours on; `--clear-stop` → stopAt null. A flag
 * and its clear together, or `--terminate-after` shorter than `--stop-after`, are usage errors.
 */
export function deadlineBody(options: DeadlineOptions, now: Date): UpdateInstanceBody {
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  if (options.stopAfter !== undefined && options.clearStop) {
    throw new UsageError('Give --stop-after or --clear-stop, not both.');
  }
  if (options.terminateAfter !== undefined && options.clearTerminate) {
    throw new UsageError('Give --terminate-after or --clear-terminate, not both.');
  }
  if (
    options.stopAfter !== undefined &&
    options.terminateAfter !== undefined &&
    options.terminateAfter < options.stopAfter
  ) {
    throw new UsageError(
      '--terminate-after must not be shorter than --stop-after: the instance would be terminated before it stops.',
    );
  }
  return {
    ...(options.stopAfter !== undefined ? { stopAt: at(options.stopAfter) } : {}),
    ...(options.clearStop ? { stopAt: null } : {}),
    ...(options.terminateAfter !== undefined ? { terminateAt: at(options.terminateAfter) } : {}),
    ...(options.clearTerminate ? { terminateAt: null } : {}),
    ...(options.idleStop !== undefined ? { idleStopMinutes: options.idleStop } : {}),
    ...(options.idleThreshold !== undefined ? { idleThresholdPercent: options.idleThreshold } : {}),
  };
}

/**
 * Adds `--stop-after`, `--terminate-after`, `--idle-stop` and `--idle-threshold` to a command
 * that creates an instance.
 */
export function withDeadlineFlags(command: Command): Command {
  return command
    .option(
      '--stop-after <duration>',
      'stop it after this long (e.g. 90m, 2h, 1d; metered only)',
      durationArg('--stop-after'),
    )
    .option(
      '--terminate-after <duration>',
      'terminate it after this long (e.g. 2h, 1d; metered only; not before its stop time)',
      durationArg('--terminate-after'),
    )
    .option(
      '--idle-stop <duration>',
      'stop it (disk kept) once its GPU stays under the idle threshold with no SSH or web console session this long (e.g. 1h; off; metered only)',
      idleStopArg,
    )
    .option(
      '--idle-threshold <percent>',
      'GPU utilisation under which it is idle (1-100, default 5)',
      positiveInt('idle-threshold'),
    );
}

/** `instances deadline <id>`: sets or clears a metered instance's stop and terminate times. */
export function registerDeadlines(instances: Command, ctx: Ctx): void {
  const { api, show } = ctx;
  withDeadlineFlags(
    instances
      .command('deadline')
      .description(
        'set or clear when a metered instance is stopped or terminated for you, and its idle stop',
      )
      .argument('<instance-id>', 'the instance', positiveInt('instance-id')),
  )
    .option('--clear-stop', 'remove its stop time')
    .option('--clear-terminate', 'remove its terminate time')
    .action(async (id: number, options: DeadlineOptions) => {
      const body = deadlineBody(options, new Date());
      if (Object.keys(body).length === 0) {
        throw new UsageError(
          'Give --stop-after, --terminate-after, --clear-stop, --clear-terminate or --idle-stop.',
        );
      }
      const answer = await api<InstanceAnswer>({
        method: 'PATCH',
        path: `/instances/${id}`,
        body,
      });
      show(answer, (a) => `Instance ${a.instance.id}: ${deadlineWords(a.instance)}`);
    });
}

/** An instance's deadlines (and idle stop, where on) in words, for the terminal. */
export function deadlineWords(i: {
  stopAt: string | null;
  terminateAt: string | null;
  idleStopMinutes?: number;
  idleThresholdPercent?: number;
}): string {
  const parts = [
    i.stopAt ? `stops at ${i.stopAt}` : null,
    i.terminateAt ? `terminates at ${i.terminateAt}` : null,
  ].filter(Boolean);
  const times = parts.length > 0 ? `${parts.join(', ')}.` : 'no stop or terminate time.';
  return i.idleStopMinutes
    ? `${times} Idle stop ${idleStopLabel(i.idleStopMinutes, i.idleThresholdPercent ?? 5)}.`
    : times;
}

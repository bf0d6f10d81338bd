import type { Command } from 'commander';
import type { InstanceAnswer, PublicInstance } from '../../shared/contracts/public-api';
import type { InstanceState } from '../../shared/rules/instance-lifecycle';
import { CommandError, type Ctx, positiveInt } from './context';

/** How long `--wait` waits when `--wait-timeout` is not given: provisioning takes 2-5 minutes. */
export const DEFAULT_WAIT_TIMEOUT_S = 600;
/** Between two reads of the instance while waiting. */
const POLL_MS = 2000;

export interface WaitOptions {
  wait?: boolean;
  waitTimeout?: number;
}

/** `--wait` and `--wait-timeout` on a command that changes an instance's state. */
export function waitOptions(command: Command): Command {
  return command
    .option('--wait', 'return once the instance reaches the state (non-zero if it fails)')
    .option(
      '--wait-timeout <seconds>',
      `how long --wait waits (default ${DEFAULT_WAIT_TIMEOUT_S})`,
      positiveInt('--wait-timeout'),
    );
}

/** The states a command waits for, and those that mean it will never get there. */
export const WAIT_FOR = {
  running: { done: ['running'], fails: ['failed', 'stopped', 'terminating', 'terminated'] },
  // A booked rental's stop ends it: terminated is where it goes.
  stopped: { done: ['stopped', 'terminated'], fails: ['failed'] },
  // Through terminating, once its host has let go of it (its disk deleted).
  terminated: { done: ['terminated'], fails: ['failed'] },
} satisfies Record<string, { done: InstanceState[]; fails: InstanceState[] }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads the instance until it is in one of `target`'s states; says each new state on stderr.
 * A failed (or otherwise ended) instance, or the timeout, is a CommandError: exit 1.
 */
export async function waitForState(
  ctx: Ctx,
  first: PublicInstance,
  target: keyof typeof WAIT_FOR,
  timeoutS = DEFAULT_WAIT_TIMEOUT_S,
): Promise<PublicInstance> {
  const { done, fails } = WAIT_FOR[target];
  const deadline = Date.now() + timeoutS * 1000;
  const pollMs = ctx.io.pollMs ?? POLL_MS;
  let instance = first;
  let said = '';
  for (;;) {
    const state = instance.status as InstanceState;
    if ((done as InstanceState[]).includes(state)) return instance;
    if ((fails as InstanceState[]).includes(state)) {
      throw new CommandError(
        state === 'failed'
          ? `Instance ${instance.id} failed: it did not become ${target}.`
          : `Instance ${instance.id} is ${state}: it will not become ${target}.`,
      );
    }
    const now = `${state}${instance.provisioningStep ? ` (${instance.provisioningStep})` : ''}`;
    if (now !== said && !ctx.json()) ctx.io.err(`Instance ${instance.id} is ${now}…\n`);
    said = now;
    if (Date.now() >= deadline) {
      throw new CommandError(
        `Instance ${instance.id} is still ${state} after ${timeoutS} s of waiting to be ${target} (--wait-timeout).`,
      );
    }
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
    const answer = await ctx.api<InstanceAnswer>({
      method: 'GET',
      path: `/instances/${instance.id}`,
    });
    if (!answer) return instance;
    instance = answer.instance;
  }
}

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { PublicInstance } from '../shared/contracts/public-api';
import { describeTargetRefusal, targetRefusal } from '../shared/rules/target-address';
import { CommandError } from './commands/context';
import type { CliEnv } from './env';

/**
 * The address rule (shared/rules/target-address.ts) on the renter's own computer, before the
 * CLI runs ssh: an instance's address comes from the provider's host, and one that names this
 * computer, its network or a cloud metadata service is refused here too (docs/decisions/013),
 * as it would be by the server. ALLOW_PRIVATE_HOST_ADDRESSES=1 lets private ones through, for
 * a lab whose server allows them.
 */

export type Resolve = (host: string) => Promise<{ address: string }[]>;

const systemResolve: Resolve = (name) => lookup(name, { all: true, verbatim: true });

/**
 * Why ssh may not be sent to `host`: what its text says, then each address it resolves to.
 * Null when it may — also for a name that does not resolve, which ssh then says itself, and
 * for text that is no address at all, which the endpoint check and `--` deal with.
 */
export async function sshTargetRefusal(
  host: string,
  options: { allowPrivate?: boolean; resolve?: Resolve } = {},
): Promise<string | null> {
  const rule = { allowPrivate: options.allowPrivate ?? false };
  const own = targetRefusal(host, rule);
  if (own && own.kind !== 'not-an-address') return describeTargetRefusal(host, own);
  if (isIP(host) !== 0) return null;
  const answers = await (options.resolve ?? systemResolve)(host).catch(() => []);
  for (const { address } of answers) {
    const refusal = targetRefusal(address, rule);
    if (refusal) return `${host} resolves to ${address}, ${refusal.reason}`;
  }
  return null;
}

/** Refuses, before anything is written or run, an instance whose SSH address fails the rule. */
export async function refuseUnsafeTarget(
  instance: PublicInstance,
  env: CliEnv,
  resolve?: Resolve,
): Promise<void> {
  if (!instance.sshHost) return;
  const refusal = await sshTargetRefusal(instance.sshHost, {
    allowPrivate: env.allowPrivateHostAddresses ?? false,
    ...(resolve ? { resolve } : {}),
  });
  if (refusal) {
    throw new CommandError(
      `Instance ${instance.id} has an SSH address renters may not be sent to, so ssh was not run: ${refusal}. Contact support.`,
    );
  }
}

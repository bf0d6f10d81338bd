import type { Conn } from '../../db/client';
import { validationFailed } from '../../lib/errors';
import { hostTargetRefusal, type Resolve } from '../../lib/outbound-address';
import { providerHostsRepo } from './provider-hosts-repo';

/** The address rule's setting (ALLOW_PRIVATE_HOST_ADDRESSES) and how names are looked up. */
export interface HostTargets {
  allowPrivate: boolean;
  resolve: Resolve;
}

/**
 * The public name a provider sets for its host is where renters are sent and the console
 * connects (docs/decisions/013-hosts-are-untrusted.md), so it must be one renters can reach:
 * the address rule (shared/rules/target-address.ts) on the name's text and on every address
 * it resolves to now, and not another provider's host's public name or agent address.
 * Otherwise 400 VALIDATION_FAILED naming `publicHost`. A name that does not resolve yet is
 * taken: the console and the CLI look it up again, and check, before they connect.
 */
export async function checkPublicHost(
  conn: Conn,
  providerId: number,
  publicHost: string,
  targets: HostTargets,
): Promise<void> {
  const others = await providerHostsRepo.otherProvidersAddresses(conn, providerId);
  const refusal = await hostTargetRefusal(publicHost, {
    ...targets,
    otherHosts: others.flatMap((h) => [h.publicHost, h.agentAddress]),
  });
  if (refusal) {
    throw validationFailed({
      publicHost: [`Public address must be this host's own address on the internet: ${refusal}.`],
    });
  }
}

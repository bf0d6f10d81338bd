import { type SQL, sql } from 'drizzle-orm';
import type {
  HostReadiness,
  KindReadiness,
  ReadinessProblem,
} from '../../../shared/contracts/hosts';
import {
  INSTANCE_KIND_LABELS,
  INSTANCE_KINDS,
  type InstanceKind,
} from '../../../shared/contracts/instance-kind';
import type { ListingHostStatus } from '../../../shared/contracts/listings';
import { listingBlocker } from '../../../shared/rules/host-readiness';

/**
 * A host's readiness per kind of instance (docs/decisions/025), read from its stored verdict
 * (`hosts.readiness`, shared/rules/host-readiness.ts). A verdict stored before containers has
 * no `kinds`: then the VM kind is the top level's, and containers are not offered. The demo
 * host (no agent) runs both kinds.
 */

/** What the demo host runs: everything, nothing real. */
export const DEMO_HOST_KINDS: readonly InstanceKind[] = INSTANCE_KINDS;

/** One kind's verdict, the top level standing in for the VM kind in a verdict without kinds. */
export function kindReadinessOf(r: HostReadiness, kind: InstanceKind): KindReadiness {
  const own = r.kinds?.[kind];
  if (own) return own;
  if (kind === 'vm') {
    return { offered: true, ready: r.ready, problems: r.problems, readyGpus: r.readyGpus };
  }
  return { offered: false, ready: false, problems: [], readyGpus: [] };
}

/** "This host does not run containers", and what its provider does about it. */
export function kindNotOffered(kind: InstanceKind): ReadinessProblem {
  return kind === 'container'
    ? {
        reason: 'This host does not run containers.',
        fix: 'Choose a listing whose kinds include container, or create a VM.',
      }
    : {
        reason: 'This host does not run VMs.',
        fix: 'Choose a listing whose kinds include vm, or create a container.',
      };
}

/**
 * Why a listing on this host cannot run an instance of `kind` now (its reason and fix), or
 * null when it can: the kind not offered, the kind not ready (its first problem), or none of
 * the listing's GPUs among those that serve the kind. No verdict (the demo host, a host not
 * judged yet): null for a VM, as before; a container needs a verdict that offers it.
 */
export function kindBlocker(
  r: HostReadiness | null | undefined,
  kind: InstanceKind,
  gpuIndexes: readonly number[],
  demoHost = false,
): ReadinessProblem | null {
  if (demoHost) return null;
  if (!r) return kind === 'vm' ? null : kindNotOffered(kind);
  if (kind === 'vm' && !r.kinds) return listingBlocker(r, gpuIndexes);
  const k = kindReadinessOf(r, kind);
  if (!k.offered) return kindNotOffered(kind);
  if (!k.ready) {
    return (
      k.problems[0] ?? {
        reason: `The host cannot run a ${INSTANCE_KIND_LABELS[kind].toLowerCase()} now.`,
        fix: 'See the host on your dashboard.',
      }
    );
  }
  if (gpuIndexes.length === 0 || gpuIndexes.some((i) => k.readyGpus.includes(i))) return null;
  return {
    reason: `None of this listing's GPUs (${gpuIndexes.join(', ')}) can serve a ${INSTANCE_KIND_LABELS[kind].toLowerCase()} on its host now.`,
    fix: 'Edit the listing to offer GPUs the host can serve, or choose another kind.',
  };
}

/**
 * The kinds a listing's host can run now (a listing view's `kinds`): both on the demo host,
 * none without a host or while its host is offline, else each kind its verdict says is ready
 * on one of the listing's GPUs (as kindBlocker, so the list and a create agree).
 */
export function listingKinds(
  hostStatus: ListingHostStatus,
  readiness: HostReadiness | null | undefined,
  gpuIndexes: readonly number[],
): InstanceKind[] {
  if (hostStatus === 'demo') return [...DEMO_HOST_KINDS];
  if (hostStatus === 'none' || hostStatus === 'offline' || hostStatus === 'not_ready') return [];
  return INSTANCE_KINDS.filter((kind) => kindBlocker(readiness, kind, gpuIndexes) === null);
}

/**
 * kindBlocker's "can run" as SQL, for a host row's verdict (`readiness`, a jsonb expression)
 * and a listing's GPUs (`gpuIndexes`, a jsonb array): the kind's own verdict, else (a verdict
 * without kinds) the top level for a VM and nothing for a container; no verdict runs a VM.
 * `kind` is a text value (a parameter or literal).
 */
export function kindReadySql(readiness: SQL, gpuIndexes: SQL, kindValue: SQL): SQL {
  const kind = sql`(${kindValue})::text`;
  const verdict = sql`(case when ${readiness} ? 'kinds' then ${readiness}->'kinds'->${kind}
    when ${kind} = 'vm' then jsonb_build_object('offered', true, 'ready', ${readiness}->'ready', 'readyGpus', ${readiness}->'readyGpus')
    else null end)`;
  return sql`(case when ${readiness} is null then ${kind} = 'vm'
    else coalesce((${verdict}->>'offered')::boolean and (${verdict}->>'ready')::boolean
      and (jsonb_array_length(${gpuIndexes}) = 0
        or exists (select 1 from jsonb_array_elements(${gpuIndexes}) g(i)
          where (${verdict}->'readyGpus') @> jsonb_build_array(g.i))), false) end)`;
}

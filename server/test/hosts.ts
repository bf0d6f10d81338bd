import {
  agentPaths,
  type HeartbeatRequest,
  type HostInventory,
  type InstanceStatus,
} from '../../shared/contracts/agent-protocol';
import type { HostImageStatus } from '../../shared/contracts/images';
import { createHost, createListing, gpuInventory, hostInventory } from '../seed/factories';
import type { TestApp } from './app';

export { gpuInventory, hostInventory } from '../seed/factories';

/** A whole heartbeat (what the agent posts every 30 s). */
export function heartbeatBody(
  parts: {
    host?: HostInventory;
    gpus?: HeartbeatRequest['gpus'];
    instances?: InstanceStatus[];
  } = {},
): HeartbeatRequest {
  return {
    agentVersion: '0.1.0',
    sentAt: new Date().toISOString(),
    host: parts.host ?? hostInventory(),
    gpus: parts.gpus ?? gpuInventory(),
    instances: parts.instances ?? [],
  };
}

/**
 * A host's agent calling the agent routes as a real one does: its bearer credential, from its
 * own address (`from`, the address the server may let it report; docs/decisions/013).
 */
export function agentCalls(
  t: Pick<TestApp, 'request' | 'clock'>,
  credential: string,
  from: string,
  /** The GPUs its heartbeats report (default: gpuInventory's two RTX 4090s). */
  gpus?: HeartbeatRequest['gpus'],
) {
  const headers = { authorization: `Bearer ${credential}` };
  return {
    /** A heartbeat; `readings` this one's GPU readings (default: the host's `gpus`). */
    heartbeat: (
      statuses: InstanceStatus[] = [],
      images?: HostImageStatus[],
      readings?: HeartbeatRequest['gpus'],
    ) =>
      t.request({
        method: 'POST',
        url: agentPaths.heartbeat,
        payload: {
          ...heartbeatBody({ instances: statuses, gpus: readings ?? gpus }),
          ...(images ? { images } : {}),
        },
        headers,
        remoteAddress: from,
      }),
    report: (id: number, body: Partial<InstanceStatus> & { at?: string }) =>
      t.request({
        method: 'POST',
        url: agentPaths.report(String(id)),
        payload: {
          id: String(id),
          ssh: null,
          vnc: null,
          error: null,
          at: t.clock.now().toISOString(),
          ...body,
        },
        headers,
        remoteAddress: from,
      }),
  };
}

/**
 * A provider's enrolled host speaking the agent protocol, with `count` GPUs of `model` (a model
 * of the test's own), and their listing: the host's calls come from `from`.
 */
export async function hostWithAgent(
  t: Pick<TestApp, 'request' | 'clock' | 'database'>,
  providerId: number,
  options: { model: string; hourlyRate: string; from: string; count?: number },
) {
  const { model, hourlyRate, from, count = 2 } = options;
  const host = await createHost(t.database.db, {
    providerId,
    lastHeartbeatAt: t.clock.now(),
    gpus: { name: model, count },
  });
  const listing = await createListing(t.database.db, {
    providerId,
    model,
    hourlyRate,
    hostId: host.id,
    totalCount: count,
  });
  return { host, listing, calls: agentCalls(t, host.credential, from, gpuInventory(model)) };
}

import {
  agentPaths,
  type GpuInfo,
  type HeartbeatRequest,
  type HostInventory,
  type InstanceStatus,
} from '../../shared/contracts/agent-protocol';
import type { HostImageStatus } from '../../shared/contracts/images';
import type { TestApp } from './app';

/** A host as its agent reports it: 32 cores, 128 GB, 2 TB, KVM. */
export function hostInventory(overrides: Partial<HostInventory> = {}): HostInventory {
  return {
    hostname: 'gpu-box-1',
    cpu: { model: 'AMD EPYC', cores: 32 },
    memory: { totalBytes: 128 * 1024 ** 3, availableBytes: 100 * 1024 ** 3 },
    disk: { path: '/var/lib/rentgpu-agent', totalBytes: 2e12, freeBytes: 1.5e12 },
    accelerator: 'kvm',
    ...overrides,
  };
}

/** Two GPUs as nvidia-smi reports them; `reading(index)` overrides a GPU's fields. */
export function gpuInventory(
  name = 'NVIDIA GeForce RTX 4090',
  reading: (index: number) => Partial<GpuInfo> = () => ({}),
): HeartbeatRequest['gpus'] {
  return {
    gpus: [0, 1].map((index) => ({
      index,
      name,
      uuid: `GPU-${index}`,
      memoryTotalMib: 24_564,
      memoryUsedMib: 1,
      utilizationPercent: 0,
      temperatureC: 35,
      pciBusId: `00000000:0${index + 1}:00.0`,
      ...reading(index),
    })),
    error: null,
  };
}

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
    heartbeat: (statuses: InstanceStatus[] = [], images?: HostImageStatus[]) =>
      t.request({
        method: 'POST',
        url: agentPaths.heartbeat,
        payload: {
          ...heartbeatBody({ instances: statuses, ...(gpus ? { gpus } : {}) }),
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

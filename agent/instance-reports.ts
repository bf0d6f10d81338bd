import type {
  DesiredInstance,
  InstanceReportState,
  InstanceStatus,
} from '../shared/contracts/agent-protocol';
import type { ProvisioningProgress } from '../shared/contracts/images';
import type { AgentApi } from './api-client';
import type { LastReport } from './converge/plan';
import type { Endpoints, InstanceDriver } from './driver';
import type { Log } from './log';

/**
 * What the agent says of its instances: the last status of each (the heartbeat carries them,
 * terminated ones until the server stops listing them) and the last transition the server
 * accepted. Every transition is saved with the instance and reported with its generation.
 */
export class InstanceReports {
  readonly statuses = new Map<string, InstanceStatus>();
  readonly reported = new Map<string, LastReport>();
  /** The address the server knows this host by (its heartbeat answer's publicAddress). */
  publicAddress: string | null = null;

  constructor(
    private readonly driver: Pick<InstanceDriver, 'saveStatus'>,
    private readonly api: Pick<AgentApi, 'report'>,
    private readonly log: Log,
    /** AGENT_PUBLIC_HOST: the address renters connect to, whatever the server knows. */
    private readonly publicHost: string | null,
  ) {}

  /** An instance the server no longer lists is forgotten. */
  forget(id: string): void {
    this.statuses.delete(id);
    this.reported.delete(id);
  }

  /** The heartbeat's status of this generation shows its progress (no report of its own). */
  showProgress(d: DesiredInstance, progress: ProvisioningProgress): void {
    const status = this.statuses.get(d.id);
    if (status?.generation === d.generation) this.statuses.set(d.id, { ...status, progress });
  }

  /** Records a transition (state folder, heartbeat list) and reports it with its generation. */
  async transition(
    d: DesiredInstance,
    state: InstanceReportState,
    endpoints: Endpoints | null = null,
    error: string | null = null,
    progress: ProvisioningProgress | null = null,
  ) {
    // A generation's failure is reported once: a retry on the backoff says nothing more
    // (the heartbeat keeps the failure and its latest reason) unless it works.
    const last = this.reported.get(d.id);
    if (last?.generation === d.generation && last.state === 'failed' && state !== 'running') {
      const failed = this.statuses.get(d.id);
      if (state === 'failed' && failed?.generation === d.generation) {
        const status = { ...failed, error: error?.slice(0, 2000) ?? failed.error };
        this.statuses.set(d.id, status);
        await this.driver.saveStatus(status);
      }
      this.log('retry-transition', { id: d.id, generation: d.generation, state, error });
      return;
    }
    // Renters connect to the configured address, else to the one the server knows as ours.
    const address = this.publicHost ?? this.publicAddress;
    const at = <T extends { host: string }>(e: T | null | undefined) =>
      e ? { ...e, host: address ?? e.host } : null;
    const status: InstanceStatus = {
      id: d.id,
      generation: d.generation,
      state,
      ssh: at(endpoints?.ssh),
      vnc: at(endpoints?.vnc),
      error: error?.slice(0, 2000) ?? null,
      ...(progress ? { progress } : {}),
      ...(state === 'running' && endpoints?.hostKeys ? { hostKeys: endpoints.hostKeys } : {}),
      ...(state === 'running' && endpoints?.imageDigest
        ? { imageDigest: endpoints.imageDigest }
        : {}),
    };
    this.statuses.set(d.id, status);
    if (state !== 'terminated') await this.driver.saveStatus(status);
    this.log('transition', { id: d.id, generation: d.generation, state, error });
    try {
      const res = await this.api.report({ ...status, at: new Date().toISOString() });
      this.reported.set(d.id, { generation: d.generation, state });
      if (!res.accepted) this.log('report-stale', { id: d.id, generation: d.generation, state });
    } catch (err) {
      // The next heartbeat carries this status anyway; steady states are reported again.
      this.log('report-failed', { id: d.id, error: (err as Error).message });
    }
  }
}

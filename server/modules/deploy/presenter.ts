import type { DeploymentStatusView } from '../../../shared/contracts/deploy';
import {
  type DeployTemplateId,
  isDeployTemplateId,
  JUPYTER_PORT,
  jupyterTokenIn,
} from '../../../shared/deploy-templates';
import { guestMemoryGb } from '../../../shared/rules/gpu-share';
import type { InstanceState } from '../../../shared/rules/instance-lifecycle';
import { microsToDollars } from '../../../shared/rules/money';
import { sftpUrl, sshCommand, sshTunnelCommand } from '../../../shared/rules/shell-command';
import { shownHostError } from '../../../shared/rules/system-error';
import { provisioningStepOf } from '../instances/reads/progress';
import type { InstanceRow } from '../instances/service';

/** The web console's page for an instance (the VM dashboard's console route). */
export const webTerminalPath = (id: number) => `/vm-dashboard/console/${id}`;

function pendingText(state: InstanceState, error: string | null): string | null {
  switch (state) {
    case 'running':
      return null;
    case 'provisioning':
    case 'starting':
      return 'Your instance is being prepared. Access details appear here once it is running.';
    case 'stopping':
    case 'stopped':
      return 'This instance is stopped. Start it from Manage Instances to reach it again.';
    case 'failed':
      return error
        ? `This instance failed and has ended: ${error}`
        : 'This instance failed and has ended.';
    default:
      return 'This instance has ended.';
  }
}

/**
 * A deployment in its contract's shape (shared/contracts/deploy.ts), with real values: the
 * addresses come from the host's report and exist only while the instance runs; until then
 * `pending` says why they are missing. The Jupyter token is the instance's own (inside its
 * user-data): this is shown to its owner only.
 */
export function presentDeployment(row: InstanceRow, expectedReadyMs: number): DeploymentStatusView {
  const { instance, listing } = row;
  const state = instance.status as InstanceState;
  const template: DeployTemplateId = isDeployTemplateId(instance.template)
    ? instance.template
    : 'pytorch';
  const running = state === 'running' && instance.sshHost !== null;
  const endpoint = {
    user: instance.sshUsername,
    host: instance.sshHost ?? '',
    port: instance.sshPort,
  };
  const token = jupyterTokenIn(instance.userData);
  return {
    deployment: {
      deployment_id: instance.id,
      status: state,
      gpu_type: listing.model,
      template,
      kind: instance.kind,
      storage_gb: instance.storageGb,
      cpu_cores: instance.cpus,
      ram_gb: guestMemoryGb(instance),
      hourly_rate: microsToDollars(instance.hourlyRateMicros),
      location: listing.location,
      is_demo_host: listing.isDemoHost,
      created_at: instance.startTime.toISOString(),
      estimated_ready_time: (
        instance.readyAt ?? new Date(instance.startTime.getTime() + expectedReadyMs)
      ).toISOString(),
      ready_at: instance.readyAt?.toISOString() ?? null,
      error: shownHostError(instance.hostError),
      provisioning_step: provisioningStepOf(instance),
    },
    access_info: running
      ? {
          ssh_command: sshCommand(endpoint, instance.id),
          web_terminal: webTerminalPath(instance.id),
          jupyter: token ? `http://localhost:${JUPYTER_PORT}/lab?token=${token}` : null,
          jupyter_tunnel: token ? sshTunnelCommand(endpoint, instance.id, JUPYTER_PORT) : null,
          file_manager: sftpUrl(endpoint),
          pending: null,
          ssh_host_key_fingerprint: instance.sshHostKeyFingerprint,
        }
      : {
          ssh_command: null,
          web_terminal: null,
          jupyter: null,
          jupyter_tunnel: null,
          file_manager: null,
          pending: pendingText(state, shownHostError(instance.hostError)),
          ssh_host_key_fingerprint: null,
        },
  };
}

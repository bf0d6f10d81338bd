import type { PublicGpuListing, PublicInstance } from '../../shared/contracts/public-api';
import { sshCommand } from '../../shared/rules/shell-command';
import { type Column, fields } from '../output';

/** How instances and GPUs look on a terminal. */
export const instanceColumns: Column<PublicInstance>[] = [
  ['id', (i) => i.id],
  ['status', (i) => i.status],
  ['gpu', (i) => i.gpuModel],
  ['plan', (i) => i.billingPlan],
  ['$/hour', (i) => i.hourlyRate],
  ['ssh', (i) => (i.sshHost ? `${i.sshUsername}@${i.sshHost}:${i.sshPort}` : null)],
  ['created', (i) => i.createdAt],
];

export const gpuColumns: Column<PublicGpuListing>[] = [
  ['id', (g) => g.id],
  ['model', (g) => g.model],
  ['memory', (g) => g.memory],
  ['location', (g) => g.location],
  ['$/hour', (g) => g.hourlyRate],
  ['available', (g) => g.availableCount],
  ['provider', (g) => g.provider.name],
];

export function instanceFields(i: PublicInstance): string {
  return fields([
    ['ID', i.id],
    ['Status', i.status],
    ['GPU', `${i.gpuModel} (${i.location})`],
    ['Plan', i.billingPlan === 'booked' ? `booked, ${i.durationHours} h` : 'metered'],
    ['Rate', `$${i.hourlyRate}/hour`],
    [
      'SSH',
      i.sshHost
        ? sshCommand({ user: i.sshUsername, host: i.sshHost, port: i.sshPort })
        : 'not ready yet',
    ],
    ...(i.failureReason ? [['Reason', i.failureReason] as [string, string]] : []),
    ['Ready by', i.estimatedStartTime],
    ['Actions', i.actions.join(', ') || 'none'],
    ['Stops at', i.stopAt],
    ['Terminates at', i.terminateAt],
  ]);
}

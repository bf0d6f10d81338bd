import type { VmInstanceView, VmStatus } from '../../../shared/contracts/kvm';
import { LIVE_STATES } from '../../../shared/rules/instance-lifecycle';
import type { BadgeTone } from '../../components/ui/badge';

/**
 * Badge colours: running green, stopped yellow, creating blue,
 * terminated red, anything else (starting, stopping, terminating, failed) gray.
 */
export const STATUS_TONES: Partial<Record<VmStatus, BadgeTone>> = {
  running: 'success',
  stopped: 'warning',
  creating: 'info',
  terminated: 'danger',
};

/** Where a metered instance was made (the `source` of the VM API). */
export const SOURCE_LABELS: Record<string, string> = {
  vm: 'VM Dashboard',
  deploy: 'Instant Deploy',
  api: 'API',
};

/**
 * A VM counted as active on My Dashboard: on its way, running or on its way to stopping. A
 * stopped one (storage only) is listed but not counted; an ended one neither.
 */
export function isActiveVm(vm: Pick<VmInstanceView, 'state'>): boolean {
  return LIVE_STATES.includes(vm.state) && vm.state !== 'stopped';
}

/**
 * The VMs as My Dashboard's summary cards count them beside the booked rentals
 * (web/features/rentals/components/summary-cards.tsx reads this shape).
 */
export function meteredEntries(vms: VmInstanceView[]) {
  return vms.map((vm) => ({
    key: `vm-${vm.vm_id}`,
    name: `${vm.gpu_type} #${vm.vm_id}`,
    createdAt: vm.created_at,
    status: vm.status,
    active: isActiveVm(vm),
    spent: Number(vm.total_cost),
  }));
}

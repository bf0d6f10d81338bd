import { describe, expect, it } from 'vitest';
import type { VmInstanceView } from '../../../../shared/contracts/kvm';
import type { InstanceState } from '../../../../shared/rules/instance-lifecycle';
import { VM_POLL_MS } from '../../../../shared/vm-options';
import { VM_TRANSITION_POLL_MS, vmInstancesQueryOptions } from './get-vm-instances';

type Interval = (query: { state: { data: VmInstanceView[] | undefined } }) => number | false;

const intervalFor = (states: InstanceState[] | undefined) =>
  (vmInstancesQueryOptions(true).refetchInterval as unknown as Interval)({
    state: { data: states?.map((state) => ({ state }) as VmInstanceView) },
  });

describe('the VM list poll', () => {
  it('polls every 30 s while every VM is settled, or before the first answer', () => {
    expect(intervalFor(undefined)).toBe(VM_POLL_MS);
    expect(intervalFor([])).toBe(VM_POLL_MS);
    expect(intervalFor(['running', 'stopped', 'terminated', 'failed'])).toBe(VM_POLL_MS);
  });

  it('follows a VM on its way to another state every 5 s', () => {
    for (const state of ['provisioning', 'starting', 'stopping', 'terminating'] as const) {
      expect(intervalFor(['running', state])).toBe(VM_TRANSITION_POLL_MS);
    }
  });
});

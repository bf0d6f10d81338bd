import { describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../shared/contracts/agent-protocol';
import { DriverError } from './driver';
import { KindRouter } from './kind-router';
import { desiredInstance } from './test/desired-instance';
import { describeDriverContract } from './test/driver-contract';
import { MemoryDriver } from './test/memory-driver';

describeDriverContract('the kind router over one VM driver', async () => ({
  driver: new KindRouter({ vm: new MemoryDriver() }),
}));

const container = (id: string): DesiredInstance => ({
  ...desiredInstance(id),
  kind: 'container',
  container: { image: 'localhost/rentgpu-test:1' },
});

describe('KindRouter', () => {
  it('sends each kind to its own driver and lists both', async () => {
    const vm = new MemoryDriver();
    const ct = new MemoryDriver({ publicHost: 'containers' });
    const router = new KindRouter({ vm, container: ct });
    expect(router.kinds).toEqual(['container', 'vm']);
    await router.create(desiredInstance('v'), { gpus: [] });
    const up = await router.create(container('c'), { gpus: [] });
    expect(up.ssh?.host).toBe('containers');
    expect(vm.calls).toEqual(['create v@1']);
    expect(ct.calls).toEqual(['create c@1']);
    expect((await router.list()).map((i) => i.id).sort()).toEqual(['c', 'v']);
    expect((await router.endpoints('c', 'renter'))?.ssh?.host).toBe('containers');
    await router.stop('c');
    expect((await ct.list())[0]).toMatchObject({ id: 'c', running: false });
    expect((await vm.list())[0]).toMatchObject({ id: 'v', running: true });
    await router.terminate('c');
    expect((await router.list()).map((i) => i.id)).toEqual(['v']);
  });

  it('refuses a kind the host does not run, with the reason', async () => {
    const router = new KindRouter({ vm: new MemoryDriver() });
    expect(router.kinds).toEqual(['vm']);
    await expect(router.create(container('c'), { gpus: [] })).rejects.toThrow(
      new DriverError('This host does not run containers (AGENT_DRIVERS has no container).'),
    );
    const onlyContainers = new KindRouter({ container: new MemoryDriver() });
    await expect(onlyContainers.create(desiredInstance('v'), { gpus: [] })).rejects.toThrow(
      'This host does not run virtual machines',
    );
    await expect(onlyContainers.images.ensure({} as never)).rejects.toThrow(DriverError);
    expect(onlyContainers.images.statuses()).toEqual([]);
  });
});

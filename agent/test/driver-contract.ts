import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesiredInstance, InstanceStatus } from '../../shared/contracts/agent-protocol';
import { type BootOptions, DriverError, type InstanceDriver } from '../driver';
import { desiredInstance } from './desired-instance';

export interface ContractHost {
  driver: InstanceDriver;
  close?: () => Promise<void>;
}

/**
 * What agent/driver.ts promises, as tests any driver must pass: run against the in-memory
 * driver (memory-driver.test.ts), and the way to hold a new driver (containers) to the same
 * life of an instance (agent/container/driver.e2e.test.ts). `host()` gives a driver whose
 * instances become ready on their own.
 */
export function describeDriverContract(
  name: string,
  host: () => Promise<ContractHost>,
  /** `console: false`: a driver whose instances have no VNC console (containers). */
  options: { console?: boolean } = {},
) {
  describe(`${name} keeps the driver contract`, () => {
    let h: ContractHost;
    let driver: InstanceDriver;
    beforeEach(async () => {
      h = await host();
      driver = h.driver;
    });
    afterEach(async () => {
      await h.close?.();
    });

    const spec = (id: string, generation = 1): DesiredInstance =>
      desiredInstance(id, 'running', generation);
    const boot: BootOptions = { gpus: [] };
    const listed = async (id: string) => (await driver.list()).find((i) => i.id === id);
    const status = (id: string, state: InstanceStatus['state']): InstanceStatus => ({
      id,
      generation: 1,
      state,
      ssh: null,
      vnc: null,
      error: null,
    });

    it('creates an instance that runs and is ready, with endpoints for the renter', async () => {
      expect(await driver.list()).toEqual([]);
      const endpoints = await driver.create(spec('a'), boot);
      expect(endpoints.ssh?.user).toBe('renter');
      if (options.console === false) expect(endpoints.vnc).toBeNull();
      else expect(endpoints.vnc).not.toBeNull();
      expect(await listed('a')).toMatchObject({ id: 'a', running: true, status: null });
      expect((await listed('a'))?.runningAs).not.toBeNull();
      expect(await driver.endpoints('a', 'renter')).toEqual(endpoints);
    });

    it('stops an instance and starts it again on the same disk and endpoints', async () => {
      const up = await driver.create(spec('a'), boot);
      await driver.stop('a');
      expect(await listed('a')).toMatchObject({ running: false, runningAs: null });
      await expect(driver.awaitReady(spec('a'))).rejects.toThrow(DriverError);
      let asked = 0;
      const again = await driver.start(spec('a', 2), {
        ...boot,
        image: async () => {
          asked++;
          return 'not-asked';
        },
      });
      expect(asked).toBe(0);
      expect(again.ssh).toEqual(up.ssh);
      expect((await listed('a'))?.running).toBe(true);
      expect(await driver.awaitReady(spec('a', 2))).toEqual(again);
    });

    it('keeps the last status with the instance, and ignores one for an unknown id', async () => {
      await driver.create(spec('a'), boot);
      await driver.saveStatus(status('a', 'running'));
      await driver.saveStatus(status('nobody', 'running'));
      expect((await driver.list()).map((i) => [i.id, i.status?.state])).toEqual([['a', 'running']]);
      await driver.forceOff('a');
      expect(await listed('a')).toMatchObject({ running: false, status: status('a', 'running') });
    });

    it('refuses to start or await an unknown instance', async () => {
      await expect(driver.start(spec('ghost'), boot)).rejects.toThrow(DriverError);
      await expect(driver.awaitReady(spec('ghost'))).rejects.toThrow(DriverError);
      expect(await driver.endpoints('ghost', 'renter')).toBeNull();
      expect(await driver.list()).toEqual([]);
    });

    it('terminates an instance for good; stop and terminate of an unknown id do nothing', async () => {
      await driver.create(spec('a'), boot);
      await driver.create(spec('b'), boot);
      await driver.terminate('a');
      expect((await driver.list()).map((i) => i.id)).toEqual(['b']);
      expect(await driver.endpoints('a', 'renter')).toBeNull();
      await expect(driver.start(spec('a', 2), boot)).rejects.toThrow(DriverError);
      await driver.terminate('a');
      await driver.stop('a');
      await driver.forceOff('a');
      expect((await driver.list()).map((i) => i.id)).toEqual(['b']);
    });

    it('makes the disk from the image once; a create that failed for its image can be repeated', async () => {
      await expect(
        driver.create(spec('a'), {
          ...boot,
          image: () => Promise.reject(new Error('image x is not in the catalogue')),
        }),
      ).rejects.toThrow('image x is not in the catalogue');
      expect((await listed('a'))?.running ?? false).toBe(false);
      let asked = 0;
      const image = async () => {
        asked++;
        return 'debian-12';
      };
      await driver.create(spec('a'), { ...boot, image });
      await driver.stop('a');
      await driver.start(spec('a', 2), { ...boot, image });
      expect(asked).toBe(1);
      await driver.terminate('a');
      await driver.create(spec('a', 3), { ...boot, image });
      expect(asked).toBe(2);
    });
  });
}

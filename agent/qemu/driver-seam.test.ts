import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { DriverError } from '../driver';
import { desiredInstance } from '../test/desired-instance';
import { QemuDriver } from './driver';
import { noBootConfig } from './test-config';

/**
 * The parts of the driver contract (agent/test/driver-contract.ts) QEMU keeps without running
 * a guest: the rest runs in agent.e2e.test.ts, which boots one.
 */
const spec: DesiredInstance = desiredInstance('ghost');

let dir: string;
let driver: QemuDriver;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'driver-seam-'));
  // Nothing here may start QEMU: an attempt fails the test.
  driver = new QemuDriver(noBootConfig(dir, { qemuImg: 'false', genisoimage: 'false' }));
});

afterEach(() => rm(dir, { recursive: true, force: true }));

describe('QemuDriver behind agent/driver.ts', () => {
  it('refuses to start or await an instance it does not have', async () => {
    await expect(driver.start(spec, { gpus: [] })).rejects.toThrow(
      new DriverError('unknown instance ghost'),
    );
    await expect(driver.awaitReady(spec)).rejects.toThrow(DriverError);
    expect(await driver.endpoints('ghost', 'renter')).toBeNull();
    expect(await driver.list()).toEqual([]);
  });

  it('does nothing for stop, force-off, terminate or a status of an unknown id', async () => {
    await driver.stop('ghost');
    await driver.forceOff('ghost');
    await driver.terminate('ghost');
    await driver.saveStatus({
      id: 'ghost',
      generation: 1,
      state: 'running',
      ssh: null,
      vnc: null,
      error: null,
    });
    expect(await driver.list()).toEqual([]);
  });

  it('holds its images in the state folder', () => {
    expect(driver.images.pathOf('debian-12', 'a'.repeat(64))).toBe(
      path.join(dir, 'images', `debian-12.${'a'.repeat(64)}.qcow2`),
    );
  });
});

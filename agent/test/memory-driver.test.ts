import { describe, expect, it, vi } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import type { CatalogueImage } from '../../shared/contracts/images';
import { DriverError } from '../driver';
import { desiredInstance } from './desired-instance';
import { describeDriverContract } from './driver-contract';
import { MemoryDriver } from './memory-driver';

describeDriverContract('the in-memory driver', async () => ({ driver: new MemoryDriver() }));

const spec: DesiredInstance = desiredInstance('m');

describe('MemoryDriver with manual readiness', () => {
  it('goes created → running (ready only once the boot finishes) → stopped → terminated', async () => {
    const driver = new MemoryDriver({ readiness: 'manual' });
    let giveImage!: (file: string) => void;
    const booted = driver.create(spec, {
      gpus: [],
      image: () => new Promise<string>((resolve) => (giveImage = resolve)),
    });
    await Promise.resolve();
    expect(driver.inspect('m')).toEqual({ phase: 'created', ready: false, image: undefined });
    expect((await driver.list())[0]).toMatchObject({ running: false });
    giveImage('debian-12');
    await vi.waitUntil(() => driver.hasPendingBoot('m'));
    expect(driver.inspect('m')).toEqual({ phase: 'running', ready: false, image: 'debian-12' });
    expect((await driver.list())[0]).toMatchObject({ running: true });
    // Adopting it meanwhile waits for the same boot.
    const adopted = driver.awaitReady(spec);
    driver.finishBoot('m');
    expect((await booted).ssh).toEqual({ host: 'localhost', port: 22001, user: 'renter' });
    expect(await adopted).toEqual(await booted);
    expect(driver.inspect('m')?.ready).toBe(true);
    await driver.stop('m');
    expect(driver.inspect('m')).toEqual({ phase: 'stopped', ready: false, image: 'debian-12' });
    await driver.terminate('m');
    expect(driver.inspect('m')).toBeUndefined();
    expect(driver.calls).toEqual(['create m@1', 'await-ready m', 'stop m', 'terminate m']);
  });

  it('fails a boot as the test says, leaving the instance running until it is forced off', async () => {
    const driver = new MemoryDriver({ readiness: 'manual' });
    const booted = driver.create(spec, { gpus: [] });
    await vi.waitUntil(() => driver.hasPendingBoot('m'));
    driver.finishBoot('m', new DriverError('SSH not answering'));
    await expect(booted).rejects.toThrow('SSH not answering');
    expect(driver.inspect('m')).toMatchObject({ phase: 'running', ready: false });
    await driver.forceOff('m');
    expect(driver.inspect('m')?.phase).toBe('stopped');
  });

  it('gives up waiting when the boot is superseded, and ends the boot when stopped', async () => {
    const driver = new MemoryDriver({ readiness: 'manual' });
    const abort = new AbortController();
    const superseded = driver.create(spec, { gpus: [], signal: abort.signal });
    await vi.waitUntil(() => driver.hasPendingBoot('m'));
    abort.abort();
    await expect(superseded).rejects.toThrow('boot superseded');
    const waiting = driver.awaitReady(spec);
    await driver.stop('m');
    await expect(waiting).rejects.toThrow(DriverError);
    expect(driver.hasPendingBoot('m')).toBe(false);
  });

  it('refuses GPUs the host does not have, and gives each instance its own endpoints', async () => {
    const driver = new MemoryDriver({ publicHost: 'h' });
    await expect(driver.create({ ...spec, gpuIndexes: [0] }, { gpus: [] })).rejects.toThrow(
      'GPU 0 is not on this host',
    );
    await driver.terminate('m');
    const a = await driver.create({ ...spec, id: 'a' }, { gpus: [] });
    const b = await driver.create({ ...spec, id: 'b' }, { gpus: [] });
    expect([a.ssh?.port, b.ssh?.port, a.vnc?.port, b.vnc?.port]).toEqual([
      22001, 22002, 5901, 5902,
    ]);
    const image: CatalogueImage = {
      name: 'x',
      title: 'x',
      url: 'http://127.0.0.1:9/x.qcow2',
      sha256: 'e'.repeat(64),
      sizeBytes: 1,
      format: 'qcow2',
      firmware: 'uefi',
    };
    expect(driver.images.holds(image)).toBe(false);
    await expect(driver.images.ensure(image)).rejects.toThrow('image x is not held on this host');
  });
});

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { type DriverConfig, QemuDriver } from './driver';
import { noBootConfig } from './test-config';

const run = promisify(execFile);
const haveTools = await Promise.all([
  run('qemu-img', ['--version']),
  run('genisoimage', ['--version']),
]).then(
  () => true,
  () => false,
);

const spec: DesiredInstance = {
  id: 'disk-1',
  generation: 1,
  state: 'running',
  kind: 'vm',
  cpus: 1,
  memoryMib: 128,
  diskGib: 3,
  gpuIndexes: [],
  sshUser: 'ubuntu',
  sshPublicKeys: [],
  platformSshPublicKey: null,
  vncPassword: 'pw',
  userData: null,
  image: 'debian-12',
};

let dir: string;
let driver: QemuDriver;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'driver-disk-'));
  // QEMU itself never starts here: the overlay is made before it is asked to.
  const config: DriverConfig = noBootConfig(dir, {
    qemuImg: 'qemu-img',
    genisoimage: 'genisoimage',
  });
  driver = new QemuDriver(config);
});

afterEach(() => rm(dir, { recursive: true, force: true }));

const info = async (file: string) =>
  JSON.parse((await run('qemu-img', ['info', '-U', '--output=json', file])).stdout) as {
    'virtual-size': number;
    'backing-filename'?: string;
  };

describe.skipIf(!haveTools)('QemuDriver disks over a cached image', () => {
  it('makes the overlay over the image it is given, grown to the instance size, once', async () => {
    const image = path.join(dir, 'images', 'debian-12.qcow2');
    await mkdir(path.dirname(image), { recursive: true });
    await run('qemu-img', ['create', '-q', '-f', 'qcow2', image, '1G']);
    let asked = 0;
    const backingImage = async () => {
      asked++;
      return image;
    };
    await expect(driver.boot(spec, [], undefined, { backingImage })).rejects.toThrow(
      /qemu failed to start/,
    );
    const disk = path.join(dir, 'instances', 'disk-1', 'disk.qcow2');
    expect(await info(disk)).toMatchObject({
      'virtual-size': 3 * 1024 ** 3,
      'backing-filename': image,
    });
    expect(await driver.backingFiles()).toEqual([image]);

    // A start with the overlay there already does not ask for the image again.
    await expect(driver.boot(spec, [], undefined, { backingImage })).rejects.toThrow();
    expect(asked).toBe(1);

    // Terminate deletes the overlay and leaves the image.
    await driver.terminate(spec.id);
    expect(await driver.backingFiles()).toEqual([]);
    expect((await info(image))['virtual-size']).toBe(1024 ** 3);
  });

  it('fails the boot with the reason when the image cannot be had, before any disk exists', async () => {
    const backingImage = () => Promise.reject(new Error('image x is not in the catalogue'));
    await expect(driver.boot(spec, [], undefined, { backingImage })).rejects.toThrow(
      'image x is not in the catalogue',
    );
    expect(await driver.backingFiles()).toEqual([]);
  });
});

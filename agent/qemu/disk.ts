import { execFile } from 'node:child_process';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileExists } from '../files';
import { instanceFiles } from './args';

const run = promisify(execFile);

/**
 * An instance's disk: a qcow2 overlay over its image (a verified catalogue image, else the
 * provider's AGENT_BASE_IMAGE), at least the size the renter asked for; a blank qcow2 when
 * there is no image. Made under a temporary name, so a crash never leaves half a disk.
 */
export async function ensureDisk(
  qemuImg: string,
  disk: string,
  diskGib: number,
  base: (() => Promise<string | null>) | string | null,
): Promise<void> {
  if (await fileExists(disk)) return;
  const tmp = `${disk}.tmp`;
  await rm(tmp, { force: true });
  const image = typeof base === 'function' ? await base() : base;
  let sizeBytes = diskGib * 1024 ** 3;
  if (image) {
    const info = JSON.parse((await run(qemuImg, ['info', '--output=json', image])).stdout) as {
      'virtual-size'?: number;
      format?: string;
    };
    sizeBytes = Math.max(sizeBytes, info['virtual-size'] ?? 0);
    await run(qemuImg, [
      'create',
      '-q',
      '-f',
      'qcow2',
      '-b',
      path.resolve(image),
      '-F',
      info.format ?? 'qcow2',
      tmp,
      String(sizeBytes),
    ]);
  } else {
    await run(qemuImg, ['create', '-q', '-f', 'qcow2', tmp, String(sizeBytes)]);
  }
  await rename(tmp, disk);
}

/** The files the overlays under `instancesDir` are backed by (the image cache never evicts them). */
export async function backingFiles(qemuImg: string, instancesDir: string): Promise<string[]> {
  const files: string[] = [];
  const ids = await readdir(instancesDir).catch(() => [] as string[]);
  for (const id of ids) {
    const dir = path.join(instancesDir, id);
    const disk = instanceFiles(dir).disk;
    if (!(await fileExists(disk))) continue;
    // -U: a running QEMU holds the overlay's lock; reading its header is safe.
    const info = JSON.parse((await run(qemuImg, ['info', '-U', '--output=json', disk])).stdout) as {
      'full-backing-filename'?: string;
      'backing-filename'?: string;
    };
    const backing = info['full-backing-filename'] ?? info['backing-filename'];
    if (backing) files.push(path.resolve(dir, backing));
  }
  return files;
}

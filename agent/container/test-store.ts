import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Podman } from './podman';

/**
 * A podman store of a test's (or a bench's) own, never the host's: images, containers,
 * networks and libpod's own state under `base`. `--tmpdir` matters most: libpod keeps
 * `/run/libpod` for every podman on the host, and a `system reset` without it clears that
 * folder under any other podman running meanwhile ("/run/libpod/alive: no such file").
 */
export function storeFlags(base: string): string[] {
  return [
    '--root',
    `${base}/storage`,
    '--runroot',
    `${base}/run`,
    '--tmpdir',
    `${base}/tmp`,
    '--network-config-dir',
    `${base}/net`,
  ];
}

/** The global flags every podman call of the driver carries (agent/container/podman.ts). */
export const DRIVER_FLAGS = [
  '--runtime',
  'runc',
  '--cgroup-manager',
  'cgroupfs',
  '--events-backend',
  'file',
] as const;

/** podman on the store under `base`, as the driver calls it. */
export function storePodman(base: string, env?: Readonly<Record<string, string>>): Podman {
  return new Podman('podman', [...DRIVER_FLAGS, ...storeFlags(base)], env);
}

/**
 * Two stand-in GPUs for CDI: device nodes at `node(0)` and `node(1)` with /dev/null's and
 * /dev/zero's numbers (made anew), and a CDI spec of kind `kind` at `file` naming each by its
 * index and by `names[i]`. `removeFakeGpus` takes them away.
 */
export async function writeFakeGpus(
  file: string,
  kind: string,
  node: (i: number) => string,
  names: readonly string[],
) {
  for (const i of [0, 1]) {
    await rm(node(i), { force: true });
    await promisify(execFile)('mknod', [node(i), 'c', '1', i === 0 ? '3' : '5']);
  }
  await mkdir('/etc/cdi', { recursive: true });
  const edits = (i: number) => ({ containerEdits: { deviceNodes: [{ path: node(i) }] } });
  await writeFile(
    file,
    JSON.stringify({
      cdiVersion: '0.5.0',
      kind,
      devices: [0, 1].flatMap((i) => [
        { name: String(i), ...edits(i) },
        { name: names[i], ...edits(i) },
      ]),
    }),
  );
}

/** Takes away what `writeFakeGpus` made. */
export async function removeFakeGpus(file: string, node: (i: number) => string) {
  await rm(file, { force: true });
  for (const i of [0, 1]) await rm(node(i), { force: true });
}

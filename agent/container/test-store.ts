import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ContainerDriver } from './driver';
import type { LocalRegistry } from './local-registry';
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
  return new Podman('podman', [...DRIVER_FLAGS, ...storeFlags(base)], env, path.join(base, 'cwd'));
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

/**
 * An image of `mib` MiB of random bytes over the image `base`: built with `source` in a build
 * context at `dir` (removed once built) as `tag`, then pushed to the (plain HTTP) registry as
 * `reference`, the pushed digest written to `digestFile` when one is named.
 */
export async function pushRandomImage(
  source: Podman,
  o: {
    dir: string;
    base: string;
    tag: string;
    reference: string;
    mib: number;
    timeoutMs: number;
    digestFile?: string;
  },
) {
  await mkdir(o.dir);
  await promisify(execFile)('sh', ['-c', `head -c ${o.mib}M /dev/urandom > ${o.dir}/random.bin`]);
  await writeFile(
    path.join(o.dir, 'Containerfile'),
    `FROM ${o.base}\nCOPY random.bin /random.bin\n`,
  );
  await source.run(['build', '--quiet', '-t', o.tag, o.dir], { timeoutMs: o.timeoutMs });
  await rm(o.dir, { recursive: true });
  const digest = o.digestFile ? ['--digestfile', o.digestFile] : [];
  await source.run(['push', '--quiet', '--tls-verify=false', ...digest, o.tag, o.reference], {
    timeoutMs: o.timeoutMs,
  });
}

/**
 * The end of a run with a source store and a driver store under `base` (a pull test or
 * bench): the driver's containers terminated, both stores reset, the registry stopped and
 * `base` removed, each step's failure ignored.
 */
export async function tearDownPullRun(
  base: string,
  driver: ContainerDriver | null,
  registry: LocalRegistry | null,
) {
  if (driver) for (const i of await driver.list()) await driver.terminate(i.id).catch(() => {});
  for (const name of ['driver', 'source']) {
    await storePodman(`${base}/${name}`)
      .run(['system', 'reset', '--force'])
      .catch(() => {});
  }
  await registry?.stop();
  await rm(base, { recursive: true, force: true }).catch(() => {});
}

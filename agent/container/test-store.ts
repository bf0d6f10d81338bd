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

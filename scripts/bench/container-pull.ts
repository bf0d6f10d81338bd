/**
 * `npm run bench:containers` (not part of `npm test`; root, podman, runc and Debian's
 * docker-registry needed): what a container costs on this host, printed, no assertions.
 *
 * - create → ready (SSH login verified) for a ~1 GiB image not yet pulled, from a real
 *   registry on 127.0.0.1 (agent/container/local-registry.ts: distribution 2.8, plain HTTP):
 *   the test rootfs (scripts/test-container-image/build.sh) plus a 1 GiB layer of random,
 *   incompressible bytes; with the download's progress as the driver reports it;
 * - the same create with the image already held (several times);
 * - per running container, N of them: conmon's RSS, the container's own processes' RSS, and
 *   the host's free and available memory before and after (the agent runs no process per
 *   container).
 *
 * Everything lives under /var/tmp/rentgpu-bench-ct-<pid> (a storage root for building and
 * pushing, another for the driver, the registry's storage) and is removed at the end: the
 * host's own podman store is not touched. Env: BENCH_CT_N (5), BENCH_CT_MIB (1024),
 * BENCH_CT_WARM (3).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ContainerDriver } from '../../agent/container/driver';
import {
  type LocalRegistry,
  REGISTRY_BINARY,
  startLocalRegistry,
} from '../../agent/container/local-registry';
import { pullTotalBytes } from '../../agent/container/pull-progress';
import {
  pushRandomImage,
  storeFlags,
  storePodman,
  tearDownPullRun,
} from '../../agent/container/test-store';
import { desiredInstance } from '../../agent/test/desired-instance';
import type { ProvisioningProgress } from '../../shared/contracts/images';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const N = Number(process.env.BENCH_CT_N ?? 5);
const MIB = Number(process.env.BENCH_CT_MIB ?? 1024);
const WARM = Number(process.env.BENCH_CT_WARM ?? 3);
const BASE = `/var/tmp/rentgpu-bench-ct-${process.pid}`;
const roots = (name: string) => storeFlags(`${BASE}/${name}`);
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);
const s = (ms: number) => (ms / 1000).toFixed(1);

const MEMINFO = ['MemFree', 'MemAvailable', 'Cached', 'Slab', 'Shmem'] as const;
async function meminfo(): Promise<Record<(typeof MEMINFO)[number], number>> {
  const text = await readFile('/proc/meminfo', 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return Object.fromEntries(MEMINFO.map((k) => [k, kb(k) * 1024])) as Record<
    (typeof MEMINFO)[number],
    number
  >;
}

/** The median of 9 readings 1 s apart: other work on a shared host moves these by tens of MiB. */
async function settledMeminfo() {
  const samples: Awaited<ReturnType<typeof meminfo>>[] = [];
  for (let i = 0; i < 9; i++) {
    if (i) await sleep(1000);
    samples.push(await meminfo());
  }
  return Object.fromEntries(MEMINFO.map((k) => [k, median(samples.map((m) => m[k]))])) as Awaited<
    ReturnType<typeof meminfo>
  >;
}

async function rssOf(pid: number | string): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0) * 1024;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  if (process.getuid?.() !== 0) throw new Error('run as root (podman with --userns=auto)');
  if (!existsSync(REGISTRY_BINARY)) {
    throw new Error(`${REGISTRY_BINARY} is absent: apt-get install -y docker-registry`);
  }
  await mkdir(BASE, { recursive: true });
  let registry: LocalRegistry | null = null;
  let driver: ContainerDriver | null = null;
  try {
    registry = await startLocalRegistry({ parentDir: BASE });
    const source = storePodman(`${BASE}/source`, registry.env);
    await run(path.join(REPO, 'scripts/test-container-image/build.sh'));
    await source.run([
      'import',
      path.join(REPO, '.cache/test-container-image/rootfs.tar'),
      'localhost/bench-base:1',
    ]);
    let t = Date.now();
    const reference = `${registry.host}/rentgpu/bench-big:1`;
    await pushRandomImage(source, {
      dir: path.join(BASE, 'context'),
      base: 'localhost/bench-base:1',
      tag: 'localhost/bench-big:1',
      reference,
      mib: MIB,
      timeoutMs: 1_800_000,
    });
    console.info(
      `image built and pushed (gzip of ${MIB} MiB on this host) in ${s(Date.now() - t)} s`,
    );
    await source.run(['system', 'reset', '--force']).catch(() => {});

    driver = new ContainerDriver({
      stateDir: await mkdtemp(path.join(BASE, 'state-')),
      listenHost: '127.0.0.1',
      publicHost: '127.0.0.1',
      sshPorts: [43100, 43139],
      bootTimeoutMs: 120_000,
      stopTimeoutMs: 2000,
      podmanFlags: roots('driver'),
      podmanEnv: registry.env,
      namePrefix: `rgb${process.pid}`,
    });
    const total = await pullTotalBytes(driver.podman, reference);
    const spec = (id: string) => ({
      ...desiredInstance(id),
      kind: 'container' as const,
      container: { image: reference },
    });

    // 1. Not yet pulled.
    const seen: { at: number; p: ProvisioningProgress }[] = [];
    t = Date.now();
    await driver.create(spec('cold'), {
      gpus: [],
      progress: (p) => seen.push({ at: Date.now() - t, p: { ...p } }),
    });
    const cold = Date.now() - t;
    const pulled = seen.find((e) => e.p.percent === 100)?.at ?? 0;
    const began = seen.find((e) => e.p.step === 'downloading-image')?.at ?? 0;
    const downloaded = seen.find((e) => e.p.percent === 99)?.at ?? pulled;
    const image = await driver.imageOf('cold');
    console.info(
      `image: ${mib(total ?? 0)} MiB compressed (manifest), ${mib(image?.sizeBytes ?? 0)} MiB unpacked`,
    );
    console.info(
      `create → ready, image not held: ${s(cold)} s (before the pull ${s(began)} s; pull ${s(pulled - began)} s of which download to 99% ${s(downloaded - began)} s, ${mib((total ?? 0) / ((downloaded - began) / 1000))} MiB/s; create+start+login ${s(cold - pulled)} s)`,
    );
    console.info(
      `  progress: ${seen.map((e) => `${e.p.step === 'booting' ? 'booting' : `${e.p.percent}%`}@${s(e.at)}s`).join(' ')}`,
    );
    await driver.terminate('cold');

    // 2. Held.
    const warm: number[] = [];
    for (let i = 0; i < WARM; i++) {
      t = Date.now();
      await driver.create(spec(`warm${i}`), { gpus: [] });
      warm.push(Date.now() - t);
      await driver.terminate(`warm${i}`);
    }
    console.info(
      `create → ready, image held: ${warm.map((ms) => s(ms)).join(', ')} s (median ${s(median(warm))} s)`,
    );

    // 3. N running containers.
    await run('sync');
    await sleep(2000);
    const du = async () =>
      Number((await run('du', ['-sbx', `${BASE}/driver/storage`])).stdout.split('\t')[0]);
    const diskBefore = await du();
    const before = await settledMeminfo();
    for (let i = 0; i < N; i++) await driver.create(spec(`run${i}`), { gpus: [] });
    const after = await settledMeminfo();
    const diskAfter = await du();
    const conmon: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < N; i++) {
      const name = driver.nameOf(`run${i}`);
      const pid = (
        await driver.podman.run(['inspect', '--format', '{{.State.ConmonPid}}', name])
      ).trim();
      conmon.push(await rssOf(pid));
      const hpids = (await driver.podman.run(['top', name, 'hpid']))
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter(Boolean);
      let sum = 0;
      for (const h of hpids) sum += await rssOf(h);
      own.push(sum);
    }
    const stats = await driver.podman.run([
      'stats',
      '--no-stream',
      '--format',
      '{{.Name}} {{.MemUsage}}',
      ...Array.from({ length: N }, (_, i) => driver?.nameOf(`run${i}`) ?? ''),
    ]);
    console.info(`${N} running containers (the agent runs no process per container):`);
    console.info(
      `  conmon RSS per container: ${conmon.map(mib).join(', ')} MiB (median ${mib(median(conmon))})`,
    );
    console.info(
      `  the container's own processes' RSS (catatonit, dropbear, entry.sh): ${own.map(mib).join(', ')} MiB (median ${mib(median(own))})`,
    );
    console.info(
      `  podman stats (cgroup memory incl. page cache): ${stats
        .trim()
        .split('\n')
        .map((l) => l.split(' ').slice(1).join(' '))
        .join('; ')}`,
    );
    console.info(
      `  host /proc/meminfo, less after than before, per container: ${MEMINFO.map((k) => `${k} ${mib((before[k] - after[k]) / N)} MiB`).join(', ')}`,
    );
    console.info(
      `  the driver's podman store grew (du -sbx: not the running containers' mounted views) ${mib((diskAfter - diskBefore) / N)} MiB per container`,
    );
  } finally {
    await tearDownPullRun(BASE, driver, registry);
  }
}

console.info(
  `bench:containers — ${process.platform} ${process.arch}, ${os.availableParallelism()} cores; N=${N}, image ${MIB} MiB random + test rootfs, warm creates ${WARM}`,
);
await main();

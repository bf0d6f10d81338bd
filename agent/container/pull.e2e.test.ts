import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProvisioningProgress } from '../../shared/contracts/images';
import { desiredInstance } from '../test/desired-instance';
import { ContainerDriver } from './driver';
import { type LocalRegistry, REGISTRY_BINARY, startLocalRegistry } from './local-registry';
import type { Podman } from './podman';
import { pullTotalBytes } from './pull-progress';
import { pushRandomImage, storeFlags, storePodman, tearDownPullRun } from './test-store';

/**
 * A container pull's progress against a real registry: Debian's docker-registry (distribution
 * 2.8) on 127.0.0.1 with a storage folder of its own, made insecure for this run's podman
 * processes only by a registries.conf of the run (CONTAINERS_REGISTRIES_CONF). The image (the
 * test rootfs plus a 192 MiB layer of random bytes, so the pull takes a few progress ticks) is
 * built and pushed from one storage root of this run; the driver pulls it into another.
 * Skipped, saying so, where /usr/bin/docker-registry is absent (`apt-get install docker-registry`).
 */
const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const RUN = `${process.pid}`;
const BASE = `/tmp/rentgpu-pull-${RUN}`;
const roots = (name: string) => storeFlags(`${BASE}/${name}`);
const haveRegistry = existsSync(REGISTRY_BINARY);
if (!haveRegistry) {
  console.warn(
    `agent/container/pull.e2e.test.ts skipped: ${REGISTRY_BINARY} is absent (apt-get install -y docker-registry)`,
  );
}

describe.skipIf(!haveRegistry)('a container pull from a real registry', () => {
  let registry: LocalRegistry;
  let source: Podman;
  let driver: ContainerDriver;
  let reference: string;
  let digest: string;
  let layers: number;

  beforeAll(async () => {
    await mkdir(BASE, { recursive: true });
    registry = await startLocalRegistry({ parentDir: BASE });
    source = storePodman(`${BASE}/source`, registry.env);
    await run(path.join(REPO, 'scripts/test-container-image/build.sh'));
    await source.run([
      'import',
      path.join(REPO, '.cache/test-container-image/rootfs.tar'),
      'localhost/rentgpu-pull-base:1',
    ]);
    reference = `${registry.host}/rentgpu/pull:1`;
    const digestFile = path.join(BASE, 'digest');
    await pushRandomImage(source, {
      dir: path.join(BASE, 'context'),
      base: 'localhost/rentgpu-pull-base:1',
      tag: 'localhost/rentgpu-pull:1',
      reference,
      mib: 192,
      timeoutMs: 300_000,
      digestFile,
    });
    digest = (await readFile(digestFile, 'utf8')).trim();
    const manifest = (await (
      await fetch(`http://${registry.host}/v2/rentgpu/pull/manifests/1`, {
        headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
      })
    ).json()) as { layers: { size: number }[] };
    layers = manifest.layers.reduce((sum, l) => sum + l.size, 0);
    driver = new ContainerDriver({
      // Under BASE: removed with the run's store (tearDownPullRun).
      stateDir: await mkdtemp(path.join(BASE, 'state-')),
      listenHost: '127.0.0.1',
      publicHost: '127.0.0.1',
      sshPorts: [42900, 42919],
      bootTimeoutMs: 60_000,
      stopTimeoutMs: 2000,
      podmanFlags: roots('driver'),
      podmanEnv: registry.env,
      namePrefix: `rgp${RUN}`,
    });
  }, 600_000);

  afterAll(async () => {
    await tearDownPullRun(BASE, driver, registry);
  });

  it("learns the image's compressed size from its manifest through podman", async () => {
    expect(layers).toBeGreaterThan(192 * 1024 ** 2);
    expect(await pullTotalBytes(driver.podman, reference)).toBe(layers);
    expect(await pullTotalBytes(driver.podman, `${registry.host}/rentgpu/absent:1`)).toBeNull();
  });

  it('reports rising percentages while pulling, 100 at the end, then boots the pushed digest', async () => {
    const seen: ProvisioningProgress[] = [];
    const t0 = Date.now();
    const up = await driver.create(
      { ...desiredInstance('p'), kind: 'container', container: { image: reference } },
      { gpus: [], progress: (p) => seen.push({ ...p }) },
    );
    console.info(
      `create → ready pulling ${(layers / 1024 ** 2).toFixed(0)} MiB: ${Date.now() - t0} ms; progress ${seen.map((p) => p.percent ?? p.step).join(' ')}`,
    );
    expect(up.imageDigest).toBe(digest);
    const downloading = seen
      .filter((p) => p.step === 'downloading-image')
      .map((p) => p.percent ?? -1);
    expect(downloading[0]).toBe(0);
    expect(downloading.at(-1)).toBe(100);
    expect(downloading).toEqual([...downloading].sort((a, b) => a - b));
    expect(new Set(downloading).size).toBe(downloading.length);
    expect(
      downloading.some((p) => p > 0 && p < 100),
      downloading.join(' '),
    ).toBe(true);
    expect(seen.at(-1)).toEqual({ step: 'booting', percent: null });
  });

  it('says nothing of a download when the image is held', async () => {
    const seen: ProvisioningProgress[] = [];
    const up = await driver.create(
      { ...desiredInstance('q'), kind: 'container', container: { image: reference } },
      { gpus: [], progress: (p) => seen.push({ ...p }) },
    );
    expect(up.imageDigest).toBe(digest);
    expect(seen).toEqual([{ step: 'booting', percent: null }]);
  });
});

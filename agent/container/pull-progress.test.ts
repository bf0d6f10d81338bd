import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImageProgress } from '../driver';
import type { Podman } from './podman';
import {
  folderBytes,
  manifestFromInspect,
  manifestSizes,
  ociArch,
  pullPercent,
  pullTotalBytes,
  watchPull,
  withDigest,
} from './pull-progress';

const D = (c: string) => `sha256:${c.repeat(64)}`;

/** A single image's manifest as distribution 2.8 serves what `podman push` sent (OCI). */
const IMAGE_MANIFEST = {
  schemaVersion: 2,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: D('c'), size: 796 },
  layers: [
    { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: D('1'), size: 1087945 },
    { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: D('2'), size: 31460591 },
  ],
};

/** A Docker manifest list (what most Docker Hub images are). */
const LIST = {
  schemaVersion: 2,
  mediaType: 'application/vnd.docker.distribution.manifest.list.v2+json',
  manifests: [
    {
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      size: 529,
      digest: D('a'),
      platform: { architecture: 'arm64', os: 'linux', variant: 'v8' },
    },
    {
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      size: 529,
      digest: D('b'),
      platform: { architecture: 'amd64', os: 'linux' },
    },
    {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      size: 566,
      digest: D('d'),
      platform: { architecture: 'unknown', os: 'unknown' },
    },
  ],
};

/** podman 4.3.1's words for a single image's manifest (measured against distribution 2.8). */
const goQuoted = (json: unknown) => JSON.stringify(JSON.stringify(json));
const SINGLE_IMAGE_ERROR = `Error: parsing manifest blob ${goQuoted(IMAGE_MANIFEST)} as a "application/vnd.oci.image.manifest.v1+json": Treating single images as manifest lists is not implemented\n`;

describe('manifestSizes', () => {
  it('sums the layers of an image manifest (the compressed bytes a pull downloads)', () => {
    expect(manifestSizes(IMAGE_MANIFEST)).toEqual({ kind: 'total', bytes: 1087945 + 31460591 });
  });

  it("picks this host's platform from a manifest list", () => {
    expect(manifestSizes(LIST, 'amd64')).toEqual({ kind: 'list', digest: D('b') });
    expect(manifestSizes(LIST, 'arm64')).toEqual({ kind: 'list', digest: D('a') });
    expect(manifestSizes(LIST, 's390x')).toEqual({ kind: 'unknown' });
  });

  it('says unknown for what has no sizes (schema 1, junk, a layer without size)', () => {
    expect(manifestSizes({ schemaVersion: 1, fsLayers: [{ blobSum: D('1') }] })).toEqual({
      kind: 'unknown',
    });
    expect(manifestSizes(null)).toEqual({ kind: 'unknown' });
    expect(manifestSizes('text')).toEqual({ kind: 'unknown' });
    expect(manifestSizes({ layers: [] })).toEqual({ kind: 'unknown' });
    expect(manifestSizes({ layers: [{ size: 10 }, { digest: D('1') }] })).toEqual({
      kind: 'unknown',
    });
    expect(manifestSizes({ layers: [{ size: -1 }] })).toEqual({ kind: 'unknown' });
    expect(
      manifestSizes(
        { manifests: [{ digest: 'nope', platform: { os: 'linux', architecture: 'amd64' } }] },
        'amd64',
      ),
    ).toEqual({ kind: 'unknown' });
  });

  it("names node's architectures as OCI does", () => {
    expect(ociArch('x64')).toBe('amd64');
    expect(ociArch('arm64')).toBe('arm64');
    expect(ociArch('riscv64')).toBe('riscv64');
  });
});

describe('manifestFromInspect', () => {
  it("reads podman's output (a manifest list)", () => {
    expect(manifestFromInspect(`${JSON.stringify(LIST, null, 4)}\n`)).toEqual(LIST);
  });

  it("takes a single image's manifest from podman 4.3's refusal, which quotes it", () => {
    expect(manifestFromInspect(SINGLE_IMAGE_ERROR)).toEqual(IMAGE_MANIFEST);
    // distribution's Docker schema 2 manifests are indented: Go quotes \n and \t as JSON does.
    const pretty = `Error: parsing manifest blob ${goQuoted(JSON.stringify(IMAGE_MANIFEST, null, '\t'))} as a "x"`;
    expect(manifestFromInspect(pretty)).toEqual(JSON.stringify(IMAGE_MANIFEST, null, '\t'));
  });

  it('is null for anything else', () => {
    expect(manifestFromInspect('')).toBeNull();
    expect(
      manifestFromInspect('Error: reading manifest 1 in localhost:1/x: connection refused'),
    ).toBeNull();
    expect(manifestFromInspect('{not json')).toBeNull();
    expect(manifestFromInspect('Error: parsing manifest blob "\\xff" as a')).toBeNull();
  });
});

describe('withDigest', () => {
  it('replaces the tag (not a registry port) by the digest', () => {
    expect(withDigest('127.0.0.1:5000/rentgpu/big:1', D('b'))).toBe(
      `127.0.0.1:5000/rentgpu/big@${D('b')}`,
    );
    expect(withDigest('127.0.0.1:5000/big', D('b'))).toBe(`127.0.0.1:5000/big@${D('b')}`);
    expect(withDigest('docker.io/library/ubuntu:24.04', D('b'))).toBe(
      `docker.io/library/ubuntu@${D('b')}`,
    );
    expect(withDigest(`ubuntu:24.04@${D('a')}`, D('b'))).toBe(`ubuntu@${D('b')}`);
  });
});

describe('pullPercent', () => {
  it('is floor(bytes / total), at most 99 while the pull runs; 0 while the total is unknown', () => {
    expect(pullPercent(0, 1000)).toBe(0);
    expect(pullPercent(9, 1000)).toBe(0);
    expect(pullPercent(10, 1000)).toBe(1);
    expect(pullPercent(999, 1000)).toBe(99);
    expect(pullPercent(1000, 1000)).toBe(99);
    // A config blob or retried layer can take the files past the manifest's total.
    expect(pullPercent(1500, 1000)).toBe(99);
    expect(pullPercent(500, null)).toBe(0);
    expect(pullPercent(500, 0)).toBe(0);
    expect(pullPercent(Number.NaN, 1000)).toBe(0);
  });
});

/** A Podman whose `manifest inspect` answers from a table (string: stdout; Error: stderr). */
function fakePodman(answers: Record<string, string | { stderr: string }>): Podman {
  return {
    run: async (args: readonly string[]) => {
      const answer = answers[args.at(-1) ?? ''];
      if (answer === undefined) throw Object.assign(new Error('no'), { stderr: 'Error: no' });
      if (typeof answer === 'string') return answer;
      throw Object.assign(new Error('failed'), answer);
    },
  } as unknown as Podman;
}

describe('pullTotalBytes', () => {
  it("follows a manifest list to this platform's image", async () => {
    const podman = fakePodman({
      'r.example/x:1': JSON.stringify(LIST),
      [`r.example/x@${D('b')}`]: { stderr: SINGLE_IMAGE_ERROR },
    });
    expect(await pullTotalBytes(podman, 'r.example/x:1', { arch: 'amd64' })).toBe(32548536);
    expect(await pullTotalBytes(podman, 'r.example/x:1', { arch: 'arm64' })).toBeNull();
    expect(await pullTotalBytes(podman, 'r.example/y:1')).toBeNull();
  });
});

describe('watchPull', () => {
  let parent: string;
  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('reports the bytes under the pull’s own TMPDIR and removes it at the end', async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'pp-'));
    const seen: ImageProgress[] = [];
    const watch = await watchPull({
      podman: fakePodman({ 'r.example/x:1': { stderr: SINGLE_IMAGE_ERROR } }),
      reference: 'r.example/x:1',
      parentDir: parent,
      intervalMs: 20,
      onProgress: (p) => seen.push(p),
    });
    const dir = watch.env.TMPDIR ?? '';
    expect(path.dirname(dir)).toBe(parent);
    await mkdir(path.join(dir, 'storage123'));
    await writeFile(path.join(dir, 'storage123', '1'), Buffer.alloc(1000));
    await writeFile(path.join(dir, 'storage123', '2'), Buffer.alloc(2345));
    await expect
      .poll(() => seen.at(-1), { timeout: 2000, interval: 20 })
      .toEqual({
        bytes: 3345,
        totalBytes: 32548536,
      });
    expect(await folderBytes(dir)).toBe(3345);
    await watch.stop();
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(seen.length).toBe(count);
    expect(await folderBytes(parent)).toBe(0);
  });

  it('runs the pull as before when no folder can be made', async () => {
    parent = '/nonexistent-rentgpu';
    const watch = await watchPull({
      podman: fakePodman({}),
      reference: 'r.example/x:1',
      parentDir: parent,
      onProgress: () => {
        throw new Error('never');
      },
    });
    expect(watch.env).toEqual({});
    await watch.stop();
  });
});

import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CatalogueImage, hostImageStatus } from '../../shared/contracts/images';
import { ImageServer } from '../test/image-server';
import { ImageCache, type ImageCacheOptions } from './cache';
import type { FetchProgress } from './fetch';

const run = promisify(execFile);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const qemuImg = process.env.AGENT_QEMU_IMG ?? 'qemu-img';
const haveQemuImg = await run(qemuImg, ['--version']).then(
  () => true,
  () => false,
);

let server: ImageServer;
let dir: string;
let inUse: string[];

const MiB = 1024 * 1024;

function entry(name: string, body: Buffer, over: Partial<CatalogueImage> = {}): CatalogueImage {
  server.files.set(`/${name}.img`, body);
  return {
    name,
    title: name,
    url: `${server.url}/${name}.img`,
    sha256: sha(body),
    sizeBytes: body.length,
    format: 'qcow2',
    firmware: 'uefi',
    ...over,
  };
}

function cache(over: Partial<ImageCacheOptions> = {}) {
  return new ImageCache({
    dir: path.join(dir, 'images'),
    limitBytes: 1024 * MiB,
    qemuImgBinary: qemuImg,
    inUse: async () => inUse,
    retryDelayMs: 10,
    progressIntervalMs: 0,
    ...over,
  });
}

beforeEach(async () => {
  server = new ImageServer();
  await server.start();
  dir = await mkdtemp(path.join(os.tmpdir(), 'image-cache-'));
  inUse = [];
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ImageCache', () => {
  it('downloads, verifies and keeps an image; a second ensure and a restart fetch nothing', async () => {
    const body = randomBytes(3 * MiB);
    const e = entry('ubuntu-22.04', body);
    const c = cache();
    await c.load();
    const progress: FetchProgress[] = [];
    const file = await c.ensure(e, (p) => progress.push(p));
    expect(file).toBe(path.join(dir, 'images', `ubuntu-22.04.${e.sha256}.qcow2`));
    expect(sha(await readFile(file))).toBe(e.sha256);
    expect(progress.at(-1)).toEqual({ bytes: body.length, totalBytes: body.length });
    expect(progress.every((p) => p.totalBytes === body.length)).toBe(true);
    expect(c.statuses()).toEqual([
      {
        name: 'ubuntu-22.04',
        state: 'ready',
        sha256: e.sha256,
        bytes: body.length,
        totalBytes: body.length,
        error: null,
      },
    ]);
    await c.ensure(e);
    expect(server.requests).toHaveLength(1);

    const again = cache();
    await again.load();
    expect(again.holds(e)).toBe(true);
    expect(await again.ensure(e)).toBe(file);
    expect(server.requests).toHaveLength(1);
  });

  it('resumes an interrupted transfer with a Range request', async () => {
    const body = randomBytes(4 * MiB);
    const e = entry('debian-12', body);
    server.cutAfter.set('/debian-12.img', 1 * MiB);
    const c = cache();
    await c.load();
    const file = await c.ensure(e);
    expect(sha(await readFile(file))).toBe(e.sha256);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.range).toBeNull();
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(server.requests[1]?.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(1 * MiB);
  });

  it('resumes a part left by an earlier agent, and starts again when the server ignores the range', async () => {
    const body = randomBytes(2 * MiB);
    const e = entry('img', body);
    await writePart(e, body.subarray(0, 500_000));
    const older = { ...e, sha256: 'b'.repeat(64) };
    await writePart(older, randomBytes(1000));
    const c = cache();
    await c.load();
    await c.ensure(e);
    expect(server.requests.map((r) => r.range)).toEqual(['bytes=500000-']);
    // The part of an older version of the image went with it.
    expect(existsSync(path.join(dir, 'images', `img.${'b'.repeat(64)}.part`))).toBe(false);

    // A part longer than the catalogue's size is no prefix of the image: start again.
    const e2 = entry('img2', body);
    await writePart(e2, randomBytes(body.length + 10));
    await c.ensure(e2);
    expect(server.requests.map((r) => r.range)).toEqual(['bytes=500000-', null]);
  });

  it('starts again when the server ignores the range, and refuses a file larger than stated', async () => {
    const body = randomBytes(1 * MiB);
    const e = entry('norange', body);
    await writePart(e, body.subarray(0, 1000));
    server.ignoreRange = true;
    const c = cache();
    await c.load();
    const file = await c.ensure(e);
    expect(sha(await readFile(file))).toBe(e.sha256);
    expect(server.requests.map((r) => r.range)).toEqual(['bytes=1000-']);

    const big = entry('big', body, { sizeBytes: body.length - 1 });
    await expect(c.ensure(big)).rejects.toThrow(
      `download failed: the download is larger than the catalogue's ${body.length - 1} bytes`,
    );
    expect(server.requests).toHaveLength(2); // not asked again
    expect(existsSync(path.join(dir, 'images', `big.${big.sha256}.part`))).toBe(false);
  });

  it('refuses an image whose checksum differs: deleted, reported failed, never handed out', async () => {
    const body = randomBytes(1 * MiB);
    const wrong = 'f'.repeat(64);
    const e = entry('ubuntu-22.04', body, { sha256: wrong });
    const c = cache();
    await c.load();
    await expect(c.ensure(e)).rejects.toThrow(
      `checksum mismatch: expected ${wrong}, got ${sha(body)}`,
    );
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
    expect(c.holds(e)).toBe(false);
    expect(c.statuses()).toEqual([
      {
        name: 'ubuntu-22.04',
        state: 'failed',
        sha256: wrong,
        bytes: body.length,
        totalBytes: body.length,
        error: `checksum mismatch: expected ${wrong}, got ${sha(body)}`,
      },
    ]);
  });

  it('reports an HTTP error as the reason', async () => {
    const e = entry('gone', randomBytes(100), { url: `${server.url}/nothing-here` });
    const c = cache();
    await c.load();
    await expect(c.ensure(e)).rejects.toThrow(/download failed: HTTP 404/);
    expect(server.requests).toHaveLength(1); // a 404 is not asked again
    expect(c.statuses()[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/404/) });
  });

  it.skipIf(!haveQemuImg)('converts a raw source to qcow2 once, after verifying it', async () => {
    const body = Buffer.concat([randomBytes(64 * 1024), Buffer.alloc(1 * MiB - 64 * 1024)]);
    const e = entry('raw-img', body, { format: 'raw' });
    const c = cache();
    await c.load();
    const file = await c.ensure(e);
    const info = JSON.parse((await run(qemuImg, ['info', '--output=json', file])).stdout) as Record<
      string,
      unknown
    >;
    expect(info.format).toBe('qcow2');
    expect(info['virtual-size']).toBe(body.length);
    const back = path.join(dir, 'back.raw');
    await run(qemuImg, ['convert', '-f', 'qcow2', '-O', 'raw', file, back]);
    expect(sha(await readFile(back))).toBe(e.sha256);
    expect((await readdir(path.join(dir, 'images'))).sort()).toEqual([
      `raw-img.${e.sha256}.json`,
      `raw-img.${e.sha256}.qcow2`,
    ]);
  });

  it.skipIf(!haveQemuImg)(
    'refuses a qcow2 that names a file of the host (a backing file), keeps one that stands alone',
    async () => {
      const made = async (name: string, args: string[]) => {
        const file = path.join(dir, `${name}.qcow2`);
        await run(qemuImg, ['create', '-q', '-f', 'qcow2', ...args, file, '1M']);
        return readFile(file);
      };
      const c = cache();
      await c.load();
      const hostile = entry('hostile', await made('hostile', ['-b', '/etc/passwd', '-F', 'raw']));
      await expect(c.ensure(hostile)).rejects.toThrow(/names another file \(\/etc\/passwd\)/);
      expect(c.statuses().find((s) => s.name === 'hostile')?.state).toBe('failed');
      expect(await readdir(path.join(dir, 'images'))).toEqual([]);
      const plain = entry('plain', await made('plain', []));
      expect(await c.ensure(plain)).toMatch(/plain\.[0-9a-f]{64}\.qcow2$/);
    },
  );

  it('evicts the least recently used image no overlay uses, never one in use', async () => {
    let t = 1000;
    const c = cache({ limitBytes: 2.5 * MiB, now: () => t++ });
    await c.load();
    const a = entry('a', randomBytes(1 * MiB));
    const b = entry('b', randomBytes(1 * MiB));
    const d = entry('d', randomBytes(1 * MiB));
    const fa = await c.ensure(a);
    c.release(fa);
    const fb = await c.ensure(b);
    c.release(fb);
    inUse = [fa]; // a is the oldest, but an overlay is backed by it
    const fd = await c.ensure(d);
    c.release(fd);
    expect(c.holds(a)).toBe(true);
    expect(c.holds(b)).toBe(false);
    expect(existsSync(fb)).toBe(false);
    expect(c.statuses().map((s) => s.name)).toEqual(['a', 'd']);

    // Over the limit with everything in use: nothing is evicted.
    inUse = [fa, fd];
    const fb2 = await c.ensure(b);
    expect(c.holds(a) && c.holds(d) && c.holds(b)).toBe(true);
    c.release(fb2);
  });

  it('evicts nothing when it cannot tell which images overlays use', async () => {
    const c = cache({
      limitBytes: 1.5 * MiB,
      inUse: () => Promise.reject(new Error('qemu-img: cannot read')),
    });
    await c.load();
    const fa = await c.ensure(entry('a', randomBytes(1 * MiB)));
    c.release(fa);
    await c.ensure(entry('b', randomBytes(1 * MiB)));
    expect(existsSync(fa)).toBe(true);
  });

  it('never evicts an image handed out whose overlay is not made yet', async () => {
    const c = cache({ limitBytes: 1.5 * MiB });
    await c.load();
    const a = entry('a', randomBytes(1 * MiB));
    const b = entry('b', randomBytes(1 * MiB));
    const fa = await c.ensure(a); // pinned until release
    await c.ensure(b);
    expect(existsSync(fa)).toBe(true);
  });

  it('shares one download between concurrent callers of the same image', async () => {
    const body = randomBytes(2 * MiB);
    const e = entry('shared', body);
    let open: () => void = () => {};
    server.gate = new Promise((r) => {
      open = r;
    });
    const c = cache();
    await c.load();
    const first = c.ensure(e);
    const second = c.ensure(e);
    await waitUntil(() => server.requests.length === 1);
    const fetching = c.statuses();
    expect(fetching).toEqual([
      {
        name: 'shared',
        state: 'fetching',
        sha256: e.sha256,
        bytes: 0,
        totalBytes: body.length,
        error: null,
      },
    ]);
    open();
    expect(await first).toBe(await second);
    expect(server.requests).toHaveLength(1);
  });

  it('reports statuses that the heartbeat contract accepts', async () => {
    const c = cache();
    await c.load();
    await c.ensure(entry('ok', randomBytes(1000)));
    await c.ensure(entry('bad', randomBytes(1000), { sha256: '0'.repeat(64) })).catch(() => {});
    const all = c.statuses();
    expect(all.map((s) => s.state).sort()).toEqual(['failed', 'ready']);
    for (const s of all) expect(hostImageStatus.parse(s)).toEqual(s);
  });

  it('trusts no sidecar whose file size differs, and no image without one', async () => {
    const e = entry('x', randomBytes(1000));
    const c = cache();
    await c.load();
    const file = await c.ensure(e);
    await writeFile(file, randomBytes(999));
    const stray = path.join(dir, 'images', `y.${'a'.repeat(64)}.qcow2`);
    await writeFile(stray, 'unverified');
    const again = cache();
    await again.load();
    expect(again.holds(e)).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(again.statuses()).toEqual([]);
    await again.ensure(e);
    expect(sha(await readFile(file))).toBe(e.sha256);
  });
});

async function writePart(e: CatalogueImage, bytes: Buffer) {
  const images = path.join(dir, 'images');
  await mkdir(images, { recursive: true });
  await writeFile(path.join(images, `${e.name}.${e.sha256}.part`), bytes);
}

async function waitUntil(probe: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

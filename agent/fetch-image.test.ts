import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogueImage } from '../shared/contracts/images';
import { CATALOGUE_PATH, FetchImageError, fetchImage } from './fetch-image';
import { ImageCache } from './images/cache';
import { outputOf } from './test/helpers';
import { ImageServer } from './test/image-server';

/**
 * The agent's one-shot `--fetch-image` (what install.sh runs before the service first
 * starts): the catalogue from the server's public route, the image through the agent's own
 * cache, so the running agent later finds it held.
 */
const REPO_DIR = path.resolve(import.meta.dirname, '..');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: ImageServer;
let stateDir: string;
let body: Buffer;
const otherBody = randomBytes(1024);

function catalogue(over: Partial<CatalogueImage> = {}): CatalogueImage[] {
  const image: CatalogueImage = {
    name: 'ubuntu-22.04',
    title: 'Ubuntu 22.04 LTS',
    url: `${server.url}/ubuntu.img`,
    sha256: sha(body),
    sizeBytes: null,
    format: 'qcow2',
    firmware: 'uefi',
    ...over,
  };
  const list: CatalogueImage[] = [
    { ...image, name: 'windows-11', title: 'Windows 11', url: null, sha256: null },
    {
      ...image,
      name: 'other',
      title: 'Other',
      url: `${server.url}/other.img`,
      sha256: sha(otherBody),
    },
    image,
  ];
  server.files.set(CATALOGUE_PATH, Buffer.from(JSON.stringify(list)));
  return list;
}

function options(lines: string[], name: string | null = null) {
  return {
    serverUrl: server.url,
    stateDir,
    name,
    limitBytes: 1024 ** 3,
    qemuImgBinary: 'qemu-img',
    out: (line: string) => lines.push(line),
    progressIntervalMs: 0,
    retryDelayMs: 10,
  };
}

/** The agent's entry point as a process, as install.sh runs it. */
function agentProcess(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts', ...args], {
    cwd: REPO_DIR,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      RENTGPU_SERVER_URL: server.url,
      AGENT_STATE_DIR: stateDir,
    },
    timeout: 60_000,
  });
  return outputOf(child);
}

beforeEach(async () => {
  server = new ImageServer();
  await server.start();
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'fetch-image-'));
  body = randomBytes(256 * 1024);
  server.files.set('/ubuntu.img', body);
  server.files.set('/other.img', otherBody);
});

afterEach(async () => {
  await server.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe('agent --fetch-image', () => {
  it('fetches the default image (ubuntu-22.04), verifies it and leaves it where the running agent finds it held', async () => {
    const list = catalogue();
    const lines: string[] = [];
    const file = await fetchImage(options(lines));
    const digest = sha(body);
    expect(file).toBe(path.join(stateDir, 'images', `ubuntu-22.04.${digest}.qcow2`));
    expect((await readFile(file)).equals(body)).toBe(true);
    expect((await readdir(path.join(stateDir, 'images'))).sort()).toEqual([
      `ubuntu-22.04.${digest}.json`,
      `ubuntu-22.04.${digest}.qcow2`,
    ]);
    expect(lines[0]).toContain(
      `fetching ubuntu-22.04 (Ubuntu 22.04 LTS) from ${server.url}/ubuntu.img`,
    );
    expect(lines.join('\n')).toContain(`expected SHA-256 ${digest}`);
    expect(lines.join('\n')).toMatch(/ubuntu-22\.04: 0\.3 MiB of 0\.3 MiB \(100%\)/);
    expect(lines.at(-1)).toContain('ubuntu-22.04 verified');
    expect(server.requests.map((r) => r.path)).toEqual([CATALOGUE_PATH, '/ubuntu.img']);

    // The agent's cache, started afresh (as the service starts), holds it: no download.
    const agentCache = new ImageCache({
      dir: path.join(stateDir, 'images'),
      limitBytes: 1024 ** 3,
      qemuImgBinary: 'qemu-img',
      inUse: async () => [],
    });
    await agentCache.load();
    const ubuntu = list.find((i) => i.name === 'ubuntu-22.04') as CatalogueImage;
    expect(agentCache.holds(ubuntu)).toBe(true);
    expect(await agentCache.ensure(ubuntu)).toBe(file);
    expect(server.requests.filter((r) => r.path === '/ubuntu.img')).toHaveLength(1);

    // Run again (an installer run twice): nothing is downloaded.
    const again: string[] = [];
    expect(await fetchImage(options(again))).toBe(file);
    expect(again).toEqual([`ubuntu-22.04 is already held and verified: ${file}`]);
    expect(server.requests.filter((r) => r.path === '/ubuntu.img')).toHaveLength(1);
  });

  it('resumes a transfer cut off halfway', async () => {
    catalogue({ sizeBytes: body.length });
    server.cutAfter.set('/ubuntu.img', 100 * 1024);
    const lines: string[] = [];
    await fetchImage(options(lines));
    expect(lines.join('\n')).toContain('transfer interrupted');
    expect(server.requests.filter((r) => r.path === '/ubuntu.img').map((r) => r.range)).toEqual([
      null,
      `bytes=${100 * 1024}-`,
    ]);
  });

  it('fetches a named image', async () => {
    catalogue();
    const file = await fetchImage(options([], 'other'));
    expect(path.basename(file)).toMatch(/^other\.[0-9a-f]{64}\.qcow2$/);
  });

  it.each([
    [
      'nope',
      "image nope is not in the server's catalogue (images: windows-11, other, ubuntu-22.04)",
    ],
    ['windows-11', 'image windows-11 has no download source'],
  ])('refuses %s with the reason', async (name, message) => {
    catalogue();
    await expect(fetchImage(options([], name))).rejects.toThrow(message);
  });

  it('says so when the catalogue cannot be read', async () => {
    await expect(fetchImage(options([]))).rejects.toThrow(
      `could not read the image catalogue from ${server.url}${CATALOGUE_PATH}: HTTP 404`,
    );
  });

  it('a wrong SHA-256: checksum mismatch, nothing kept', async () => {
    catalogue({ sha256: 'a'.repeat(64) });
    const error = await fetchImage(options([])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchImageError);
    expect((error as Error).message).toContain('ubuntu-22.04: checksum mismatch: expected ');
    expect((error as Error).message).toContain('checksum mismatch');
    expect(await readdir(path.join(stateDir, 'images'))).toEqual([]);
  });

  it('as a process: exit 0 with progress, and non-zero with "checksum mismatch" on a wrong SHA-256', async () => {
    catalogue();
    const ok = await agentProcess(['--fetch-image']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('ubuntu-22.04 verified');

    await rm(path.join(stateDir, 'images'), { recursive: true, force: true });
    catalogue({ sha256: 'a'.repeat(64) });
    const bad = await agentProcess(['--fetch-image', 'ubuntu-22.04']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('ERROR: ubuntu-22.04: checksum mismatch: expected ');
    expect(await readdir(path.join(stateDir, 'images'))).toEqual([]);

    const usage = await agentProcess(['--fetch-image', '../etc']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: rentgpu-agent.mjs --fetch-image [IMAGE-NAME]');
  }, 60_000);
});

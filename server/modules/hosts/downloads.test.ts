import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageCatalogue } from '../../../shared/contracts/images';
import { createTestApp, type TestApp } from '../../test/app';
import { DEFAULT_IMAGE_CATALOGUE } from '../images/catalogue';
import { INSTALLER_PATH, loadAgentBundle } from './downloads';

const run = promisify(execFile);
let t: TestApp;
let tmp: string;
beforeAll(async () => {
  t = await createTestApp();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-downloads-'));
});
afterAll(async () => {
  await t.close();
  await rm(tmp, { recursive: true, force: true });
});

describe("agent downloads (the installer and agent a provider's setup guide links)", () => {
  it('GET /api/providers/agent/download: the committed installer, as an attachment, signed out', async () => {
    const res = await t.request({ method: 'GET', url: '/api/providers/agent/download' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="install.sh"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toMatch(/^text\/x-shellscript/);
    expect(res.rawPayload.equals(await readFile(INSTALLER_PATH))).toBe(true);
    expect(res.body.startsWith('#!/usr/bin/env bash\n')).toBe(true);
  });

  it('the installer is the same bytes whoever asks and whatever the request carries', async () => {
    const a = await t.request({
      method: 'GET',
      url: '/api/providers/agent/download?server=https://evil.example&token=x',
      headers: { host: 'evil.example', origin: 'https://evil.example' },
    });
    const { cookie } = await t.signIn();
    const b = await t.request({ method: 'GET', url: '/api/providers/agent/download', cookie });
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect(a.body).not.toContain('evil.example');
  });

  it('GET /api/providers/agent/download-script: an agent bundle that runs with Node alone', async () => {
    const res = await t.request({ method: 'GET', url: '/api/providers/agent/download-script' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="rentgpu-agent.mjs"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    // Bundled: no import of our sources or of zod is left for the host to resolve.
    expect(res.body).not.toMatch(/from ['"](zod|\.\.?\/)/);

    const agent = path.join(tmp, 'agent.mjs');
    await writeFile(agent, res.rawPayload);
    const bad = await run(process.execPath, [agent], {
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '', AGENT_STATE_DIR: tmp },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Invalid agent configuration');
    expect(bad.stderr).toContain('RENTGPU_SERVER_URL');

    // Built once, then served from memory.
    const again = await t.request({ method: 'GET', url: '/api/providers/agent/download-script' });
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it("GET /api/providers/agent/download-script.sha256: the served agent's SHA-256, as sha256sum writes it", async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/providers/agent/download-script.sha256',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['cache-control']).toBe('no-store');
    const agent = await t.request({ method: 'GET', url: '/api/providers/agent/download-script' });
    const digest = createHash('sha256').update(agent.rawPayload).digest('hex');
    expect(res.body).toBe(`${digest}  rentgpu-agent.mjs\n`);
    // The coreutils tool the installer uses agrees.
    await writeFile(path.join(tmp, 'rentgpu-agent.mjs'), agent.rawPayload);
    await writeFile(path.join(tmp, 'agent.sha256'), res.body);
    const checked = await run('sha256sum', ['--check', '--strict', 'agent.sha256'], { cwd: tmp });
    expect(checked.stdout).toBe('rentgpu-agent.mjs: OK\n');
  });

  it('GET /api/providers/agent/images: the image catalogue, signed out, as the contract says', async () => {
    const res = await t.request({ method: 'GET', url: '/api/providers/agent/images' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = imageCatalogue.parse(res.json());
    expect(body).toEqual(DEFAULT_IMAGE_CATALOGUE);
    const ubuntu = body.find((image) => image.name === 'ubuntu-22.04');
    expect(ubuntu?.url).toMatch(/^https:\/\/cloud-images\.ubuntu\.com\//);
    expect(ubuntu?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("GET /api/providers/agent/images answers the operator's catalogue (IMAGE_CATALOGUE_FILE)", async () => {
    const own = [
      {
        name: 'debian-12',
        title: 'Debian 12',
        url: 'https://images.example/debian-12.qcow2',
        sha256: 'b'.repeat(64),
        sizeBytes: 1234,
        format: 'qcow2',
        firmware: 'uefi',
      },
    ];
    const file = path.join(tmp, 'catalogue.json');
    await writeFile(file, JSON.stringify(own));
    const other = await createTestApp({ env: { IMAGE_CATALOGUE_FILE: file } });
    try {
      const res = await other.request({ method: 'GET', url: '/api/providers/agent/images' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(own);
    } finally {
      await other.close();
    }
  });

  it('serves the built bundle (npm run build:agent) when there is one', async () => {
    const built = path.join(tmp, 'built.mjs');
    await writeFile(built, 'console.log("built")\n');
    expect((await loadAgentBundle(built)).toString()).toBe('console.log("built")\n');
  });
});

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CatalogueImage } from '../../shared/contracts/images';
import { deployUserData } from '../../shared/deploy-templates';
import { TestControlPlane } from './control-plane';
import { FAKE_NVIDIA_SMI, newKeyPair, qemuPidsOf, REPO_DIR, run, spawnAgent, ssh } from './helpers';
import { ImageServer } from './image-server';

/**
 * The whole path on a real distribution (issue 19): the real agent process fetches a real
 * Debian 12 cloud image (scripts/test-image/build.sh: systemd, the Debian cloud-init package,
 * OpenSSH) over HTTP from a local server exactly as a provider's host fetches Ubuntu's — the
 * first transfer cut off and resumed, a wrong checksum refused — boots it from its own disk
 * under UEFI firmware (software emulation), real cloud-init creates the renter's user from the
 * agent's seed, the agent's probe waits for cloud-init's final stage, and the real OpenSSH
 * client logs in with the renter's key. Two guests at most at once.
 */

const IMAGE_DIR = process.env.TEST_IMAGE_DIR ?? path.join(REPO_DIR, '.cache/test-image');
const IMAGE = path.join(IMAGE_DIR, 'debian-12-rentgpu.qcow2');
const OVMF = ['/usr/share/OVMF/OVMF_CODE_4M.fd', '/usr/share/OVMF/OVMF_VARS_4M.fd'];
const DISK_GIB = 4;
const LONG = 900_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** `SHA256:…` as `ssh-keygen -lf` prints it, of an OpenSSH public key line. */
const fingerprint = (line: string) =>
  `SHA256:${createHash('sha256')
    .update(Buffer.from(line.split(/\s+/)[1] ?? '', 'base64'))
    .digest('base64')
    .replace(/=+$/, '')}`;

let tmp: string;
let stateDir: string;
let key: string;
let publicKey: string;
let server: TestControlPlane;
let images: ImageServer;
let agent: ReturnType<typeof spawnAgent> | null = null;
let image: Buffer;
const ids: string[] = [];
const timings: string[] = [];

beforeAll(async () => {
  // Idempotent: seconds when the image is already built (CI builds it in .ci/run first).
  await run('bash', [path.join(REPO_DIR, 'scripts/test-image/build.sh')], { timeout: 1_200_000 });
  for (const file of [IMAGE, ...OVMF]) {
    if (!existsSync(file))
      throw new Error(`${file} missing (scripts/test-image/build.sh installs ovmf)`);
  }
  image = await readFile(IMAGE);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-real-'));
  stateDir = path.join(tmp, 'state');
  key = path.join(tmp, 'renter');
  await newKeyPair(key, 'renter@real');
  publicKey = (await readFile(`${key}.pub`, 'utf8')).trim();
  images = new ImageServer();
  await images.start();
  server = new TestControlPlane();
  await server.start();
}, 1_300_000);

const lines: string[] = [];
beforeEach((ctx) => {
  ctx.onTestFailed(() => {
    console.log(
      `[real guest] agent output (tail):\n${lines.join('').split('\n').slice(-80).join('\n')}`,
    );
  });
});

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await agent?.exited;
  for (const id of ids) for (const pid of await qemuPidsOf(id)) process.kill(pid, 'SIGKILL');
  await server?.close();
  await images?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  if (timings.length > 0) console.log(`[real guest] timings:\n  ${timings.join('\n  ')}`);
});

/** What the server would place: the renter's key, a catalogue image, a template's setup. */
function spec(id: string, imageName: string, userData: string | null) {
  ids.push(id);
  return {
    id,
    cpus: 2,
    memoryMib: 1024,
    diskGib: DISK_GIB,
    gpuIndexes: [],
    sshUser: 'ubuntu',
    sshPublicKeys: [publicKey],
    platformSshPublicKey: null,
    vncPassword: 'Vn3c-pw8',
    userData,
    image: imageName,
  };
}

/**
 * A deploy template's own user-data with only what runs offline (the guest reaches no package
 * mirror here): its files and the commands that need no download; packages, pip and the GPU
 * driver are left out.
 */
function offlineTemplate(jupyterToken: string): string {
  const config = parse(deployUserData('pytorch', { jupyterToken })) as Record<string, unknown>;
  const keep = {
    write_files: config.write_files,
    runcmd: [
      ['systemctl', 'daemon-reload'],
      ['touch', '/var/lib/rentgpu-template-ran'],
    ],
  };
  return `#cloud-config\n${JSON.stringify(keep)}\n`;
}

describe('a real Debian cloud image with real cloud-init, driven by the real agent', () => {
  it('is fetched (resumed, verified), booted under UEFI, set up by cloud-init and logged into; survives stop and start; terminate keeps the cached image', async () => {
    const url = '/debian-12-rentgpu.qcow2';
    images.files.set(url, image);
    // The first transfer breaks off a third of the way: the agent resumes it with a Range.
    images.cutAfter.set(url, Math.floor(image.length / 3));
    const good: CatalogueImage = {
      name: 'debian-12-test',
      title: 'Debian 12 (test image)',
      url: `${images.url}${url}`,
      sha256: sha256(image),
      sizeBytes: image.length,
      format: 'qcow2',
      firmware: 'uefi',
    };
    const tampered: CatalogueImage = {
      ...good,
      name: 'debian-12-tampered',
      sha256: '0'.repeat(64),
    };
    server.images = [good, tampered];
    agent = spawnAgent({
      RENTGPU_SERVER_URL: server.url,
      AGENT_STATE_DIR: stateDir,
      AGENT_ENROLL_TOKEN: server.newToken(),
      AGENT_HEARTBEAT_INTERVAL_MS: '1000',
      AGENT_NVIDIA_SMI: FAKE_NVIDIA_SMI,
      AGENT_ALLOW_SOFTWARE_EMULATION: 'true',
      AGENT_GPU_PASSTHROUGH: 'false',
      AGENT_LISTEN_HOST: '127.0.0.1',
      AGENT_PUBLIC_HOST: '127.0.0.1',
      AGENT_SSH_PORTS: '22800-22899',
      AGENT_VNC_DISPLAYS: '80-89',
      AGENT_BOOT_TIMEOUT_MS: '720000',
      AGENT_STOP_TIMEOUT_MS: '90000',
    });
    agent.child.stdout?.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    agent.child.stderr?.on('data', (c: Buffer) => lines.push(c.toString('utf8')));

    const token = 'a'.repeat(48);
    const stamp = Date.now().toString(36);
    const t0 = Date.now();
    server.setDesired(spec(`real-${stamp}`, good.name, offlineTemplate(token)), 'running');
    // An image whose bytes do not match the catalogue: never booted.
    server.setDesired(spec(`bad-${stamp}`, tampered.name, null), 'running');
    const [id, bad] = ids.slice(-2) as [string, string];

    const refused = await server.waitForState(bad, 'failed', 120_000);
    expect(refused.error).toMatch(/checksum mismatch: expected 0{64}, got [0-9a-f]{64}/);
    expect(await qemuPidsOf(bad)).toHaveLength(0);
    const downloading = server.reportsFor(id).find((r) => r.progress?.step === 'downloading-image');
    expect(downloading).toBeDefined();

    const running = await server.waitForState(id, 'running', LONG);
    timings.push(`create → ready (probe saw cloud-init done): ${seconds(Date.now() - t0)}`);
    // Fetched (one transfer cut off and resumed) and verified: until the agent says booting.
    const booting = server
      .reportsFor(id)
      .find((r) => r.state === 'provisioning' && r.progress?.step === 'booting');
    if (booting?.at) {
      timings.push(
        `image ${(image.length / 1024 ** 2).toFixed(0)} MiB fetched and verified from the local server: ${seconds(new Date(booting.at).getTime() - t0)}`,
      );
    }
    // One transfer broke off; the next asked for the rest.
    expect(
      images.requests.filter((r) => r.path === url).some((r) => r.range?.startsWith('bytes=')),
    ).toBe(true);

    const port = running.ssh?.port ?? 0;
    expect(running.ssh).toEqual({ host: '127.0.0.1', port, user: 'ubuntu' });

    // The renter logs in with their own key: the user cloud-init made, sudo without a password.
    expect(await ssh(key, port, 'ubuntu', 'id -un && sudo -n true && echo sudo-ok')).toBe(
      'ubuntu\nsudo-ok\n',
    );
    expect((await ssh(key, port, 'ubuntu', 'cloud-init status')).trim()).toBe('status: done');
    // The root file system grew to the instance's disk (the image is 2.2 GB).
    const rootBytes = Number(
      (await ssh(key, port, 'ubuntu', 'df -B1 --output=size / | tail -1')).trim(),
    );
    expect(rootBytes).toBeGreaterThan((DISK_GIB - 0.5) * 1024 ** 3);
    // The host key the agent reported is the guest's own, and what an OpenSSH client sees.
    expect(running.hostKeys?.length).toBe(1);
    const reported = fingerprint(running.hostKeys?.[0] ?? '');
    const inside = await ssh(
      key,
      port,
      'ubuntu',
      'ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub',
    );
    expect(inside.split(' ')[1]).toBe(reported);
    const scanned = await run('sh', [
      '-c',
      `ssh-keyscan -t ed25519 -p ${port} 127.0.0.1 2>/dev/null | ssh-keygen -lf -`,
    ]);
    expect(scanned.stdout.split(' ')[1]).toBe(reported);
    // The template's offline parts ran under real cloud-init: its files, with their modes, and its commands.
    const files = await ssh(
      key,
      port,
      'ubuntu',
      'sudo stat -c "%a %n" /etc/rentgpu/jupyter.env /etc/systemd/system/rentgpu-jupyter.service /usr/local/sbin/rentgpu-gpu-driver /var/lib/rentgpu-template-ran && sudo cat /etc/rentgpu/jupyter.env',
    );
    expect(files).toBe(
      `600 /etc/rentgpu/jupyter.env\n644 /etc/systemd/system/rentgpu-jupyter.service\n755 /usr/local/sbin/rentgpu-gpu-driver\n644 /var/lib/rentgpu-template-ran\nJUPYTER_TOKEN=${token}\n`,
    );
    // The probe user can read cloud-init's result and nothing else.
    expect(await ssh(key, port, 'ubuntu', 'sudo -l -U rentgpu-probe | tail -1')).toMatch(
      /not allowed/,
    );

    // A template whose setup fails: reported failed with the failing step, never "running". It
    // boots while the first guest stops and starts (two guests at once, as a host runs them),
    // not beside the first boot, which then has the machine's cores to itself.
    server.setDesired(
      spec(`fail-${stamp}`, good.name, '#cloud-config\nruncmd:\n  - [sh, -c, "exit 3"]\n'),
      'running',
    );
    const failing = ids.at(-1) as string;

    // Stop and start: the disk and what the renter wrote stay.
    await ssh(key, port, 'ubuntu', 'echo kept > ~/file && sync');
    const t1 = Date.now();
    server.setDesired(spec(id, good.name, offlineTemplate(token)), 'stopped');
    await server.waitForState(id, 'stopped', 240_000);
    timings.push(`stop → stopped (ACPI shutdown): ${seconds(Date.now() - t1)}`);
    const t2 = Date.now();
    server.setDesired(spec(id, good.name, offlineTemplate(token)), 'running');
    const again = await server.waitForState(id, 'running', LONG);
    timings.push(`start → ready: ${seconds(Date.now() - t2)}`);
    expect(await ssh(key, again.ssh?.port ?? 0, 'ubuntu', 'cat ~/file')).toBe('kept\n');
    expect(fingerprint(again.hostKeys?.[0] ?? '')).toBe(reported);
    const setupFailed = await server.waitForState(failing, 'failed', LONG);
    expect(setupFailed.error).toMatch(/^setup failed: .*scripts.user/);
    expect(server.reportsFor(failing).some((r) => r.state === 'running')).toBe(false);

    // Terminate deletes the instance's overlay; the verified image stays cached for the next.
    server.setDesired(spec(id, good.name, null), 'terminated');
    await server.waitForState(id, 'terminated', 120_000);
    expect(existsSync(path.join(stateDir, 'instances', id))).toBe(false);
    const cached = await readdir(path.join(stateDir, 'images'));
    expect(cached).toContain(`${good.name}.${good.sha256}.qcow2`);
    expect(cached.some((f) => f.startsWith(tampered.name) && !f.endsWith('.json'))).toBe(false);
    const held = server.heartbeats.at(-1)?.images ?? [];
    expect(held.find((i) => i.name === good.name)?.state).toBe('ready');
    // The refused instance is still wanted running, so the agent retries it now and then, and
    // each retry fetches the tampered image again: `fetching`, then `failed` (a CI run read a
    // heartbeat sent mid-retry). It settles as failed and is never ready.
    const tamperedState = () =>
      server.heartbeats.at(-1)?.images?.find((i) => i.name === tampered.name)?.state;
    await expect.poll(tamperedState, { timeout: 120_000, interval: 250 }).toBe('failed');
    const everReady = server.heartbeats.some((beat) =>
      beat.images?.some((i) => i.name === tampered.name && i.state === 'ready'),
    );
    expect(everReady).toBe(false);
  }, 2_400_000);
});

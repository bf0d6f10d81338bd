import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesiredInstance } from '../../shared/contracts/agent-protocol';
import { instanceFiles, qemuArgs } from '../qemu/args';
import { isAlive, portIsFree, readSshBanner, waitForExit } from '../qemu/processes';
import { buildSeedFiles, guestHostname, writeSeedIso } from '../qemu/seed';
import { REPO_DIR, run, ssh } from './helpers';

/**
 * A real distribution guest (Debian 12 with the Debian `cloud-init` package, built by
 * scripts/test-image/build.sh) booted from its own disk under UEFI firmware (OVMF), with the
 * agent's own NoCloud seed (agent/qemu/seed.ts) and the agent's own QEMU arguments
 * (agent/qemu/args.ts, plus the firmware's flash drives), reached with the real OpenSSH client.
 * Software emulation; one VM. Skipped when the image has not been built.
 */

const IMAGE_DIR = process.env.TEST_IMAGE_DIR ?? path.join(REPO_DIR, '.cache/test-image');
const IMAGE = path.join(IMAGE_DIR, 'debian-12-rentgpu.qcow2');
// Debian's ovmf package: the firmware code (read-only) and a template of its variable store,
// copied per instance (the firmware writes its boot entries there).
const OVMF_CODE = '/usr/share/OVMF/OVMF_CODE_4M.fd';
const OVMF_VARS = '/usr/share/OVMF/OVMF_VARS_4M.fd';
const DISK_BYTES = 4 * 1024 ** 3;
const BOOT_TIMEOUT_MS = 480_000;

const missing = [IMAGE, OVMF_CODE, OVMF_VARS].filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.warn(
    `[real guest] skipped: ${missing.join(', ')} missing (build the image with scripts/test-image/build.sh; OVMF comes with the Debian package ovmf)`,
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    if (await portIsFree('127.0.0.1', port)) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

describe.skipIf(missing.length > 0)('real Debian cloud guest with real cloud-init', () => {
  let tmp: string;
  let dir: string;
  let key: string;
  let pid: number | null = null;
  let sshPort: number;
  let spec: DesiredInstance;
  const timings: string[] = [];

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-real-'));
    dir = path.join(tmp, 'instance');
    await mkdir(dir, { mode: 0o700 });
    key = path.join(tmp, 'renter');
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'renter@real', '-f', key]);
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'platform', '-f', `${key}-p`]);
    const info = await readFile(path.join(IMAGE_DIR, 'image-info.txt'), 'utf8').catch(() => '');
    const built = /^build_seconds=(\d+)$/m.exec(info)?.[1];
    if (built) timings.push(`image build (from image-info.txt): ${built} s`);
    spec = {
      id: `real-${Date.now().toString(36)}`,
      generation: 1,
      state: 'running',
      cpus: 2,
      memoryMib: 1024,
      diskGib: 4,
      gpuIndexes: [],
      sshUser: 'ubuntu',
      sshPublicKeys: [(await readFile(`${key}.pub`, 'utf8')).trim()],
      platformSshPublicKey: (await readFile(`${key}-p.pub`, 'utf8')).trim(),
      vncPassword: 'Vn3c-pw8',
      // A template's own cloud-config: the seed's second MIME part, merged by cloud-init.
      userData:
        '#cloud-config\nruncmd:\n  - [sh, -c, "echo template-ran > /var/tmp/rentgpu-template"]\n',
    };
  }, 120_000);

  afterAll(async () => {
    for (const line of timings) console.log(`[real guest] ${line}`);
    if (pid && (await isAlive(pid))) {
      process.kill(pid, 'SIGTERM');
      if (!(await waitForExit(pid, 10_000))) process.kill(pid, 'SIGKILL');
    }
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it('boots from its own disk under OVMF; cloud-init makes the user, grows the disk and ends done; the host key seen outside is the guest’s own', async () => {
    // As a host verifies a fetched image: the recorded SHA-256 is the file's.
    const recorded = (await readFile(`${IMAGE}.sha256`, 'utf8')).split(/\s+/)[0];
    expect(await sha256Of(IMAGE)).toBe(recorded);

    const f = instanceFiles(dir);
    await run('qemu-img', [
      'create',
      '-q',
      '-f',
      'qcow2',
      '-b',
      IMAGE,
      '-F',
      'qcow2',
      f.disk,
      String(DISK_BYTES),
    ]);
    await writeSeedIso(f.seed, buildSeedFiles(spec));
    const vars = path.join(dir, 'OVMF_VARS.fd');
    await copyFile(OVMF_VARS, vars);
    sshPort = await freePort(22850, 22899);
    let vncDisplay = 85;
    while (!(await portIsFree('127.0.0.1', 5900 + vncDisplay))) vncDisplay++;
    const args = [
      ...qemuArgs({
        id: spec.id,
        dir,
        accelerator: 'tcg',
        cpus: spec.cpus,
        memoryMib: spec.memoryMib,
        hostname: guestHostname(spec.id),
        listenHost: '127.0.0.1',
        sshPort,
        vncDisplay,
        kernel: null,
        vfioPciAddresses: [],
      }),
      // UEFI firmware: code read-only, the instance's own variable store.
      '-drive',
      `if=pflash,format=raw,unit=0,readonly=on,file=${OVMF_CODE}`,
      '-drive',
      `if=pflash,format=raw,unit=1,file=${vars}`,
    ];
    const t0 = Date.now();
    await run('qemu-system-x86_64', args, { timeout: 60_000 });
    pid = Number((await readFile(f.pid, 'utf8')).trim());
    const serialTail = async () =>
      (await readFile(f.serial, 'utf8').catch(() => '')).split('\n').slice(-40).join('\n');

    // A TCP connect succeeds through slirp before the guest listens: wait for the banner.
    while (!(await readSshBanner('127.0.0.1', sshPort, 10_000))) {
      if (!(await isAlive(pid))) throw new Error(`qemu exited during boot\n${await serialTail()}`);
      if (Date.now() - t0 > BOOT_TIMEOUT_MS)
        throw new Error(`no SSH banner after ${seconds(BOOT_TIMEOUT_MS)}\n${await serialTail()}`);
      await sleep(1000);
    }
    const tBanner = Date.now() - t0;
    timings.push(`boot → SSH banner: ${seconds(tBanner)}`);

    // The banner comes before cloud-init has written the user's keys: log in until it works.
    let whoami = '';
    let uptime = 0;
    for (;;) {
      try {
        const out = await ssh(key, sshPort, 'ubuntu', 'id -un; cut -d" " -f1 /proc/uptime');
        const [user = '', up = '0'] = out.trim().split('\n');
        whoami = user;
        uptime = Number(up);
        break;
      } catch (err) {
        if (Date.now() - t0 > BOOT_TIMEOUT_MS)
          throw new Error(`no login: ${String(err)}\n${await serialTail()}`);
        await sleep(2000);
      }
    }
    const tLogin = Date.now() - t0;
    timings.push(`boot → key login: ${seconds(tLogin)}`);
    // The kernel's uptime starts after the firmware and the boot loader: the rest is theirs.
    timings.push(
      `firmware + boot loader (login time − guest uptime): ${seconds(tLogin - uptime * 1000)}`,
    );
    expect(whoami).toBe('ubuntu');

    // Ready for a template means cloud-init's final stage has ended, not only SSH answering.
    const finished = 'test -e /var/lib/cloud/instance/boot-finished && echo yes || echo no';
    while ((await ssh(key, sshPort, 'ubuntu', finished)).trim() !== 'yes') {
      if (Date.now() - t0 > BOOT_TIMEOUT_MS)
        throw new Error(`cloud-init final stage not finished\n${await serialTail()}`);
      await sleep(2000);
    }
    const tDone = Date.now() - t0;
    timings.push(`boot → cloud-init final stage done: ${seconds(tDone)}`);

    // Where the boot's time went: firmware + loader (systemd-boot reports them), kernel,
    // userspace; cloud-init's slowest modules.
    const analysis = await ssh(
      key,
      sshPort,
      'ubuntu',
      'systemd-analyze 2>&1; systemd-analyze blame 2>&1 | head -8; sudo -n cloud-init analyze blame 2>/dev/null | head -14',
    );
    console.log(`[real guest] boot analysis:\n${analysis}`);
    const status = await ssh(key, sshPort, 'ubuntu', 'cloud-init status --long || true');
    console.log(`[real guest] cloud-init status --long:\n${status}`);
    expect(status).toMatch(/^status: done$/m);

    // Passwordless sudo (stderr: what sudo complains of, e.g. an unresolvable host name).
    const sudo = await ssh(key, sshPort, 'ubuntu', 'sudo -n true 2>&1 && echo SUDO-OK');
    if (sudo.trim() !== 'SUDO-OK') console.log(`[real guest] sudo said: ${sudo.trim()}`);
    expect(sudo).toMatch(/^SUDO-OK$/m);

    expect((await ssh(key, sshPort, 'ubuntu', 'hostname')).trim()).toBe(guestHostname(spec.id));
    // The template's part ran (the seed's MIME multipart, merged by the real cloud-init).
    expect((await ssh(key, sshPort, 'ubuntu', 'cat /var/tmp/rentgpu-template')).trim()).toBe(
      'template-ran',
    );

    // growpart + resize: the 2 GiB root partition grew to (about) the 4 GiB overlay.
    const rootBytes = Number(
      (await ssh(key, sshPort, 'ubuntu', 'df -B1 --output=size / | tail -1')).trim(),
    );
    timings.push(`root file system: ${rootBytes} bytes on a ${DISK_BYTES}-byte disk`);
    expect(rootBytes).toBeGreaterThan(DISK_BYTES * 0.85);
    expect(rootBytes).toBeLessThanOrEqual(DISK_BYTES);

    // The host key pinned from inside (what the platform would show) is what SSH clients see.
    const inside = (
      await ssh(key, sshPort, 'ubuntu', 'ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub')
    ).split(/\s+/)[1];
    const scanned = await run('sh', [
      '-c',
      `ssh-keyscan -t ed25519 -p ${sshPort} 127.0.0.1 2>/dev/null | ssh-keygen -lf -`,
    ]);
    const outside = scanned.stdout.split(/\s+/)[1];
    expect(inside).toMatch(/^SHA256:/);
    expect(outside).toBe(inside);
  });
});
